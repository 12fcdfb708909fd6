import Foundation

/// Ranked full-text search across products, substances, cultures, pests and news.
public protocol SearchUseCase: Sendable {
    /// Hits for `text`, best first. Any text is accepted: quotes, stars, parentheses and
    /// operator words are searched for as words, never interpreted.
    func search(_ text: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit>
}
