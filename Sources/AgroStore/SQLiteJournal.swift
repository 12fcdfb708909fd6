import AgroDomain
import Foundation
import GRDB

/// A journal in SQLite: the user database's (one device, `farm` '') or one farm's in the farm
/// database (`SQLiteFarmStore.journal(farm:)`). The rows: fields and spray-record revisions, appended and never changed.
/// Each row keeps the value as JSON (`body`) beside the columns it is found by. In the farm
/// database every row also carries its farm's number (`sequence`), given as it is stored.
public struct SQLiteJournal: JournalStore {
    let writer: any DatabaseWriter
    /// Where the file is, for the error a failed write gives.
    let path: String
    /// The farm's id, '' in a device's user database.
    let farm: String
    /// Whether each stored change takes its farm's next number (the farm database).
    let numbered: Bool

    /// The journal's tables (fields, record revisions), the revisions' index by field and day,
    /// and the append-only rule. `ofFarms`: the farms' database's, where every field and
    /// revision has its farm and the farm's number for it (a device's database gets those two
    /// in a later migration, `UserStore.prepareSync`).
    static func createTables(_ db: Database, ofFarms: Bool) throws {
        try db.create(table: "field") { t in
            t.primaryKey("id", .text)
            if ofFarms { t.column("farm", .text).notNull().references("farm", onDelete: .restrict) }
            t.column("name", .text).notNull()
            // The name as it is compared: one field per name (of a farm), case aside.
            let nameKey = t.column("nameKey", .text).notNull()
            t.column("body", .text).notNull()
            t.column("writtenAt", .text).notNull()
            if ofFarms {
                t.column("sequence", .integer).notNull()
                t.uniqueKey(["farm", "nameKey"])
                t.uniqueKey(["farm", "sequence"])
            } else {
                nameKey.unique()
            }
        }
        try db.create(table: "sprayRecord") { t in
            t.primaryKey("revision", .text)
            if ofFarms { t.column("farm", .text).notNull().references("farm", onDelete: .restrict) }
            t.column("record", .text).notNull()
            t.column("field", .text).notNull().references("field", onDelete: .restrict)
            t.column("number", .integer).notNull()
            t.column("start", .text).notNull()
            t.column("body", .text).notNull()
            t.column("findings", .text).notNull()
            t.column("errors", .integer).notNull()
            t.column("writtenAt", .text).notNull()
            if ofFarms { t.column("sequence", .integer).notNull() }
            t.uniqueKey(["record", "number"])
            if ofFarms { t.uniqueKey(["farm", "sequence"]) }
        }
        try db.create(index: "sprayRecord_field", on: "sprayRecord", columns: ["field", "start"])
        try forbidChanges(db)
    }

    /// The append-only rule: a correction is a new revision; a field is never deleted.
    private static func forbidChanges(_ db: Database) throws {
        for (table, event) in [("field", "DELETE"), ("sprayRecord", "UPDATE"), ("sprayRecord", "DELETE")] {
            try db.execute(
                sql: """
                    CREATE TRIGGER \(table)_no_\(event.lowercased()) BEFORE \(event) ON \(table)
                    BEGIN SELECT RAISE(ABORT, 'the journal keeps every revision'); END
                    """)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    // One decoder for every row: making one per row cost a tenth of a season's export.
    private static let decoder = JSONDecoder()

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }

    /// A write in one transaction, synced to disk before it returns: a record the person was
    /// told is kept survives a power cut (favorites are written with less care).
    func durableWrite<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError where error.resultCode != .SQLITE_CONSTRAINT {
            throw UserStoreError.cannotWrite(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The farm's next number, taken in the write's transaction; nil in a user database.
    private func nextSequence(_ db: Database) throws -> Int64? {
        guard numbered else { return nil }
        try db.cachedStatement(sql: "UPDATE farm SET lastSequence = lastSequence + 1 WHERE id = ?").execute(arguments: [farm])
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT lastSequence FROM farm WHERE id = ?"), arguments: [farm])
    }

    /// Stores a field; false when one with this id is stored already.
    public func addField(_ field: Field) throws -> Bool {
        try durableWrite { db in try addField(field, in: db) }
    }

    /// Stores a field in the transaction of `db`.
    func addField(_ field: Field, in db: Database) throws -> Bool {
        let body = try Self.json(field)
        if try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM field WHERE id = ?"), arguments: [field.id.uuidString])
            != nil
        {
            return false
        }
        let key = field.name.trimmingCharacters(in: .whitespaces).lowercased()
        if try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM field WHERE farm = ? AND nameKey = ?"), arguments: [farm, key])
            != nil
        {
            throw JournalError.fieldNameTaken(field.name)
        }
        // Cached statements: a device keeps a page of a thousand changes in one go.
        let sequence = try nextSequence(db)
        try db.cachedStatement(
            sql: "INSERT INTO field(id, farm, name, nameKey, body, writtenAt, sequence) VALUES (?, ?, ?, ?, ?, ?, ?)"
        ).execute(
            arguments: [
                field.id.uuidString, farm, field.name, key, body, UserStore.storageText(field.writtenAt), sequence,
            ])
        return true
    }

    /// The field with this id, by its key.
    public func field(_ id: UUID) throws -> Field? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT body FROM field WHERE id = ? AND farm = ?"),
                arguments: [id.uuidString, farm]
            ).map { try Self.decode(Field.self, $0) }
        }
    }

    /// The journal's fields, by name.
    public func fields() throws -> [Field] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM field WHERE farm = ? ORDER BY nameKey", arguments: [farm])
                .map { try Self.decode(Field.self, $0) }
        }
    }

    /// Appends a revision with its findings; false when this revision id is stored already.
    public func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool {
        let body = try Self.json(record), findingsText = try Self.json(findings.map(StoredFinding.init))
        let errors = findings.filter { $0.severity == .error }.count
        return try durableWrite { db in try append(record, body: body, findings: findingsText, errors: errors, in: db) }
    }

    /// Appends a revision as JSON already made (a device keeps what the farm's server sent), in
    /// the transaction of `db`.
    func append(_ record: SprayRecord, body: String, findings: String, errors: Int, in db: Database) throws -> Bool {
        if try String.fetchOne(
            db.cachedStatement(sql: "SELECT revision FROM sprayRecord WHERE revision = ?"),
            arguments: [record.revision.uuidString])
            != nil
        {
            return false
        }
        // A field of another farm is not there for this one.
        guard
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM field WHERE id = ? AND farm = ?"),
                arguments: [record.field.uuidString, farm])
                != nil
        else { throw JournalError.unknownField(record.field.uuidString.lowercased()) }
        let number =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM sprayRecord WHERE record = ?"),
                arguments: [record.id.uuidString]) ?? 1
        let sequence = try nextSequence(db)
        try db.cachedStatement(
            sql: """
                INSERT INTO sprayRecord(revision, farm, record, field, number, start, body, findings, errors, writtenAt,
                    sequence)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                record.revision.uuidString, farm, record.id.uuidString, record.field.uuidString, number,
                record.start.description, body, findings, errors, UserStore.storageText(record.writtenAt), sequence,
            ])
        return true
    }

    private func stored(_ rows: [Row]) throws -> [StoredRecord] {
        try rows.map { row in
            StoredRecord(
                record: try Self.decode(SprayRecord.self, row["body"]), number: row["number"],
                findings: try Self.decode([StoredFinding].self, row["findings"]).map(\.finding))
        }
    }

    /// The latest revision of every record, on one field or all, in spraying order.
    public func records(field: UUID?) throws -> [StoredRecord] {
        try writer.read { db in
            // The latest revision of each record: the one no later revision of it follows.
            let latest = """
                SELECT s.body, s.number, s.findings FROM sprayRecord s
                WHERE s.farm = ? AND s.number = (SELECT MAX(number) FROM sprayRecord l WHERE l.record = s.record)
                """
            let rows =
                if let field {
                    try Row.fetchAll(
                        db, sql: latest + " AND s.field = ? ORDER BY s.start, s.writtenAt",
                        arguments: [farm, field.uuidString])
                } else {
                    try Row.fetchAll(db, sql: latest + " ORDER BY s.start, s.writtenAt", arguments: [farm])
                }
            return try stored(rows)
        }
    }

    /// The latest revisions on one field, without findings.
    public func sprays(field: UUID) throws -> [SprayRecord] {
        try writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT s.body FROM sprayRecord s
                    WHERE s.farm = ? AND s.field = ?
                        AND s.number = (SELECT MAX(number) FROM sprayRecord l WHERE l.record = s.record)
                    ORDER BY s.start, s.writtenAt
                    """, arguments: [farm, field.uuidString]
            ).map { try Self.decode(SprayRecord.self, $0) }
        }
    }

    /// The record ids starting with `prefix`.
    public func recordIDs(prefix: String) throws -> [UUID] {
        let prefix = prefix.uppercased()
        return try writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT record FROM sprayRecord
                    WHERE farm = ? AND substr(record, 1, length(?)) = ? ORDER BY record
                    """,
                arguments: [farm, prefix, prefix])
        }.compactMap(UUID.init(uuidString:))
    }

    /// Every revision of a record, oldest first.
    public func history(record: UUID) throws -> [StoredRecord] {
        try writer.read { db in
            try stored(
                Row.fetchAll(
                    db, sql: "SELECT body, number, findings FROM sprayRecord WHERE farm = ? AND record = ? ORDER BY number",
                    arguments: [farm, record.uuidString]))
        }
    }

    /// The stored revision with this id.
    public func revision(_ id: UUID) throws -> StoredRecord? {
        try writer.read { db in
            try stored(
                Row.fetchAll(
                    db, sql: "SELECT body, number, findings FROM sprayRecord WHERE farm = ? AND revision = ?",
                    arguments: [farm, id.uuidString])
            ).first
        }
    }
}
