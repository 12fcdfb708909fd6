import Foundation

/// An error the user can act on: one clear line and a documented exit status.
///
/// Every module's error type conforms, so the program turns any of them into the same kind of
/// output without knowing where it came from.
public protocol UserFacingError: Error, Sendable {
    /// One line, no stack trace, saying what went wrong and, where possible, what to do.
    var message: String { get }
    /// The process exit status documented for this failure (README, "Exit status").
    var exitStatus: ExitStatus { get }
}

/// Exit statuses of `agro`, one per family of failure. Documented in the README.
public struct ExitStatus: RawRepresentable, Sendable, Hashable, Codable {
    /// The numeric status the process exits with.
    public var rawValue: Int32
    /// A status from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Success.
    public static let success = ExitStatus(rawValue: 0)
    /// An unexpected failure.
    public static let failure = ExitStatus(rawValue: 1)
    /// An id or a name that matches nothing.
    public static let notFound = ExitStatus(rawValue: 3)
    /// A name that matches several entities.
    public static let ambiguous = ExitStatus(rawValue: 4)
    /// Bad command-line usage (also what swift-argument-parser uses).
    public static let usage = ExitStatus(rawValue: 64)
    /// Bad content: catalog sources or imported data that cannot be used.
    public static let badContent = ExitStatus(rawValue: 65)
    /// The catalog file is missing, unreadable or corrupt.
    public static let catalogUnavailable = ExitStatus(rawValue: 66)
    /// The catalog needs a newer program.
    public static let catalogTooNew = ExitStatus(rawValue: 67)
    /// A file could not be written.
    public static let cannotWrite = ExitStatus(rawValue: 73)
    /// Reading or writing a file failed.
    public static let ioError = ExitStatus(rawValue: 74)
}

/// Failures of catalog queries and of the catalog file itself.
public enum CatalogError: UserFacingError, Equatable {
    /// No entity of this kind has this id.
    case notFound(kind: EntityKind, id: String)
    /// A name typed by the user matches several entities.
    case ambiguous(kind: EntityKind, text: String, candidates: [NameMatch])
    /// A name typed by the user matches nothing; the closest names are offered.
    case unknownName(kind: EntityKind, text: String, suggestions: [NameMatch])
    /// The catalog file does not exist.
    case missing(path: String)
    /// The catalog file exists but cannot be used.
    case corrupt(path: String, reason: String)
    /// The catalog's schema is newer than this program understands.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// An argument that cannot be used as given.
    case invalidArgument(String)

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
            return "catalog not found at \(path); rebuild it with `agro catalog build Database/content --out \(path)` or pass --catalog FILE"
        case let .corrupt(path, reason):
            return "catalog at \(path) is unusable (\(reason)); rebuild it with `agro catalog build` or pass --catalog FILE"
        case let .schemaTooNew(path, found, supported):
            return "catalog at \(path) has schema \(found) but this agro reads up to \(supported): this catalog needs a newer agro"
        case let .invalidArgument(text):
            return text
        }
    }

    /// The status documented for this failure: 3, 4, 64, 66 or 67.
    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .unknownName: return .notFound
        case .ambiguous: return .ambiguous
        case .missing, .corrupt: return .catalogUnavailable
        case .schemaTooNew: return .catalogTooNew
        case .invalidArgument: return .usage
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
