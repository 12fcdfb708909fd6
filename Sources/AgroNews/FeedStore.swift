import Foundation

/// The list of configured feed URLs, kept as JSON (`{"feeds": ["https://..."]}`) at a path
/// the caller chooses (normally in the user's config directory).
public struct FeedConfig: Sendable {
    /// The JSON file; created on the first `add`.
    public let file: URL

    /// A list kept in `file`.
    public init(file: URL) { self.file = file }

    struct Contents: Codable {
        var feeds: [String]
    }

    /// The configured URLs in the order they were added; none when the file does not exist.
    public func urls() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: file))
            return contents.feeds.compactMap(URL.init(string:))
        } catch {
            throw FeedError.config(path: file.path, reason: "not a feed list: \(error.localizedDescription)")
        }
    }

    /// Adds `text` after checking it is an absolute http(s) URL; returns false when it was
    /// already listed.
    @discardableResult
    public func add(_ text: String) throws -> Bool {
        let url = try Self.validate(text)
        var list = try urls()
        if list.contains(url) { return false }
        list.append(url)
        try write(list)
        return true
    }

    /// Removes `text`; returns false when it was not listed.
    @discardableResult
    public func remove(_ text: String) throws -> Bool {
        var list = try urls()
        guard let index = list.firstIndex(where: { $0.absoluteString == text }) else { return false }
        list.remove(at: index)
        try write(list)
        return true
    }

    static func validate(_ text: String) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else { throw FeedError.invalidURL(text) }
        return url
    }

    func write(_ list: [URL]) throws {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
            try encoder.encode(Contents(feeds: list.map(\.absoluteString))).write(to: file, options: .atomic)
        } catch {
            throw FeedError.config(path: file.path, reason: error.localizedDescription)
        }
    }
}

/// What the cache knows about one feed besides its body.
public struct FeedCacheEntry: Sendable, Codable, Hashable {
    /// The feed's address.
    public var url: String
    /// When the body was last fetched or confirmed unchanged (HTTP 304).
    public var fetchedAt: Date
    /// Validators from the last 200 answer, sent back as If-None-Match / If-Modified-Since.
    public var etag: String?
    /// The Last-Modified value of the last 200 answer, sent back as If-Modified-Since.
    public var lastModified: String?
}

/// Feed bodies as fetched, with their validators, one pair of files per feed in a directory
/// the caller chooses (normally `$XDG_CACHE_HOME/agro/feeds`). Bodies are kept raw and parsed
/// when shown, so a better parser improves old downloads too.
public struct FeedCache: Sendable {
    /// Where the files go; created when first needed.
    public let directory: URL

    /// A cache in `directory`.
    public init(directory: URL) { self.directory = directory }

    func base(_ url: URL) -> URL {
        directory.appendingPathComponent("feed-" + hex(fnv1a(url.absoluteString), digits: 16))
    }

    /// The cached body and its entry, or nil when the feed was never fetched.
    public func load(_ url: URL) -> (entry: FeedCacheEntry, body: Data)? {
        let base = base(url)
        guard let meta = try? Data(contentsOf: base.appendingPathExtension("json")),
            let entry = try? JSONDecoder().decode(FeedCacheEntry.self, from: meta),
            let body = try? Data(contentsOf: base.appendingPathExtension("xml"))
        else { return nil }
        return (entry, body)
    }

    /// Stores a fresh body; `body` nil keeps the old one (a 304 answer) and updates the entry.
    public func store(_ entry: FeedCacheEntry, body: Data?, for url: URL) throws {
        let base = base(url)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Body first: an entry never points at a missing or older body.
            if let body { try body.write(to: base.appendingPathExtension("xml"), options: .atomic) }
            try JSONEncoder().encode(entry).write(to: base.appendingPathExtension("json"), options: .atomic)
        } catch {
            throw FeedError.cache(path: directory.path, reason: error.localizedDescription)
        }
    }
}
