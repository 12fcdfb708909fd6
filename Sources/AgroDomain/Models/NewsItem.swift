import Foundation

/// Whether an item is a dated news item or a longer-lived article.
public enum NewsKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// A dated news item; a longer article.
    case news, article
}

/// A news item or article; its body is HTML.
public struct NewsItem: Sendable, Hashable, Codable, Identifiable {
    /// Stable id (a slug).
    public var id: EntityID
    /// News or article.
    public var kind: NewsKind
    /// Title in the requested locale.
    public var title: String
    /// Publication date, ISO 8601 (YYYY-MM-DD or a full timestamp).
    public var date: String
    /// A short summary, plain text.
    public var summary: String?
    /// The body as HTML, to be rendered for the terminal.
    public var bodyHTML: String
    /// Path or URL of a lead image.
    public var image: String?
    /// Where the item comes from; relative links in the body resolve against it.
    public var source: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, kind, title, date, summary, bodyHTML, image, source
    }

    /// A news item or article.
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
    /// Stable id.
    public var id: EntityID
    /// News or article.
    public var kind: NewsKind
    /// Title in the requested locale.
    public var title: String
    /// Publication date, ISO 8601.
    public var date: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, kind, title, date
    }

    /// A line of the news list.
    public init(id: EntityID, kind: NewsKind, title: String, date: String) {
        self.id = id
        self.kind = kind
        self.title = title
        self.date = date
    }
}
