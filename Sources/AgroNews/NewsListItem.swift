import AgroDomain
import Foundation

/// A line of the merged news list (the catalog's items and the feeds'), as `agro news` and
/// `agro web` list it.
public struct NewsListItem: Encodable, Sendable {
    /// The catalog's news id, or the feed entry's stable id.
    public var id: String
    /// The title, in the list's language where the catalog has it.
    public var name: String
    /// News, article or event.
    public var kind: NewsKind
    /// Publication date as ISO 8601 (YYYY-MM-DD), empty when unknown.
    public var date: String
    /// "catalog", or the feed's title.
    public var source: String

    /// The catalog's items and the cached feed entries, newest first (ISO 8601 dates sort as
    /// text; undated items last).
    public static func merged(catalog: [NewsSummary], feeds: [FeedItem]) -> [NewsListItem] {
        var items = catalog.map { NewsListItem(id: $0.id, name: $0.title, kind: $0.kind, date: $0.date, source: "catalog") }
        items += feeds.map { entry in
            let summary = entry.newsSummary()
            return NewsListItem(
                id: summary.id, name: summary.title, kind: summary.kind, date: summary.date, source: entry.feedTitle)
        }
        items.sort { ($0.date.isEmpty ? "" : $0.date, $1.id) > ($1.date.isEmpty ? "" : $1.date, $0.id) }
        return items
    }
}

/// One news item with its text rendered (`agro news show ID --format json`).
public struct NewsItemDocument: Encodable, Sendable {
    /// The item as the catalog or the feed holds it.
    public var item: NewsItem
    /// Its body as terminal text, rendered from HTML at the width asked for.
    public var text: String

    /// A document of `item` with its rendered `text`.
    public init(item: NewsItem, text: String) {
        self.item = item
        self.text = text
    }
}
