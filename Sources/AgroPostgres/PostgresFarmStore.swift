import AgroDomain
import Foundation
import PostgresNIO

/// Farms, their people, sessions and shared journal in PostgreSQL: several `agro web` instances
/// behind one nginx share one journal through it.
///
/// ```swift
/// let store = try PostgresFarmStore(url: "postgresql://agro@127.0.0.1:5432/agro")
/// let journal = store.journal(farm: farm.id)   // a JournalStore of that farm alone
/// ```
///
/// Every call is synchronous and blocks its thread until PostgreSQL answers: call it from
/// blocking threads (never from an event loop). A lost or refused connection throws
/// `FarmError.storeUnavailable`; the next call connects again, so the store recovers by
/// itself when the server is back. Opening the store applies the schema's missing migrations
/// (`schema_migration`; docs/journal.md).
public final class PostgresFarmStore: FarmStore, Sendable {
    /// One farm's journal in this store.
    public typealias FarmJournal = PostgresFarmJournal

    /// Where the store is (without its password).
    public let location: PostgresLocation
    let connections: PostgresConnections

    /// Opens the store at `url` (`postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`) with at
    /// most `connections` connections, and migrates its schema. Throws
    /// `PostgresStoreError.invalidURL` for a URL it cannot read, `FarmError.storeUnavailable`
    /// when the server does not answer, `PostgresStoreError.schemaTooNew` for a database a
    /// newer agro migrated.
    public convenience init(url: String, connections: Int = 4) throws {
        try self.init(location: PostgresLocation(url: url), connections: connections)
    }

    /// Opens the store at `location`; see `init(url:connections:)`.
    public init(location: PostgresLocation, connections: Int = 4) throws {
        self.location = location
        self.connections = try PostgresConnections(location: location, maximum: connections)
        try self.connections.with { try PostgresSchema.migrate($0) }
    }

    /// Closes the store's connections; it cannot be used afterwards.
    public func close() {
        connections.close()
    }

    deinit { connections.close() }

    /// The database's schema version, and the newest this agro knows.
    public func schemaVersion() throws -> (current: Int, latest: Int) {
        (try connections.with { try PostgresSchema.version($0) }, PostgresSchema.latest)
    }

    static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    // MARK: Farms and accounts

    /// Adds a farm; `FarmError.farmNameTaken` for a second one of the same name, case aside.
    public func addFarm(_ farm: Farm) throws {
        try connections.with { session in
            let rows = try session.query(
                """
                INSERT INTO farm(id, name, name_key) VALUES (\(farm.id), \(farm.name), \(Self.key(farm.name)))
                ON CONFLICT DO NOTHING RETURNING id
                """)
            if rows.isEmpty { throw FarmError.farmNameTaken(farm.name) }
        }
    }

    /// Every farm, by name.
    public func farms() throws -> [Farm] {
        try connections.with { session in
            try session.query("SELECT id, name FROM farm ORDER BY name_key COLLATE \"C\", id").map { row in
                let (id, name) = try row.decode((UUID, String).self)
                return Farm(id: id, name: name)
            }
        }
    }

    /// Adds an account; `FarmError.loginTaken` or `FarmError.unknownFarm`.
    public func addAccount(_ account: Account, passwordHash: String) throws {
        try connections.with { session in
            let rows = try session.query(
                """
                INSERT INTO account(login_key, login, farm, role, password_hash)
                SELECT \(Self.key(account.login)), \(account.login), id, \(account.role.rawValue), \(passwordHash)
                FROM farm WHERE id = \(account.farm)
                ON CONFLICT DO NOTHING RETURNING login
                """)
            guard rows.isEmpty else { return }
            let farm = try session.query("SELECT 1 FROM farm WHERE id = \(account.farm)")
            if farm.isEmpty { throw FarmError.unknownFarm(account.farm.uuidString.lowercased()) }
            throw FarmError.loginTaken(account.login)
        }
    }

    /// The accounts of one farm, or of every farm, by login.
    public func accounts(farm: UUID?) throws -> [Account] {
        try connections.with { session in
            let rows =
                if let farm {
                    try session.query(
                        "SELECT login, farm, role FROM account WHERE farm = \(farm) ORDER BY login_key COLLATE \"C\"")
                } else {
                    try session.query("SELECT login, farm, role FROM account ORDER BY login_key COLLATE \"C\"")
                }
            return try rows.map(Self.account)
        }
    }

    private static func account(_ row: PostgresRow) throws -> Account {
        let (login, farm, role) = try row.decode((String, UUID, String).self)
        return Account(login: login, farm: farm, role: FarmRole(rawValue: role) ?? .inspector)
    }

    /// The account with this login, case aside, and its password's hash.
    public func credentials(login: String) throws -> (account: Account, passwordHash: String)? {
        try connections.with { session in
            guard
                let row = try session.query(
                    "SELECT login, farm, role, password_hash FROM account WHERE login_key = \(Self.key(login))"
                ).first
            else { return nil }
            let (name, farm, role, hash) = try row.decode((String, UUID, String, String).self)
            return (Account(login: name, farm: farm, role: FarmRole(rawValue: role) ?? .inspector), hash)
        }
    }

    /// Replaces the password hash and ends the account's sessions, in one transaction.
    public func setPasswordHash(login: String, _ passwordHash: String) throws -> Bool {
        try connections.with { session in
            try session.transaction {
                let key = Self.key(login)
                let rows = try session.query(
                    "UPDATE account SET password_hash = \(passwordHash) WHERE login_key = \(key) RETURNING login")
                guard !rows.isEmpty else { return (false, commit: false) }
                try session.query("DELETE FROM session WHERE login_key = \(key)")
                return (true, commit: true)
            }
        }
    }

    /// Removes the account; its sessions go with it (the records it wrote stay).
    public func removeAccount(login: String) throws -> Bool {
        try connections.with { session in
            try !session.query("DELETE FROM account WHERE login_key = \(Self.key(login)) RETURNING login").isEmpty
        }
    }

    // MARK: Sessions

    /// Stores a session (`FarmError.unknownAccount` for a login that is not stored), and
    /// forgets sessions that expired a month before it.
    public func addSession(_ session: Session) throws {
        try connections.with { connection in
            let key = Self.key(session.login)
            let rows = try connection.query(
                """
                INSERT INTO session(token_digest, login_key, expires)
                SELECT \(session.tokenDigest), login_key, \(session.expires) FROM account WHERE login_key = \(key)
                ON CONFLICT DO NOTHING RETURNING token_digest
                """)
            if rows.isEmpty, try connection.query("SELECT 1 FROM account WHERE login_key = \(key)").isEmpty {
                throw FarmError.unknownAccount(session.login)
            }
            try connection.query("DELETE FROM session WHERE expires < \(session.expires.addingTimeInterval(-60 * 86_400))")
        }
    }

    /// The account of a session valid at `now`.
    public func account(sessionDigest: String, now: Date) throws -> Account? {
        try connections.with { session in
            try session.query(
                """
                SELECT a.login, a.farm, a.role FROM session s JOIN account a ON a.login_key = s.login_key
                WHERE s.token_digest = \(sessionDigest) AND s.expires > \(now)
                """
            ).first.map(Self.account)
        }
    }

    /// Ends a session.
    public func endSession(digest: String) throws {
        try connections.with { session in
            try session.query("DELETE FROM session WHERE token_digest = \(digest)")
        }
    }

    // MARK: The numbered journal

    /// One farm's journal.
    public func journal(farm: UUID) -> PostgresFarmJournal {
        PostgresFarmJournal(store: self, farm: farm)
    }

    /// The farm's changes after `since`, in order, at most `limit`.
    public func changes(farm: UUID, since: Int64, limit: Int) throws -> [NumberedChange] {
        let limit = Int64(max(0, limit))
        return try connections.with { session in
            try session.query(
                """
                SELECT sequence, 'field' AS kind, body, '[]' AS findings FROM field
                WHERE farm = \(farm) AND sequence > \(since)
                UNION ALL
                SELECT sequence, 'record', body, findings FROM spray_record
                WHERE farm = \(farm) AND sequence > \(since)
                ORDER BY sequence LIMIT \(limit)
                """
            ).map { row in
                let (sequence, kind, body, findings) = try row.decode((Int64, String, String, String).self)
                let change: JournalChange =
                    kind == "field"
                    ? .field(try JournalJSON.decode(Field.self, body)) : .record(try JournalJSON.decode(SprayRecord.self, body))
                return NumberedChange(
                    sequence: sequence, change: change, findings: try JournalJSON.decode([StoredFinding].self, findings))
            }
        }
    }

    /// The number of the farm's latest change (0 when none, or for an unknown farm).
    public func lastSequence(farm: UUID) throws -> Int64 {
        try connections.with { session in
            try session.query("SELECT last_sequence FROM farm WHERE id = \(farm)").first?.decode(Int64.self) ?? 0
        }
    }

    /// The farm's numbers of stored changes by their ids.
    public func sequences(farm: UUID, of ids: [UUID]) throws -> [UUID: Int64] {
        guard !ids.isEmpty else { return [:] }
        return try connections.with { session in
            var numbers: [UUID: Int64] = [:]
            for row in try session.query(
                """
                SELECT id, sequence FROM field WHERE farm = \(farm) AND id = ANY(\(ids))
                UNION ALL
                SELECT revision, sequence FROM spray_record WHERE farm = \(farm) AND revision = ANY(\(ids))
                """)
            {
                let (id, sequence) = try row.decode((UUID, Int64).self)
                numbers[id] = sequence
            }
            return numbers
        }
    }
}

/// The journal's values as JSON text, the same shape as the SQLite store's: sorted keys, the
/// types' own Codable.
enum JournalJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
