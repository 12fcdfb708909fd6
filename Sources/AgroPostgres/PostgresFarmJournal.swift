import AgroDomain
import Foundation
import PostgresNIO

/// One farm's journal in the PostgreSQL store: that farm's fields and record revisions only.
/// Each row keeps its value as JSON (`body`, and the findings with their kinds) beside the
/// columns it is found by, in the SQLite store's shape. Every write takes the farm's next
/// number in its own transaction: the farm's row is locked by the increment, so numbers come
/// without gaps in the order writes commit, and a change found already stored rolls back
/// without using one.
public struct PostgresFarmJournal: JournalStore {
    let store: PostgresFarmStore
    /// The farm.
    public let farm: UUID

    private var connections: PostgresConnections { store.connections }

    /// Takes the farm's next number (and with it the farm's write lock, to the transaction's end).
    private func nextSequence(_ session: SQLSession) throws -> Int64 {
        guard
            let row = try session.query(
                "UPDATE farm SET last_sequence = last_sequence + 1 WHERE id = \(farm) RETURNING last_sequence"
            ).first
        else { throw FarmError.unknownFarm(farm.uuidString.lowercased()) }
        return try row.decode(Int64.self)
    }

    /// Stores a field; false when this farm has one with this id already.
    public func addField(_ field: Field) throws -> Bool {
        let body = try JournalJSON.encode(field)
        let key = PostgresFarmStore.key(field.name)
        return try connections.with { session in
            // A field sent again (a device's retry) is answered without taking the farm's lock.
            if try !session.query("SELECT 1 FROM field WHERE farm = \(farm) AND id = \(field.id)").isEmpty {
                return false
            }
            return try session.transaction {
                let sequence = try nextSequence(session)
                // Again under the lock: another instance may have stored it meanwhile.
                if try !session.query("SELECT 1 FROM field WHERE farm = \(farm) AND id = \(field.id)").isEmpty {
                    return (false, commit: false)
                }
                if try !session.query("SELECT 1 FROM field WHERE farm = \(farm) AND name_key = \(key)").isEmpty {
                    throw JournalError.fieldNameTaken(field.name)
                }
                try session.query(
                    """
                    INSERT INTO field(farm, id, sequence, name, name_key, body, written_at)
                    VALUES (\(farm), \(field.id), \(sequence), \(field.name), \(key), \(body), \(field.writtenAt))
                    """)
                return (true, commit: true)
            }
        }
    }

    /// Every field of the farm, by name.
    public func fields() throws -> [Field] {
        try connections.with { session in
            try session.query("SELECT body FROM field WHERE farm = \(farm) ORDER BY name_key COLLATE \"C\", id").map {
                try JournalJSON.decode(Field.self, $0.decode(String.self))
            }
        }
    }

    /// The farm's field with this id, by its key.
    public func field(_ id: UUID) throws -> Field? {
        try connections.with { session in
            try session.query("SELECT body FROM field WHERE farm = \(farm) AND id = \(id)").first.map {
                try JournalJSON.decode(Field.self, $0.decode(String.self))
            }
        }
    }

    /// Appends a revision; false when this farm has this revision id already.
    public func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool {
        let body = try JournalJSON.encode(record)
        let findingsText = try JournalJSON.encode(findings.map(StoredFinding.init))
        let errors = findings.filter { $0.severity == .error }.count
        return try connections.with { session in
            let stored = "SELECT 1 FROM spray_record WHERE farm = \(farm) AND revision = \(record.revision)" as PostgresQuery
            if try !session.query(stored).isEmpty { return false }
            // Before the farm's lock: fields are never removed (append-only), so this holds inside.
            if try session.query("SELECT 1 FROM field WHERE farm = \(farm) AND id = \(record.field)").isEmpty {
                throw JournalError.unknownField(record.field.uuidString.lowercased())
            }
            return try session.transaction {
                let sequence = try nextSequence(session)
                if try !session.query(stored).isEmpty { return (false, commit: false) }
                let number =
                    try session.query(
                        """
                        SELECT COALESCE(MAX(number), 0) + 1 FROM spray_record WHERE farm = \(farm) AND record = \(record.id)
                        """
                    ).first?.decode(Int.self) ?? 1
                try session.query(
                    """
                    INSERT INTO spray_record(
                        farm, revision, record, field, sequence, number, start, body, findings, errors, written_at)
                    VALUES (
                        \(farm), \(record.revision), \(record.id), \(record.field), \(sequence), \(number),
                        \(record.start.description), \(body), \(findingsText), \(errors), \(record.writtenAt))
                    """)
                return (true, commit: true)
            }
        }
    }

    /// The latest revision of each record: the one of the highest number.
    private static let latest = """
        SELECT s.body, s.number, s.findings FROM spray_record s
        WHERE s.number = (SELECT MAX(l.number) FROM spray_record l WHERE l.farm = s.farm AND l.record = s.record)
        """

    private static func stored(_ rows: [PostgresRow]) throws -> [StoredRecord] {
        try rows.map { row in
            let (body, number, findings) = try row.decode((String, Int, String).self)
            return StoredRecord(
                record: try JournalJSON.decode(SprayRecord.self, body), number: number,
                findings: try JournalJSON.decode([StoredFinding].self, findings).map(\.finding))
        }
    }

    /// The latest revision of every record, on one field or all, in spraying order.
    public func records(field: UUID?) throws -> [StoredRecord] {
        try connections.with { session in
            let order = #"ORDER BY s.start COLLATE "C", s.written_at, s.sequence"#
            let rows =
                if let field {
                    try session.query(
                        "\(unescaped: Self.latest) AND s.farm = \(farm) AND s.field = \(field) \(unescaped: order)")
                } else {
                    try session.query("\(unescaped: Self.latest) AND s.farm = \(farm) \(unescaped: order)")
                }
            return try Self.stored(rows)
        }
    }

    /// The latest revision of every record on one field, without findings.
    public func sprays(field: UUID) throws -> [SprayRecord] {
        try connections.with { session in
            try session.query(
                """
                SELECT s.body FROM spray_record s
                WHERE s.farm = \(farm) AND s.field = \(field)
                AND s.number = (SELECT MAX(l.number) FROM spray_record l WHERE l.farm = s.farm AND l.record = s.record)
                ORDER BY s.start COLLATE "C", s.written_at, s.sequence
                """
            ).map { try JournalJSON.decode(SprayRecord.self, $0.decode(String.self)) }
        }
    }

    /// The ids of the farm's records whose id starts with `prefix`, case aside.
    public func recordIDs(prefix: String) throws -> [UUID] {
        try connections.with { session in
            try session.query(
                """
                SELECT DISTINCT record FROM spray_record
                WHERE farm = \(farm) AND starts_with(record::text, \(prefix.lowercased())) ORDER BY record
                """
            ).map { try $0.decode(UUID.self) }
        }
    }

    /// Every revision of one of the farm's records, oldest first.
    public func history(record: UUID) throws -> [StoredRecord] {
        try connections.with { session in
            try Self.stored(
                session.query(
                    """
                    SELECT body, number, findings FROM spray_record WHERE farm = \(farm) AND record = \(record)
                    ORDER BY number
                    """))
        }
    }

    /// The farm's stored revision with this id.
    public func revision(_ id: UUID) throws -> StoredRecord? {
        try connections.with { session in
            try Self.stored(
                session.query("SELECT body, number, findings FROM spray_record WHERE farm = \(farm) AND revision = \(id)")
            ).first
        }
    }
}
