import AgroCLI
import AgroPresentation
import AgroUpdate
import Foundation

extension Environment {
    /// The update server and trusted keys: flags, else the environment (AGRO_UPDATE_SERVER,
    /// AGRO_TRUST, AGRO_INSECURE), else config.json's `update` section, passed on typed.
    ///
    /// The config file's relative key paths are relative to the config directory.
    func updateConfiguration(_ options: UpdateOptions) throws -> UpdateConfiguration {
        let section = configuration.update
        let file = UpdateFileSettings(
            server: section?.server,
            trust: (section?.trust ?? []).map { $0.hasPrefix("/") ? $0 : paths.config.appendingPathComponent($0).path },
            insecure: section?.insecure ?? false, identity: section?.identity, deadline: section?.deadline)
        return try UpdateConfiguration.resolve(
            server: options.server, trust: options.trust, insecure: options.insecure, environment: processEnvironment,
            file: file, identity: options.identity)
    }
}
