import AgroDomain
import Foundation

/// The user's `config.json` (in `$XDG_CONFIG_HOME/agro`). Every field is optional; flags and
/// environment variables take precedence.
///
/// The `weather` section is read by `agro weather` alone (`decode(_:from:)`), so a mistake in it
/// does not stop the catalog queries.
package struct Configuration: Codable, Sendable {
    /// Default catalog file instead of the bundled or installed one.
    package var catalog: String?
    /// Default language (config key `lang`, as the flag).
    package var locale: String?
    /// `agro db check|update`: update server and trusted publisher keys.
    package var update: UpdateSettings?

    package init(catalog: String? = nil, locale: String? = nil, update: UpdateSettings? = nil) {
        self.catalog = catalog
        self.locale = locale
        self.update = update
    }

    private enum CodingKeys: String, CodingKey {
        case catalog
        case locale = "lang"
        case update
    }

    /// The config file at `path`; the defaults when there is none.
    package static func load(path: String) throws -> Configuration {
        try decode(Configuration.self, path: path) ?? Configuration()
    }

    /// Reads the config file at `url` as `T` (keys `T` does not know are ignored); nil when
    /// there is no file.
    package static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws -> T? {
        try decode(type, path: url.path)
    }

    /// `decode(_:from:)` of the file at `path`.
    package static func decode<T: Decodable>(_ type: T.Type, path: String) throws -> T? {
        // Asked first: Foundation's read of a missing file made its error on the way, 4% of a
        // catalog query's instructions (most people have no config file).
        guard FileManager.default.fileExists(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            return nil
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ConfigurationError.unreadable(path: path, reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context),
            let DecodingError.valueNotFound(_, context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return "not valid JSON"
        }
    }
}

/// The `update` section of config.json:
///
///     "update": {"server": "https://example.org/agro/", "trust": ["/etc/agro/release.pub"], "insecure": false}
///
/// Flags (`--server`, `--trust`, `--insecure`) and the environment (`AGRO_UPDATE_SERVER`,
/// `AGRO_TRUST`, `AGRO_INSECURE`) take precedence.
package struct UpdateSettings: Codable, Sendable {
    /// The publishing directory's URL (where `manifest.json` is).
    package var server: String?
    /// Public key files (`PREFIX.pub`) whose signatures are trusted.
    package var trust: [String]?
    /// Allows plain http to hosts other than loopback.
    package var insecure: Bool?
    /// The only catalog identity accepted from the server.
    package var identity: String?
    /// Seconds the manifest request may take (a catalog gets more by its size).
    package var deadline: Double?
}

package enum ConfigurationError: CommandError {
    case unreadable(path: String, reason: String)

    package var message: String {
        switch self {
        case let .unreadable(path, reason): return "configuration \(path) cannot be read: \(reason)"
        }
    }

    package var exitStatus: ExitStatus { .usage }
}
