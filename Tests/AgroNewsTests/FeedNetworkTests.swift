import AgroDomain
import AgroHTML
import AgroNews
import AgroTestSupport
import Foundation
import XCTest

let rssBody = """
    <?xml version="1.0"?><rss version="2.0"><channel><title>RSS farm</title><link>https://rss.test/</link>
    <item><title>Older RSS</title><guid>r1</guid><pubDate>Sat, 07 Sep 2002 09:42:31 GMT</pubDate><description>&lt;p&gt;old&lt;/p&gt;</description></item>
    <item><title>Newest RSS</title><guid>r2</guid><pubDate>Mon, 01 Jan 2024 08:00:00 +0000</pubDate><description>&lt;p&gt;new&lt;/p&gt;</description></item>
    </channel></rss>
    """

let atomBody = """
    <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom farm</title>
    <entry><id>a1</id><title>Middle Atom</title><updated>2010-06-01T00:00:00Z</updated><content type="html">&lt;p&gt;mid&lt;/p&gt;</content></entry>
    </feed>
    """

/// Feeds fetched from a real HTTP server on 127.0.0.1.
final class FeedNetworkTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-news-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func makeFeeds(timeout: TimeInterval = 5) -> NewsFeeds {
        NewsFeeds(
            config: FeedConfig(file: directory.appendingPathComponent("config/feeds.json")),
            cache: FeedCache(directory: directory.appendingPathComponent("cache/feeds")),
            fetcher: FeedFetcher(timeout: timeout))
    }

    static func handler(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/rss.xml":
            if request.headers["if-none-match"] == "\"v1\"" { return LoopbackResponse(status: 304, headers: [], body: Data()) }
            return LoopbackResponse(
                status: 200, headers: [("ETag", "\"v1\""), ("Content-Type", "application/rss+xml")], body: Data(rssBody.utf8))
        case "/atom.xml":
            return LoopbackResponse(
                status: 200, headers: [("Last-Modified", "Sat, 07 Sep 2002 09:42:31 GMT")], body: Data(atomBody.utf8))
        case "/broken.xml":
            return LoopbackResponse(status: 200, headers: [], body: Data("<html><body>Not a feed</body></html>".utf8))
        case "/cut.xml":
            return LoopbackResponse(status: 200, headers: [], body: Data(rssBody.utf8), truncateBodyAt: 100)
        case "/slow.xml":
            return LoopbackResponse(status: 200, headers: [], body: Data(rssBody.utf8), delay: 3)
        default:
            return LoopbackResponse(status: 500, headers: [], body: Data("oops".utf8))
        }
    }

    func testRefreshStoresFeedsAndReportsBrokenOnes() async throws {
        let server = try LoopbackHTTPServer(handler: Self.handler)
        defer { server.stop() }
        let feeds = makeFeeds()
        let base = server.baseURL.absoluteString
        for path in ["/rss.xml", "/atom.xml", "/broken.xml", "/missing.xml", "/cut.xml"] {
            XCTAssertTrue(try feeds.config.add(base + path))
        }
        // A port nobody listens on: the stopped server's.
        let dead = try LoopbackHTTPServer(handler: { _ in LoopbackResponse(status: 200, headers: [], body: Data()) })
        let deadURL = dead.baseURL.absoluteString + "/gone.xml"
        dead.stop()
        try feeds.config.add(deadURL)

        let reports = try await feeds.refresh(now: { Date(timeIntervalSince1970: 1_700_000_000) })
        XCTAssertEqual(reports.count, 6)
        XCTAssertEqual(reports[0].outcome, .updated(items: 2))
        XCTAssertEqual(reports[1].outcome, .updated(items: 1))
        XCTAssertEqual(reports[2].outcome, .failed(.notAFeed(url: base + "/broken.xml")))
        XCTAssertEqual(reports[3].outcome, .failed(.httpStatus(url: base + "/missing.xml", status: 500)))
        guard case .failed(let cut) = reports[4].outcome else { return XCTFail("cut transfer accepted: \(reports[4])") }
        switch cut {
        case .unreachable, .httpStatus: break
        default: XCTFail("\(cut)")
        }
        guard case .failed(.unreachable) = reports[5].outcome else { return XCTFail("dead server: \(reports[5])") }

        // Offline listing: the good feeds merged newest first; the others reported.
        let cached = try feeds.cachedItems()
        XCTAssertEqual(cached.items.map(\.title), ["Newest RSS", "Middle Atom", "Older RSS"])
        XCTAssertEqual(cached.items[0].feedTitle, "RSS farm")
        XCTAssertEqual(cached.problems.count, 4)
        XCTAssertTrue(cached.problems.contains(.notFetched(url: base + "/missing.xml")))
        XCTAssertEqual(cached.fetchedAt[base + "/rss.xml"], Date(timeIntervalSince1970: 1_700_000_000))
        let newest = try XCTUnwrap(feeds.item(id: cached.items[0].id))
        XCTAssertEqual(newest.renderedBody(options: HTMLRenderOptions()), "new\n")
        XCTAssertNil(try feeds.item(id: "rss-0000000000"))
    }

    func testConditionalGetKeepsCacheAndUpdatesFetchTime() async throws {
        let server = try LoopbackHTTPServer(handler: Self.handler)
        defer { server.stop() }
        let feeds = makeFeeds()
        let url = URL(string: server.baseURL.absoluteString + "/rss.xml")!
        try feeds.config.add(url.absoluteString)
        _ = try await feeds.refresh(now: { Date(timeIntervalSince1970: 1000) })
        let second = try await feeds.refresh(now: { Date(timeIntervalSince1970: 2000) })
        XCTAssertEqual(second[0].outcome, .notModified)
        XCTAssertEqual(server.requests.last?.headers["if-none-match"], "\"v1\"")
        XCTAssertNil(server.requests.first?.headers["if-none-match"])
        let entry = try XCTUnwrap(feeds.cache.load(url)?.entry)
        XCTAssertEqual(entry.fetchedAt, Date(timeIntervalSince1970: 2000))
        XCTAssertEqual(entry.etag, "\"v1\"")
        server.stop()
        // Offline: still shown from the cache.
        XCTAssertEqual(try feeds.cachedItems().items.count, 2)
    }

    func testLastModifiedIsSentBack() async throws {
        let server = try LoopbackHTTPServer(handler: Self.handler)
        defer { server.stop() }
        let feeds = makeFeeds()
        try feeds.config.add(server.baseURL.absoluteString + "/atom.xml")
        _ = try await feeds.refresh()
        _ = try await feeds.refresh()
        XCTAssertEqual(server.requests.last?.headers["if-modified-since"], "Sat, 07 Sep 2002 09:42:31 GMT")
    }

    func testBrokenDownloadDoesNotReplaceGoodCopy() async throws {
        let broken = LockedFlag()
        let server = try LoopbackHTTPServer(handler: { request in
            broken.value
                ? LoopbackResponse(status: 200, headers: [], body: Data("<rss><channel>".utf8))
                : LoopbackResponse(status: 200, headers: [], body: Data(rssBody.utf8))
        })
        defer { server.stop() }
        let feeds = makeFeeds()
        try feeds.config.add(server.baseURL.absoluteString + "/feed")
        _ = try await feeds.refresh()
        broken.value = true
        let reports = try await feeds.refresh()
        guard case .failed(let error) = reports[0].outcome else { return XCTFail("broken feed accepted") }
        switch error {
        case .malformed, .notAFeed: break
        default: XCTFail("\(error)")
        }
        XCTAssertEqual(try feeds.cachedItems().items.count, 2)
    }

    func testTimeoutIsReported() async throws {
        let server = try LoopbackHTTPServer(handler: Self.handler)
        defer { server.stop() }
        let feeds = makeFeeds(timeout: 1)
        try feeds.config.add(server.baseURL.absoluteString + "/slow.xml")
        let reports = try await feeds.refresh()
        guard case .failed(.unreachable(_, let reason)) = reports[0].outcome else { return XCTFail("\(reports)") }
        XCTAssertEqual(reason, "timed out")
    }

    func testRealFixturesOverHTTP() async throws {
        let rss = try fixtureFeed("rss2_techcrunch_content_encoded_cdata.xml")
        let atom = try fixtureFeed("atom_samruby_xhtml_content.xml")
        let server = try LoopbackHTTPServer(handler: { request in
            LoopbackResponse(status: 200, headers: [], body: request.path == "/tc" ? rss : atom)
        })
        defer { server.stop() }
        let feeds = makeFeeds()
        try feeds.config.add(server.baseURL.absoluteString + "/tc")
        try feeds.config.add(server.baseURL.absoluteString + "/ruby")
        let reports = try await feeds.refresh()
        XCTAssertEqual(reports.map(\.outcome), [.updated(items: 20), .updated(items: 20)])
        let items = try feeds.cachedItems().items
        XCTAssertEqual(items.count, 40)
        let dates = items.compactMap(\.date)
        XCTAssertEqual(dates, dates.sorted(by: >))
    }
}

final class FeedConfigTests: XCTestCase {
    func testAddRemoveAndValidate() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("agro-cfg-\(UUID().uuidString)/feeds.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let config = FeedConfig(file: file)
        XCTAssertEqual(try config.urls(), [])
        XCTAssertTrue(try config.add("https://a.test/feed"))
        XCTAssertFalse(try config.add("https://a.test/feed"))
        XCTAssertTrue(try config.add("http://b.test/rss"))
        XCTAssertEqual(try config.urls().map(\.absoluteString), ["https://a.test/feed", "http://b.test/rss"])
        XCTAssertThrowsError(try config.add("ftp://c.test/x")) { XCTAssertEqual($0 as? FeedError, .invalidURL("ftp://c.test/x")) }
        XCTAssertThrowsError(try config.add("not a url"))
        XCTAssertTrue(try config.remove("https://a.test/feed"))
        XCTAssertFalse(try config.remove("https://a.test/feed"))
        XCTAssertEqual(try config.urls().map(\.absoluteString), ["http://b.test/rss"])
        try Data("{broken".utf8).write(to: file)
        XCTAssertThrowsError(try config.urls()) { XCTAssertTrue(($0 as? FeedError)?.message.contains(file.path) ?? false) }
    }
}

/// A Bool shared with a server handler thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return flag }
        set { lock.lock(); flag = newValue; lock.unlock() }
    }
}
