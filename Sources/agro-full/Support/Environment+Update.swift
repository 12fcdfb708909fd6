import AgroCLI
import AgroPresentation
import AgroUpdate
import Foundation

extension Environment {
    /// The update server and trusted keys: flags, else the environment (AGRO_UPDATE_SERVER,
    /// AGRO_TRUST, AGRO_INSECURE), else config.json's `update` section.
    ///
    /// The config file's key paths are passed as a list (a path may hold a comma); relative
    /// ones are relative to the config directory.
    func updateConfiguration(_ options: UpdateOptions) throws -> UpdateConfiguration {
        var trust = options.trust
        if trust.isEmpty, (processEnvironment["AGRO_TRUST"] ?? "").isEmpty, let configured = configuration.update?.trust {
            trust = configured.map { $0.hasPrefix("/") ? $0 : paths.config.appendingPathComponent($0).path }
        }
        return try UpdateConfiguration.resolve(
            server: options.server, trust: trust, insecure: options.insecure, environment: processEnvironment,
            file: configuration.update?.fileValues ?? [:], identity: options.identity)
    }
}
