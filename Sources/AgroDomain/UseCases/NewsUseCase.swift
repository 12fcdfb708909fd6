import Foundation

/// News items and articles carried by the catalog.
public protocol NewsUseCase: Sendable {
    /// Items, newest first; `kind` nil lists both kinds.
    func news(kind: NewsKind?, page: PageRequest, locale: String) throws -> Page<NewsSummary>
    /// One item with its HTML body; nil when unknown.
    func newsItem(id: EntityID, locale: String) throws -> NewsItem?
}
