import AgroDomain
import Foundation
import NIOSSL
import PostgresNIO

/// Where the PostgreSQL store is, as `agro web --journal-db` takes it: a libpq-style URL
/// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|require|verify-full]`.
/// Without a password in the URL, `PGPASSWORD` is used, so that no password has to stand on a
/// command line where `ps` shows it.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// The server's name or address.
    public var host: String
    /// The server's port (5432 unless the URL says otherwise).
    public var port: Int
    /// The role to sign in as.
    public var user: String
    /// The role's password, if any.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether the connection is encrypted, and whether the server's certificate is checked.
    public var tls: TLSMode

    /// How the connection is encrypted, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Hashable {
        /// Plain TCP (the default: a database on the same machine or a private network).
        case disable
        /// Encrypted, the certificate not checked.
        case require
        /// Encrypted, the certificate checked against the system's authorities and the host name.
        case verifyFull = "verify-full"
    }

    /// Reads a `postgresql://` (or `postgres://`) URL. Throws `PostgresStoreError.invalidURL`.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgresql" || scheme == "postgres", let host = components.host, !host.isEmpty
        else { throw PostgresStoreError.invalidURL(Self.shown(text)) }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard let user = components.user, !user.isEmpty, !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError.invalidURL(Self.shown(text))
        }
        var tls = TLSMode.disable
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value else { throw PostgresStoreError.invalidURL(Self.shown(text)) }
            // libpq's "prefer" and "allow" fall back to plain TCP; agro asks for one or the other.
            switch value {
            case "disable", "allow", "prefer": tls = .disable
            case "require", "verify-ca": tls = .require
            case "verify-full": tls = .verifyFull
            default: throw PostgresStoreError.invalidURL(Self.shown(text))
            }
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        self.user = user
        password = components.password ?? environment["PGPASSWORD"]
        self.database = database
        self.tls = tls
    }

    /// The URL without its password, as logs and messages show it.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgresql://\(user)@\(host):\(port)/\(database)" + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)")
    }

    /// A URL as a message may show it: the password, if any, replaced.
    static func shown(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// postgres-nio's configuration for this location.
    func configuration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            mode = .require(try NIOSSLContext(configuration: configuration))
        case .verifyFull:
            mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: mode)
        // A server that does not answer is reported within seconds, not after a TCP timeout.
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

/// What the PostgreSQL store refuses before it reaches the server.
public enum PostgresStoreError: DescribedError, Equatable {
    /// The store's URL cannot be read (the password, if any, hidden).
    case invalidURL(String)
    /// The database was migrated by a newer agro: its schema version is `found`, this agro
    /// knows up to `known`.
    case schemaTooNew(found: Int, known: Int)

    /// One line in English.
    public var message: String {
        switch self {
        case let .invalidURL(url):
            return "\"\(url)\" is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE)"
        case let .schemaTooNew(found, known):
            return "the journal database has schema version \(found); this agro knows up to \(known): update agro"
        }
    }

    /// The case as data, for the presentation layer's wording.
    public var errorCase: ErrorCase {
        switch self {
        case let .invalidURL(url): return ErrorCase("PostgresStoreError", "invalidURL", [url])
        case let .schemaTooNew(found, known):
            return ErrorCase("PostgresStoreError", "schemaTooNew", [String(found), String(known)])
        }
    }
}
