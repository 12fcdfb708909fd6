import AgroDomain
import Foundation
import GRDB

/// The field journal in the user database: fields and spray-record revisions, appended and
/// never changed. Each row keeps the value as JSON (`body`) beside the columns it is found by.
extension UserStore: JournalStore {
    static func createJournal(_ db: Database) throws {
        try db.create(table: "field") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            // The name as it is compared: one field per name, case aside.
            t.column("nameKey", .text).notNull().unique()
            t.column("body", .text).notNull()
            t.column("writtenAt", .text).notNull()
        }
        try db.create(table: "sprayRecord") { t in
            t.primaryKey("revision", .text)
            t.column("record", .text).notNull()
            t.column("field", .text).notNull().references("field", onDelete: .restrict)
            t.column("number", .integer).notNull()
            t.column("start", .text).notNull()
            t.column("body", .text).notNull()
            t.column("findings", .text).notNull()
            t.column("errors", .integer).notNull()
            t.column("writtenAt", .text).notNull()
            t.uniqueKey(["record", "number"])
        }
        try db.create(index: "sprayRecord_field", on: "sprayRecord", columns: ["field", "start"])
        // A journal an auditor accepts is append-only: a correction is a new revision.
        for table in ["field", "sprayRecord"] {
            for event in ["UPDATE", "DELETE"] where !(table == "field" && event == "UPDATE") {
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)_no_\(event.lowercased()) BEFORE \(event) ON \(table)
                        BEGIN SELECT RAISE(ABORT, 'the journal keeps every revision'); END
                        """)
            }
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    // One decoder for every row: making one per row cost a tenth of a season's export.
    private static let decoder = JSONDecoder()

    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try Self.encoder.encode(value), as: UTF8.self)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try Self.decoder.decode(type, from: Data(text.utf8))
    }

    /// A write in one transaction, synced to disk before it returns: a record the person was
    /// told is kept survives a power cut (favorites are written with less care).
    private func durableWrite<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.writeWithoutTransaction { db in
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

    /// Stores a field; false when one with this id is stored already.
    public func addField(_ field: Field) throws -> Bool {
        let body = try json(field)
        return try durableWrite { db in
            if try String.fetchOne(db, sql: "SELECT id FROM field WHERE id = ?", arguments: [field.id.uuidString]) != nil {
                return false
            }
            let key = field.name.trimmingCharacters(in: .whitespaces).lowercased()
            if try String.fetchOne(db, sql: "SELECT id FROM field WHERE nameKey = ?", arguments: [key]) != nil {
                throw JournalError.fieldNameTaken(field.name)
            }
            try db.execute(
                sql: "INSERT INTO field(id, name, nameKey, body, writtenAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [field.id.uuidString, field.name, key, body, Self.storageText(field.writtenAt)])
            return true
        }
    }

    /// Every field, by name.
    public func fields() throws -> [Field] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM field ORDER BY nameKey").map { try decode(Field.self, $0) }
        }
    }

    /// Appends a revision; false when this revision id is stored already.
    public func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool {
        let body = try json(record), findingsText = try json(findings.map(StoredFinding.init))
        let errors = findings.filter { $0.severity == .error }.count
        return try durableWrite { db in
            if try String.fetchOne(
                db, sql: "SELECT revision FROM sprayRecord WHERE revision = ?", arguments: [record.revision.uuidString])
                != nil
            {
                return false
            }
            let number =
                try Int.fetchOne(
                    db, sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM sprayRecord WHERE record = ?",
                    arguments: [record.id.uuidString]) ?? 1
            try db.execute(
                sql: """
                    INSERT INTO sprayRecord(revision, record, field, number, start, body, findings, errors, writtenAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.revision.uuidString, record.id.uuidString, record.field.uuidString, number,
                    record.start.description, body, findingsText, errors, Self.storageText(record.writtenAt),
                ])
            return true
        }
    }

    private func stored(_ rows: [Row]) throws -> [StoredRecord] {
        try rows.map { row in
            StoredRecord(
                record: try decode(SprayRecord.self, row["body"]), number: row["number"],
                findings: try decode([StoredFinding].self, row["findings"]).map(\.finding))
        }
    }

    /// The latest revision of every record, in spraying order.
    public func records(field: UUID?) throws -> [StoredRecord] {
        try queue.read { db in
            // The latest revision of each record: the one no later revision of it follows.
            let latest = """
                SELECT s.body, s.number, s.findings FROM sprayRecord s
                WHERE s.number = (SELECT MAX(number) FROM sprayRecord l WHERE l.record = s.record)
                """
            let rows =
                if let field {
                    try Row.fetchAll(
                        db, sql: latest + " AND s.field = ? ORDER BY s.start, s.writtenAt", arguments: [field.uuidString])
                } else {
                    try Row.fetchAll(db, sql: latest + " ORDER BY s.start, s.writtenAt")
                }
            return try stored(rows)
        }
    }

    /// The latest revision of every record on one field, without findings.
    public func sprays(field: UUID) throws -> [SprayRecord] {
        try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT s.body FROM sprayRecord s
                    WHERE s.field = ? AND s.number = (SELECT MAX(number) FROM sprayRecord l WHERE l.record = s.record)
                    ORDER BY s.start, s.writtenAt
                    """, arguments: [field.uuidString]
            ).map { try decode(SprayRecord.self, $0) }
        }
    }

    /// The ids of the records whose id starts with `prefix`.
    public func recordIDs(prefix: String) throws -> [UUID] {
        let prefix = prefix.uppercased()
        return try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT record FROM sprayRecord WHERE substr(record, 1, length(?)) = ? ORDER BY record",
                arguments: [prefix, prefix])
        }.compactMap(UUID.init(uuidString:))
    }

    /// Every revision of a record, oldest first.
    public func history(record: UUID) throws -> [StoredRecord] {
        try queue.read { db in
            try stored(
                Row.fetchAll(
                    db, sql: "SELECT body, number, findings FROM sprayRecord WHERE record = ? ORDER BY number",
                    arguments: [record.uuidString]))
        }
    }

    /// The stored revision with this id.
    public func revision(_ id: UUID) throws -> StoredRecord? {
        try queue.read { db in
            try stored(
                Row.fetchAll(
                    db, sql: "SELECT body, number, findings FROM sprayRecord WHERE revision = ?", arguments: [id.uuidString])
            ).first
        }
    }
}
