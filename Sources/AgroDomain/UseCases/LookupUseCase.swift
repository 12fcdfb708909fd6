import Foundation

/// Turns what the user typed (an id, or a name in any catalog language) into an entity.
public protocol LookupUseCase: Sendable {
    /// Entities of `kind` whose id or name matches `text`: an exact id or name (case- and
    /// diacritic-insensitive) if there is one, else those whose name starts with or contains it.
    func lookup(_ text: String, kind: EntityKind, locale: String) throws -> [EntityRef]
    /// Names of `kind` closest to `text`, for "did you mean" suggestions.
    func closestNames(to text: String, kind: EntityKind, locale: String, limit: Int) throws -> [EntityRef]
}

extension LookupUseCase {
    /// Resolves `text` to exactly one id, or throws a user-facing error listing the
    /// candidates (ambiguous) or the closest names (unknown).
    public func resolve(_ text: String, kind: EntityKind, locale: String) throws -> EntityRef {
        let matches = try lookup(text, kind: kind, locale: locale)
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let suggestions = try closestNames(to: text, kind: kind, locale: locale, limit: 5)
            throw CatalogError.unknownName(kind: kind, text: text, suggestions: suggestions)
        default:
            throw CatalogError.ambiguous(kind: kind, text: text, candidates: Array(matches.prefix(10)))
        }
    }
}
