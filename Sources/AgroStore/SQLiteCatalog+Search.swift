import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: SearchUseCase {
    /// Full-text search over names and descriptions in every locale, best matches first.
    public func search(_ text: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit> {
        let chain = info.locales.chain(for: locale)
        return try read { db in try CatalogQueries.search(text, kinds: kinds, page: page, chain: chain, reader: db) }
    }
}

extension SQLiteCatalog: LookupUseCase {
    /// Resolves an id, registration number or name typed by a user to one entity.
    public func lookup(_ text: String, kind: EntityKind, locale: String) throws -> [EntityRef] {
        let trimmed = CatalogQueries.trimmed(text)
        let chain = info.locales.chain(for: locale)
        guard !trimmed.isEmpty else { return [] }
        let find = { try self.read { db in try CatalogQueries.lookup(trimmed, kind: kind, chain: chain, reader: db) } }
        // Ids and names are short; a long text is looked up each time rather than kept.
        guard trimmed.utf8.count <= LookupKey.longestText else { return try find() }
        return try lookups.value(LookupKey(text: trimmed, kind: kind, locale: locale), find)
    }

    /// Names of `kind` closest to `text`, for "did you mean" messages.
    public func closestNames(to text: String, kind: EntityKind, locale: String, limit: Int) throws -> [EntityRef] {
        let chain = info.locales.chain(for: locale)
        return try read { db in
            try CatalogQueries.closestNames(to: text, kind: kind, chain: chain, limit: limit, reader: db)
        }
    }
}

/// A name looked up by `SQLiteCatalog.lookup`: a web request's pest and culture cost two reads
/// each otherwise, and the same few are asked again and again.
struct LookupKey: Hashable, Sendable {
    let text: String
    let kind: EntityKind
    let locale: String

    /// Texts longer than this (in UTF-8 bytes) are not kept.
    static var longestText: Int { 200 }
}
