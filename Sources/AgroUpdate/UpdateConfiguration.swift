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
    /// The publisher keys whose signatures are accepted (any one of them).
    public var trustedKeys: [PublicSigningKey]
    /// Allows plain http to hosts other than loopback.
    public var allowInsecure: Bool
    /// Seconds without a byte from the server after which a request fails.
    public var timeout: TimeInterval
    /// Seconds the whole manifest request may take (`update.deadline`, `AGRO_UPDATE_DEADLINE`).
    public var manifestDeadline: TimeInterval = 30
    /// The slowest download rate, in bytes per second, a catalog's deadline allows for: the
    /// catalog may take `manifestDeadline` plus its size at this rate.
    public var minimumDownloadRate: Double = 32 * 1024
    /// When set, only manifests of this catalog identity are accepted, even on the first
    /// install (`--identity`, `AGRO_UPDATE_IDENTITY`, `update.identity`).
    public var pinnedIdentity: String?
    /// Accept a signed manifest older than the highest version ever installed of its identity
    /// (`db update --allow-downgrade`).
    public var allowDowngrade = false

    /// - Throws: `UpdateError.noTrustedKeys`, `.invalidServerURL`, `.insecureServer`.
    public init(server: URL, trustedKeys: [PublicSigningKey], allowInsecure: Bool = false, timeout: TimeInterval = 30) throws {
        guard !trustedKeys.isEmpty else { throw UpdateError.noTrustedKeys }
        try Self.checkScheme(server, allowInsecure: allowInsecure)
        self.server = server
        self.trustedKeys = trustedKeys
        self.allowInsecure = allowInsecure
        self.timeout = timeout
    }

    /// Seconds a download of `size` bytes may take in all.
    public func catalogDeadline(size: Int64) -> TimeInterval {
        let rate = minimumDownloadRate.isFinite && minimumDownloadRate > 0 ? minimumDownloadRate : 32 * 1024
        return manifestDeadline + Double(max(0, size)) / rate
    }

    /// Resolves the settings from flags, environment and config file values (flags win).
    ///
    /// - Parameters:
    ///   - server: `--server`, if given.
    ///   - trust: `--trust` paths, if any; they replace, not extend, the other sources' keys.
    ///   - insecure: `--insecure`.
    ///   - environment: the process environment.
    ///   - file: the `update` section of the config file, as read.
    ///   - identity: `--identity`, if given.
    public static func resolve(
        server: String?, trust: [String], insecure: Bool, environment: [String: String],
        file: UpdateFileSettings = UpdateFileSettings(), identity: String? = nil
    ) throws -> UpdateConfiguration {
        guard let serverText = server ?? environment["AGRO_UPDATE_SERVER"] ?? file.server else {
            throw UpdateError.noServer
        }
        let trustPaths: [String]
        if !trust.isEmpty {
            trustPaths = trust
        } else if let value = environment["AGRO_TRUST"], !value.isEmpty {
            trustPaths = value.split(separator: ":").map(String.init)
        } else {
            trustPaths = file.trust
        }
        let keys = try trustPaths.filter { !$0.isEmpty }.map { try PublicSigningKey.read(file: $0) }
        let allowInsecure = insecure || ["1", "true", "yes"].contains(environment["AGRO_INSECURE"] ?? "") || file.insecure
        guard let url = URL(string: serverText), url.host != nil else { throw UpdateError.invalidServerURL(serverText) }
        var configuration = try UpdateConfiguration(server: url, trustedKeys: keys, allowInsecure: allowInsecure)
        let pinned = identity ?? environment["AGRO_UPDATE_IDENTITY"] ?? file.identity
        if let pinned = pinned?.trimmingCharacters(in: .whitespaces), !pinned.isEmpty {
            configuration.pinnedIdentity = pinned
        }
        // The environment's text is read as a number here; the file's is one already.
        let deadline: (seconds: Double?, shown: String)?
        if let text = environment["AGRO_UPDATE_DEADLINE"] {
            deadline = (Double(text.trimmingCharacters(in: .whitespaces)), text)
        } else {
            deadline = file.deadline.map { ($0, $0.description) }
        }
        if let (seconds, shown) = deadline {
            guard let seconds, seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UpdateError.invalidSetting(name: "update.deadline", value: shown)
            }
            configuration.manifestDeadline = seconds
        }
        return configuration
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
        // `path` comes from a manifest whose names were checked to be plain file names.
        return URL(string: base + path) ?? server.appendingPathComponent(path)
    }
}

/// The `update` section of the config file as read, typed: what `UpdateConfiguration.resolve`
/// takes after the flags and the environment.
///
///     UpdateFileSettings(server: "https://example.org/agro/", trust: ["/etc/agro/release.pub"], deadline: 20)
public struct UpdateFileSettings: Sendable, Hashable {
    /// The publishing directory's URL.
    public var server: String?
    /// Public key files (absolute paths) whose signatures are trusted.
    public var trust: [String]
    /// Allows plain http to hosts other than loopback.
    public var insecure: Bool
    /// The only catalog identity accepted from the server.
    public var identity: String?
    /// Seconds the manifest request may take.
    public var deadline: Double?

    /// The settings of one config file; absent values are nil, empty or false.
    public init(
        server: String? = nil, trust: [String] = [], insecure: Bool = false, identity: String? = nil, deadline: Double? = nil
    ) {
        self.server = server
        self.trust = trust
        self.insecure = insecure
        self.identity = identity
        self.deadline = deadline
    }
}
