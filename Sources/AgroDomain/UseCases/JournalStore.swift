import Foundation

/// Where the field journal keeps fields and spray records: append-only, idempotent by the ids
/// made where each was written.
public protocol JournalStore: Sendable {
    /// Stores a field. Returns false when a field with this id is stored already (it is left
    /// as it is). Throws `JournalError.fieldNameTaken` for another field of the same name.
    func addField(_ field: Field) throws -> Bool
    /// Every field, by name.
    func fields() throws -> [Field]
    /// The field with this id, if stored (every write of a record reads its field).
    func field(_ id: UUID) throws -> Field?
    /// Appends a revision with the findings it was checked with. Returns false when this
    /// revision id is stored already (nothing is written).
    func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool
    /// The latest revision of every record, on one field or all, in spraying order.
    func records(field: UUID?) throws -> [StoredRecord]
    /// The latest revision of every record on one field, without findings: what the checks
    /// of a new record read (a field's season is tens of records, checked on every write).
    func sprays(field: UUID) throws -> [SprayRecord]
    /// The ids of the records whose id starts with `prefix` (case aside).
    func recordIDs(prefix: String) throws -> [UUID]
    /// Every revision of one record, oldest first; empty for an unknown id.
    func history(record: UUID) throws -> [StoredRecord]
    /// The stored revision with this id, if any.
    func revision(_ id: UUID) throws -> StoredRecord?
}

extension JournalStore {
    /// The field with this id, from `fields()`: a store that can look one up by its key says so.
    public func field(_ id: UUID) throws -> Field? { try fields().first { $0.id == id } }
}

/// A revision as the journal stores it: the record, its number among the record's revisions,
/// and what the checks found when it was written (with their kinds, for any language).
public struct StoredRecord: Sendable, Hashable, Codable {
    /// The revision.
    public var record: SprayRecord
    /// 1 for the first writing, 2 for its first revision, ...
    public var number: Int
    /// The findings the revision was written with.
    public var findings: [PlanFinding]

    /// Creates a stored revision.
    public init(record: SprayRecord, number: Int, findings: [PlanFinding]) {
        self.record = record
        self.number = number
        self.findings = findings
    }

    /// The number of error findings: a record with errors is kept and marked.
    public var errors: Int { findings.filter { $0.severity == .error }.count }
}
