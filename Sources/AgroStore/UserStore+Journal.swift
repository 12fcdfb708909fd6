import AgroDomain
import Foundation
import GRDB

/// The field journal of one device in the user database (`SQLiteJournal`, scope ''), and what
/// it has sent to and received from its farm's server (`agro journal sync`).
extension UserStore: JournalStore {
    /// The columns the farm database has, so that one `SQLiteJournal` reads both; and what was
    /// sent to the farm's server, by id, with the number the server gave it.
    static func prepareSync(_ db: Database) throws {
        for table in ["field", "sprayRecord"] {
            try db.alter(table: table) { t in
                t.add(column: "farm", .text).notNull().defaults(to: "")
                t.add(column: "sequence", .integer)
            }
        }
        try db.create(table: "syncedChange") { t in
            t.primaryKey("id", .text)
            t.column("sequence", .integer).notNull()
        }
        try db.create(table: "syncState") { t in
            t.primaryKey("server", .text)
            t.column("since", .integer).notNull()
        }
    }

    var journalTables: SQLiteJournal { SQLiteJournal(writer: queue, path: path, farm: "", numbered: false) }

    /// Stores a field; false when one with this id is stored already.
    public func addField(_ field: Field) throws -> Bool { try journalTables.addField(field) }

    /// Every field, by name.
    public func fields() throws -> [Field] { try journalTables.fields() }

    /// The field with this id.
    public func field(_ id: UUID) throws -> Field? { try journalTables.field(id) }

    /// Appends a revision; false when this revision id is stored already.
    public func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool {
        try journalTables.append(record, findings: findings)
    }

    /// The latest revision of every record, in spraying order.
    public func records(field: UUID?) throws -> [StoredRecord] { try journalTables.records(field: field) }

    /// The latest revision of every record on one field, without findings.
    public func sprays(field: UUID) throws -> [SprayRecord] { try journalTables.sprays(field: field) }

    /// The ids of the records whose id starts with `prefix`.
    public func recordIDs(prefix: String) throws -> [UUID] { try journalTables.recordIDs(prefix: prefix) }

    /// Every revision of a record, oldest first.
    public func history(record: UUID) throws -> [StoredRecord] { try journalTables.history(record: record) }

    /// The stored revision with this id.
    public func revision(_ id: UUID) throws -> StoredRecord? { try journalTables.revision(id) }
}

extension UserStore: DeviceJournalStore {
    /// Fields and revisions not acknowledged by the farm's server.
    public func unsentChanges() throws -> [JournalChange] {
        try queue.read { db in
            let fields = try String.fetchAll(
                db,
                sql: """
                    SELECT body FROM field WHERE id NOT IN (SELECT id FROM syncedChange) ORDER BY writtenAt, rowid
                    """
            ).map { JournalChange.field(try SQLiteJournal.decode(Field.self, $0)) }
            let records = try String.fetchAll(
                db,
                sql: """
                    SELECT body FROM sprayRecord WHERE revision NOT IN (SELECT id FROM syncedChange)
                    ORDER BY writtenAt, rowid
                    """
            ).map { JournalChange.record(try SQLiteJournal.decode(SprayRecord.self, $0)) }
            return fields + records
        }
    }

    /// Notes the server's numbers for what it acknowledged.
    public func markSent(_ numbers: [UUID: Int64]) throws {
        try journalTables.durableWrite { db in
            for (id, sequence) in numbers {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO syncedChange(id, sequence) VALUES (?, ?)",
                    arguments: [id.uuidString, sequence])
            }
        }
    }

    /// Keeps the farm's changes not here yet, each noted as synced; how many were new. A page
    /// is one transaction, synced to disk once: a season of 10,000 records is ten syncs, not
    /// ten thousand.
    @discardableResult
    public func receive(_ changes: [NumberedChange]) throws -> Int {
        let journal = journalTables
        return try journal.durableWrite { db in
            var new = 0
            for numbered in changes {
                switch numbered.change {
                case let .field(field): new += try journal.addField(field, in: db) ? 1 : 0
                case let .record(record):
                    let stored = try journal.append(
                        record, body: try SQLiteJournal.json(record), findings: try SQLiteJournal.json(numbered.findings),
                        errors: numbered.findings.filter { $0.severity == .error }.count, in: db)
                    new += stored ? 1 : 0
                }
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncedChange(id, sequence) VALUES (?, ?)").execute(
                    arguments: [numbered.change.id.uuidString, numbered.sequence])
            }
            return new
        }
    }

    /// The farm's latest number this device has from `server`.
    public func syncedThrough(server: String) throws -> Int64 {
        try queue.read { db in
            try Int64.fetchOne(db, sql: "SELECT since FROM syncState WHERE server = ?", arguments: [server]) ?? 0
        }
    }

    /// Notes how far the device has the farm's changes.
    public func setSyncedThrough(server: String, _ sequence: Int64) throws {
        try journalTables.durableWrite { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO syncState(server, since) VALUES (?, ?)", arguments: [server, sequence])
        }
    }
}
