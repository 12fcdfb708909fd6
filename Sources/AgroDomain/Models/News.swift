import Foundation

/// Whether an item is a dated news item or a longer-lived article.
public enum NewsKind: String, Sendable, Codable, CaseIterable, Hashable {
    case news, article
}

/// A news item or article; its body is HTML.
public struct NewsItem: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var kind: NewsKind
    public var title: String
    /// Publication date, ISO 8601 (YYYY-MM-DD or a full timestamp).
    public var date: String
    public var summary: String?
    public var bodyHTML: String
    public var image: String?
    /// Where the item comes from; relative links in the body resolve against it.
    public var source: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, kind, title, date, summary, bodyHTML, image, source
    }

    public init(
        id: EntityID, kind: NewsKind, title: String, date: String, summary: String? = nil,
        bodyHTML: String, image: String? = nil, source: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.date = date
        self.summary = summary
        self.bodyHTML = bodyHTML
        self.image = image
        self.source = source
    }
}

/// A line of the news list.
public struct NewsSummary: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var kind: NewsKind
    public var title: String
    public var date: String

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, kind, title, date
    }

    public init(id: EntityID, kind: NewsKind, title: String, date: String) {
        self.id = id
        self.kind = kind
        self.title = title
        self.date = date
    }
}
