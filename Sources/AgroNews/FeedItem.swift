import AgroDomain
import AgroHTML
import Foundation

/// The syndication formats `FeedParser` reads.
public enum FeedFormat: String, Sendable, Codable, Hashable {
    case rss2, rss1, atom
}

/// One entry of a feed.
public struct FeedItem: Sendable, Hashable, Codable, Identifiable {
    /// Short stable identifier for listings and `agro news show ID`: "rss-" and ten hex digits
    /// derived from the feed's URL and the entry's guid/id.
    public var id: String
    /// The entry's own identifier (RSS guid, Atom id, RDF about), else its link, else its title.
    public var guid: String
    /// The feed's title (plain text).
    public var feedTitle: String
    /// Where the feed was fetched from.
    public var feedURL: String
    /// Plain text title.
    public var title: String
    /// The entry's web page, absolute when the feed gave enough to resolve it.
    public var link: String?
    /// Publication (else update) date; nil when absent or unreadable.
    public var date: Date?
    /// The body as HTML: content:encoded, else description (RSS); content, else summary (Atom).
    public var html: String

    /// Memberwise; `FeedParser` is the usual source of items.
    public init(
        id: String, guid: String, feedTitle: String, feedURL: String, title: String, link: String?, date: Date?,
        html: String
    ) {
        self.id = id
        self.guid = guid
        self.feedTitle = feedTitle
        self.feedURL = feedURL
        self.title = title
        self.link = link
        self.date = date
        self.html = html
    }

    /// The body as terminal text; relative links resolve against the entry's link (else the
    /// feed's URL) unless `options.baseURL` is set.
    public func renderedBody(options: HTMLRenderOptions) -> String {
        var options = options
        if options.baseURL == nil { options.baseURL = link.flatMap(URL.init(string:)) ?? URL(string: feedURL) }
        return HTMLRenderer.render(html: html, options: options)
    }

    /// The entry as a domain news item (kind `.news`, date as ISO 8601 UTC), so feeds and the
    /// catalog's news list together.
    public func newsItem() -> NewsItem {
        NewsItem(
            id: id, kind: .news, title: title, date: date.map(FeedDate.iso8601) ?? "", summary: nil, bodyHTML: html,
            image: nil, source: link ?? feedURL)
    }
}

extension FeedItem {
    /// The entry as a line of the news list, to merge with the catalog's items.
    public func newsSummary() -> NewsSummary {
        NewsSummary(id: id, kind: .news, title: title, date: date.map(FeedDate.iso8601) ?? "")
    }
}

/// A parsed feed.
public struct Feed: Sendable, Hashable {
    /// RSS 2.0, RSS 1.0 or Atom.
    public var format: FeedFormat
    /// The feed's title, plain text.
    public var title: String
    /// The site the feed belongs to, as the feed gives it.
    public var link: String?
    /// Entries in document order.
    public var items: [FeedItem]
    /// True when the document was cut off or broken and only the entries before the damage
    /// were read.
    public var isIncomplete: Bool

    /// Memberwise.
    public init(format: FeedFormat, title: String, link: String?, items: [FeedItem], isIncomplete: Bool) {
        self.format = format
        self.title = title
        self.link = link
        self.items = items
        self.isIncomplete = isIncomplete
    }
}

/// 64-bit FNV-1a: stable across runs and platforms (unlike `Hasher`), for ids and file names.
func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}

func hex(_ value: UInt64, digits: Int) -> String {
    let s = String(value, radix: 16)
    let padded = String(repeating: "0", count: max(0, 16 - s.count)) + s
    return String(padded.prefix(digits))
}
