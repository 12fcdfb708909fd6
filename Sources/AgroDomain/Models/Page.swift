import Foundation

/// Which slice of a list to read. Pages count from 1.
///
/// ```swift
/// let second = PageRequest(page: 2, perPage: 20)   // items 21...40
/// let everything = PageRequest.all
/// ```
public struct PageRequest: Sendable, Hashable, Codable {
    /// The page asked for, from 1.
    public var page: Int
    /// Items per page; nil reads everything.
    public var perPage: Int?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case page, perPage
    }

    /// Largest page size and page number accepted; larger values are clamped so that
    /// offsets can never overflow.
    public static let limit = 1_000_000

    /// Page `page` of `perPage` items; `perPage` nil asks for everything.
    public init(page: Int = 1, perPage: Int?) {
        self.page = min(max(1, page), Self.limit)
        self.perPage = perPage.map { min(max(1, $0), Self.limit) }
    }

    /// Every item at once.
    public static let all = PageRequest(page: 1, perPage: nil)
}

/// A slice of a list with the list's total size.
///
/// ```swift
/// let page = Page(slicing: ["a", "b", "c"], PageRequest(page: 2, perPage: 2))
/// // page.items == ["c"], page.total == 3, page.pageCount == 2
/// ```
public struct Page<Item: Sendable>: Sendable {
    /// The items of this page, in list order.
    public var items: [Item]
    /// The page number, from 1.
    public var page: Int
    /// Items per page as requested; equals `total` when everything was read.
    public var perPage: Int
    /// Items in the whole list, over all pages.
    public var total: Int

    /// A page as a store returns it.
    public init(items: [Item], page: Int, perPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.perPage = perPage
        self.total = total
    }

    /// Number of pages; an empty list still has one (empty) page.
    public var pageCount: Int { perPage > 0 ? max(1, (total + perPage - 1) / perPage) : 1 }

    /// Applies `request` to an in-memory list.
    public init(slicing all: [Item], _ request: PageRequest) {
        let perPage = request.perPage ?? max(all.count, 1)
        let start = min(all.count, perPage * (request.page - 1))
        let end = min(all.count, start + perPage)
        self.init(items: Array(all[start..<end]), page: request.page, perPage: perPage, total: all.count)
    }

    /// The same page with each item transformed.
    public func map<T: Sendable>(_ transform: (Item) throws -> T) rethrows -> Page<T> {
        Page<T>(items: try items.map(transform), page: page, perPage: perPage, total: total)
    }
}

extension Page: Equatable where Item: Equatable {}
