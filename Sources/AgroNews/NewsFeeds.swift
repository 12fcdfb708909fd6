import Foundation

/// How refreshing one feed went.
public struct FeedRefreshReport: Sendable, Equatable {
    /// What happened.
    public enum Outcome: Sendable, Equatable {
        /// A new body was stored; `items` entries could be read.
        case updated(items: Int)
        /// The server confirmed the cached copy (HTTP 304).
        case notModified
        /// The feed failed; its previous cached copy, if any, is kept.
        case failed(FeedError)
    }

    /// The feed.
    public var url: URL
    /// What happened to it.
    public var outcome: Outcome
}

/// Entries of all cached feeds, newest first, and the feeds that could not be read.
public struct CachedFeedItems: Sendable {
    /// Entries, newest first; undated entries last.
    public var items: [FeedItem]
    /// Configured feeds that have no usable cached copy (`.notFetched`, or a parse error).
    public var problems: [FeedError]
    /// When each configured feed was last fetched, by URL.
    public var fetchedAt: [String: Date]
}

/// Configured feeds: refresh them into the cache, and read entries back from the cache
/// (offline). A broken or unreachable feed is reported and skipped; the others still show.
public struct NewsFeeds: Sendable {
    /// Which feeds.
    public let config: FeedConfig
    /// Where their bodies are kept.
    public let cache: FeedCache
    /// How they are fetched.
    public let fetcher: FeedFetcher

    /// Feeds listed in `config`, cached in `cache`, fetched with `fetcher`.
    public init(config: FeedConfig, cache: FeedCache, fetcher: FeedFetcher) {
        self.config = config
        self.cache = cache
        self.fetcher = fetcher
    }

    /// Fetches every configured feed (concurrently), storing what changed.
    /// - Throws: only when the feed list itself cannot be read.
    public func refresh(now: @escaping @Sendable () -> Date = { Date() }) async throws -> [FeedRefreshReport] {
        let urls = try config.urls()
        return await withTaskGroup(of: (Int, FeedRefreshReport).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, await refresh(url, now: now())) }
            }
            var reports: [(Int, FeedRefreshReport)] = []
            for await report in group { reports.append(report) }
            return reports.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Fetches one feed and stores it when it parses.
    public func refresh(_ url: URL, now: Date) async -> FeedRefreshReport {
        let cached = cache.load(url)
        do {
            switch try await fetcher.fetch(url, cached: cached?.entry) {
            case .notModified:
                if var entry = cached?.entry {
                    entry.fetchedAt = now
                    try cache.store(entry, body: nil, for: url)
                }
                return FeedRefreshReport(url: url, outcome: .notModified)
            case let .fetched(body, etag, lastModified):
                // Parse before storing: a broken download must not replace a good copy.
                let feed = try FeedParser.parse(body, url: url)
                let entry = FeedCacheEntry(url: url.absoluteString, fetchedAt: now, etag: etag, lastModified: lastModified)
                try cache.store(entry, body: body, for: url)
                return FeedRefreshReport(url: url, outcome: .updated(items: feed.items.count))
            }
        } catch let error as FeedError {
            return FeedRefreshReport(url: url, outcome: .failed(error))
        } catch {
            return FeedRefreshReport(
                url: url, outcome: .failed(.unreachable(url: url.absoluteString, reason: error.localizedDescription)))
        }
    }

    /// The cached entry with this `FeedItem.id` (for `agro news show ID`), or nil.
    ///
    /// An id names one feed (it hashes the feed's URL with the entry's guid), so the search
    /// stops at the first feed that has it; feeds that cannot be read are skipped.
    public func item(id: String) throws -> FeedItem? {
        for url in try config.urls() {
            guard let (_, body) = cache.load(url), let feed = try? FeedParser.parse(body, url: url) else { continue }
            // A guid repeated within the feed: its newest entry, as in `cachedItems()`.
            if let entry = feed.items.filter({ $0.id == id }).sorted(by: Self.newestFirst).first { return entry }
        }
        return nil
    }

    /// Entries of all configured feeds from the cache, newest first (undated last), without
    /// touching the network.
    public func cachedItems() throws -> CachedFeedItems {
        var items: [FeedItem] = []
        var problems: [FeedError] = []
        var fetchedAt: [String: Date] = [:]
        for url in try config.urls() {
            guard let (entry, body) = cache.load(url) else {
                problems.append(.notFetched(url: url.absoluteString))
                continue
            }
            fetchedAt[url.absoluteString] = entry.fetchedAt
            do {
                items += try FeedParser.parse(body, url: url).items
            } catch let error as FeedError {
                problems.append(error)
            }
        }
        items.sort(by: Self.newestFirst)
        return CachedFeedItems(items: items, problems: problems, fetchedAt: fetchedAt)
    }

    /// Newest first; undated entries last.
    private static func newestFirst(_ a: FeedItem, _ b: FeedItem) -> Bool {
        switch (a.date, b.date) {
        case let (x?, y?): return x > y
        case (.some, nil): return true
        default: return false
        }
    }
}
