import Foundation

/// Where updates come from and whom to trust.
///
/// Built once by the program from, in order of precedence, the command-line flags
/// (`--server URL --trust FILE.pub --insecure`), the environment (`AGRO_UPDATE_SERVER`,
/// `AGRO_TRUST` with `:`-separated paths, `AGRO_INSECURE=1`) and the config file
/// (`update.server`, `update.trust` with `,`-separated paths, `update.insecure`).
public struct UpdateConfiguration: Sendable {
    /// The publishing directory's URL; the manifest is `<server>/manifest.json`.
    public var server: URL
    public var trustedKeys: [PublicSigningKey]
    /// Allows plain http to hosts other than loopback.
    public var allowInsecure: Bool
    /// Seconds without a byte from the server after which a request fails.
    public var timeout: TimeInterval

    /// - Throws: `UpdateError.noTrustedKeys`, `.invalidServerURL`, `.insecureServer`.
    public init(server: URL, trustedKeys: [PublicSigningKey], allowInsecure: Bool = false, timeout: TimeInterval = 30) throws {
        guard !trustedKeys.isEmpty else { throw UpdateError.noTrustedKeys }
        try Self.checkScheme(server, allowInsecure: allowInsecure)
        self.server = server
        self.trustedKeys = trustedKeys
        self.allowInsecure = allowInsecure
        self.timeout = timeout
    }

    /// Resolves the settings from flags, environment and config file values (flags win).
    ///
    /// - Parameters:
    ///   - server: `--server`, if given.
    ///   - trust: `--trust` paths, if any; they replace, not extend, the other sources' keys.
    ///   - insecure: `--insecure`.
    ///   - environment: the process environment.
    ///   - file: `update.*` values of the config file.
    public static func resolve(
        server: String?, trust: [String], insecure: Bool, environment: [String: String], file: [String: String] = [:]
    ) throws -> UpdateConfiguration {
        guard let serverText = server ?? environment["AGRO_UPDATE_SERVER"] ?? file["update.server"] else {
            throw UpdateError.noServer
        }
        let trustPaths: [String]
        if !trust.isEmpty {
            trustPaths = trust
        } else if let value = environment["AGRO_TRUST"], !value.isEmpty {
            trustPaths = value.split(separator: ":").map(String.init)
        } else {
            trustPaths = (file["update.trust"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let keys = try trustPaths.filter { !$0.isEmpty }.map { try PublicSigningKey.read(file: $0) }
        let allowInsecure = insecure || ["1", "true", "yes"].contains(environment["AGRO_INSECURE"] ?? "")
            || ["1", "true", "yes"].contains(file["update.insecure"] ?? "")
        guard let url = URL(string: serverText), url.host != nil else { throw UpdateError.invalidServerURL(serverText) }
        return try UpdateConfiguration(server: url, trustedKeys: keys, allowInsecure: allowInsecure)
    }

    /// Refuses anything but https, and plain http to hosts other than loopback unless allowed.
    package static func checkScheme(_ url: URL, allowInsecure: Bool) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http":
            if allowInsecure || isLoopback(url.host ?? "") { return }
            throw UpdateError.insecureServer(url: url.absoluteString)
        default:
            throw UpdateError.invalidServerURL(url.absoluteString)
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `<server>/<path>`, whether or not the server URL ends with a slash.
    package func url(_ path: String) -> URL {
        var base = server.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + path)!
    }
}
