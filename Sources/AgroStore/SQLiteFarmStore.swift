import AgroDomain
import Foundation
import GRDB

/// Farms, their people, sessions and shared journal in one SQLite file: what one `agro web`
/// needs, with nothing to install (`agro web --journal-db PATH`; several instances share a
/// PostgreSQL store instead). Each farm's journal is a `SQLiteJournal` scope whose every stored
/// change takes the farm's next number.
///
/// ```swift
/// let store = try SQLiteFarmStore(path: "journal.sqlite")
/// try store.addFarm(Farm(name: "Kamenka"))
/// ```
public final class SQLiteFarmStore: FarmStore {
    let pool: DatabasePool
    let path: String

    /// Opens (creating if needed) the farm database at `path` and brings its schema up to date.
    public init(path: String) throws {
        var configuration = Configuration()
        // Writers from several request threads wait for each other instead of failing.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        self.path = path
        pool = try Self.migrator.migrated(path) {
            try DatabasePool(path: path, configuration: configuration)
        }
    }

    /// The schema's versions, oldest first; `agro journal migrate` applies those missing.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-farm") { db in
            try db.create(table: "farm") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("nameKey", .text).notNull().unique()
                // The number of the farm's latest change.
                t.column("lastSequence", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "account") { t in
                t.primaryKey("loginKey", .text)
                t.column("login", .text).notNull()
                t.column("farm", .text).notNull().references("farm", onDelete: .restrict)
                t.column("role", .text).notNull()
                t.column("passwordHash", .text).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("digest", .text)
                t.column("loginKey", .text).notNull().references("account", onDelete: .cascade)
                t.column("expires", .text).notNull()
            }
            try SQLiteJournal.createTables(db, ofFarms: true)
        }
        return migrator
    }

    /// The schema versions applied to this file, oldest first (opening applies those missing).
    public func schemaVersions() throws -> [String] {
        try pool.read { db in try Self.migrator.appliedIdentifiers(db) }.sorted()
    }

    private var tables: SQLiteJournal { SQLiteJournal(writer: pool, path: path, farm: "", numbered: false) }

    private static func key(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces).lowercased() }

    /// Adds a farm; a second farm of the same name (case aside) is refused.
    public func addFarm(_ farm: Farm) throws {
        try tables.durableWrite { db in
            if try String.fetchOne(db, sql: "SELECT id FROM farm WHERE nameKey = ?", arguments: [Self.key(farm.name)]) != nil {
                throw FarmError.farmNameTaken(farm.name)
            }
            try db.execute(
                sql: "INSERT INTO farm(id, name, nameKey) VALUES (?, ?, ?)",
                arguments: [farm.id.uuidString, farm.name, Self.key(farm.name)])
        }
    }

    /// Every farm, by name.
    public func farms() throws -> [Farm] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM farm ORDER BY nameKey").compactMap { row in
                UUID(uuidString: row["id"]).map { Farm(id: $0, name: row["name"]) }
            }
        }
    }

    /// Adds an account; a taken login or an unknown farm is refused.
    public func addAccount(_ account: Account, passwordHash: String) throws {
        try tables.durableWrite { db in
            guard
                try String.fetchOne(db, sql: "SELECT id FROM farm WHERE id = ?", arguments: [account.farm.uuidString]) != nil
            else { throw FarmError.unknownFarm(account.farm.uuidString.lowercased()) }
            if try String.fetchOne(
                db, sql: "SELECT loginKey FROM account WHERE loginKey = ?", arguments: [Self.key(account.login)]) != nil
            {
                throw FarmError.loginTaken(account.login)
            }
            try db.execute(
                sql: "INSERT INTO account(loginKey, login, farm, role, passwordHash) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    Self.key(account.login), account.login, account.farm.uuidString, account.role.rawValue, passwordHash,
                ])
        }
    }

    private static func account(_ row: Row) -> Account? {
        guard let farm = UUID(uuidString: row["farm"]), let role = FarmRole(rawValue: row["role"]) else { return nil }
        return Account(login: row["login"], farm: farm, role: role)
    }

    /// The accounts of one farm or all, by login.
    public func accounts(farm: UUID?) throws -> [Account] {
        try pool.read { db in
            let sql = "SELECT login, farm, role FROM account"
            let rows =
                if let farm {
                    try Row.fetchAll(db, sql: sql + " WHERE farm = ? ORDER BY loginKey", arguments: [farm.uuidString])
                } else {
                    try Row.fetchAll(db, sql: sql + " ORDER BY loginKey")
                }
            return rows.compactMap(Self.account)
        }
    }

    /// The account with this login and its password hash.
    public func credentials(login: String) throws -> (account: Account, passwordHash: String)? {
        try pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT login, farm, role, passwordHash FROM account WHERE loginKey = ?",
                arguments: [Self.key(login)]
            ).flatMap { row in Self.account(row).map { ($0, row["passwordHash"]) } }
        }
    }

    /// Replaces the password hash and ends the account's sessions.
    public func setPasswordHash(login: String, _ passwordHash: String) throws -> Bool {
        try tables.durableWrite { db in
            try db.execute(
                sql: "UPDATE account SET passwordHash = ? WHERE loginKey = ?", arguments: [passwordHash, Self.key(login)])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM session WHERE loginKey = ?", arguments: [Self.key(login)])
            return true
        }
    }

    /// Removes an account and its sessions.
    public func removeAccount(login: String) throws -> Bool {
        try tables.durableWrite { db in
            try db.execute(sql: "DELETE FROM session WHERE loginKey = ?", arguments: [Self.key(login)])
            try db.execute(sql: "DELETE FROM account WHERE loginKey = ?", arguments: [Self.key(login)])
            return db.changesCount > 0
        }
    }

    /// Stores a session, and forgets those that expired two months before it does: measured
    /// from the session's own time, not this machine's clock, which the caller's `now` may not be.
    public func addSession(_ session: Session) throws {
        try tables.durableWrite { db in
            try db.execute(
                sql: "DELETE FROM session WHERE expires < ?",
                arguments: [UserStore.storageText(session.expires.addingTimeInterval(-60 * 86_400))])
            try db.execute(
                sql: "INSERT INTO session(digest, loginKey, expires) VALUES (?, ?, ?)",
                arguments: [session.tokenDigest, Self.key(session.login), UserStore.storageText(session.expires)])
        }
    }

    /// The account of a session valid at `now`.
    public func account(sessionDigest: String, now: Date) throws -> Account? {
        try pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT a.login, a.farm, a.role FROM session s JOIN account a ON a.loginKey = s.loginKey
                    WHERE s.digest = ? AND s.expires > ?
                    """, arguments: [sessionDigest, UserStore.storageText(now)]
            ).flatMap(Self.account)
        }
    }

    /// Ends a session.
    public func endSession(digest: String) throws {
        try tables.durableWrite { db in
            try db.execute(sql: "DELETE FROM session WHERE digest = ?", arguments: [digest])
        }
    }

    /// One farm's journal, its writes numbered.
    public func journal(farm: UUID) -> SQLiteJournal {
        SQLiteJournal(writer: pool, path: path, farm: farm.uuidString, numbered: true)
    }

    /// The farm's changes after `since`, in order.
    public func changes(farm: UUID, since: Int64, limit: Int) throws -> [NumberedChange] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT sequence, 0 AS isRecord, body, '[]' AS findings FROM field WHERE farm = ? AND sequence > ?
                    UNION ALL
                    SELECT sequence, 1, body, findings FROM sprayRecord WHERE farm = ? AND sequence > ?
                    ORDER BY sequence LIMIT ?
                    """, arguments: [farm.uuidString, since, farm.uuidString, since, limit]
            ).map { row in
                let body: String = row["body"]
                let change: JournalChange =
                    row["isRecord"] == 1
                    ? .record(try SQLiteJournal.decode(SprayRecord.self, body))
                    : .field(try SQLiteJournal.decode(Field.self, body))
                return NumberedChange(
                    sequence: row["sequence"], change: change,
                    findings: try SQLiteJournal.decode([StoredFinding].self, row["findings"]))
            }
        }
    }

    /// The number of the farm's latest change.
    public func lastSequence(farm: UUID) throws -> Int64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT lastSequence FROM farm WHERE id = ?", arguments: [farm.uuidString]) ?? 0
        }
    }

    /// The farm's numbers of these stored changes.
    public func sequences(farm: UUID, of ids: [UUID]) throws -> [UUID: Int64] {
        try pool.read { db in
            var numbers: [UUID: Int64] = [:]
            for id in ids {
                let number = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT sequence FROM field WHERE farm = ? AND id = ?
                        UNION ALL SELECT sequence FROM sprayRecord WHERE farm = ? AND revision = ?
                        """, arguments: [farm.uuidString, id.uuidString, farm.uuidString, id.uuidString])
                numbers[id] = number
            }
            return numbers
        }
    }
}
