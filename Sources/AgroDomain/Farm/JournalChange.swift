import Foundation

/// One change of a farm's journal, as devices exchange them: a field, or a revision of a spray
/// record. Each is identified by the UUID made where it was written, so a change sent twice is
/// stored once.
public enum JournalChange: Sendable, Hashable {
    /// A field written.
    case field(Field)
    /// A spray-record revision written.
    case record(SprayRecord)

    /// The id that makes the change idempotent: the field's, or the revision's.
    public var id: UUID {
        switch self {
        case let .field(field): return field.id
        case let .record(record): return record.revision
        }
    }
}

extension JournalChange: Codable {
    private enum CodingKeys: String, CodingKey { case kind, field, record }
    private enum Kind: String, Codable { case field, record }

    /// Decodes `{"kind": "field", "field": {...}}` or `{"kind": "record", "record": {...}}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .field: self = .field(try container.decode(Field.self, forKey: .field))
        case .record: self = .record(try container.decode(SprayRecord.self, forKey: .record))
        }
    }

    /// Encodes the kind beside the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .field(field):
            try container.encode(Kind.field, forKey: .kind)
            try container.encode(field, forKey: .field)
        case let .record(record):
            try container.encode(Kind.record, forKey: .kind)
            try container.encode(record, forKey: .record)
        }
    }
}

/// A change as the farm's store numbered it: every stored change gets the next number of its
/// farm, so a device that has everything up to N asks for what came after N.
public struct NumberedChange: Sendable, Hashable, Codable {
    /// The farm's number for the change, from 1.
    public var sequence: Int64
    /// The change.
    public var change: JournalChange
    /// For a record revision, what the server's checks found when it was stored, with their
    /// kinds (a device words them in its reader's language).
    public var findings: [StoredFinding]

    /// Creates a numbered change.
    public init(sequence: Int64, change: JournalChange, findings: [StoredFinding] = []) {
        self.sequence = sequence
        self.change = change
        self.findings = findings
    }
}
