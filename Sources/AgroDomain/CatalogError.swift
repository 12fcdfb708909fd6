import Foundation

/// An error the user can act on: each case says what failed and carries what a message needs.
///
/// Libraries say what failed, not how a program reports it: the `agro` program gives each case
/// its documented exit status and words it in the interface language from its own tables
/// (`Localizable/<lang>.json`). `message` is the English wording, for logs and for programs
/// that use the libraries without those tables.
public protocol UserFacingError: Error, Sendable {
    /// One line of English, no stack trace, saying what went wrong and, where possible, what to do.
    var message: String { get }
}

/// Failures of catalog queries and of the catalog file itself.
public enum CatalogError: UserFacingError, Equatable {
    /// No entity of this kind has this id.
    case notFound(kind: EntityKind, id: String)
    /// A name typed by the user matches several entities.
    case ambiguous(kind: EntityKind, text: String, candidates: [EntityRef])
    /// A name typed by the user matches nothing; the closest names are offered.
    case unknownName(kind: EntityKind, text: String, suggestions: [EntityRef])
    /// The catalog file does not exist.
    case missing(path: String)
    /// The catalog file exists but cannot be used.
    case corrupt(path: String, reason: String)
    /// The catalog's schema is newer than this program understands.
    case schemaTooNew(path: String, found: Int, supported: Int)

    /// One line for the user, naming the entity or file concerned.
    public var message: String {
        switch self {
        case let .notFound(kind, id):
            return "no \(kind.rawValue) with id \"\(id)\""
        case let .ambiguous(kind, text, candidates):
            let list = candidates.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
            return "\"\(text)\" matches several \(kind.plural): \(list); give an id or a fuller name"
        case let .unknownName(kind, text, suggestions):
            if suggestions.isEmpty { return "no \(kind.rawValue) matches \"\(text)\"" }
            let list = suggestions.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
            return "no \(kind.rawValue) matches \"\(text)\"; closest: \(list)"
        case let .missing(path):
            return
                "catalog not found at \(path); rebuild it with `agro catalog build Database/content --out \(path)` or pass --catalog FILE"
        case let .corrupt(path, reason):
            return "catalog at \(path) is unusable (\(reason)); rebuild it with `agro catalog build` or pass --catalog FILE"
        case let .schemaTooNew(path, found, supported):
            return
                "catalog at \(path) has schema \(found) but this agro reads up to \(supported): this catalog needs a newer agro"
        }
    }
}

extension EntityKind {
    /// English plural, for messages.
    public var plural: String {
        switch self {
        case .product: return "products"
        case .substance: return "substances"
        case .culture: return "cultures"
        case .pest: return "pests"
        case .news: return "news items"
        case .region: return "regions"
        case .company: return "companies"
        }
    }
}
