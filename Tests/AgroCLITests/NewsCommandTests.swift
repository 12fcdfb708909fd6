import AgroTestSupport
import Foundation
import XCTest

/// `agro news` and `agro render-html` end to end, feeds served by a real loopback server.
final class NewsCommandTests: XCTestCase {
    let cli = CLIRunner()

    func testCatalogNewsNewestFirst() throws {
        let entries = try CatalogCommandsTests.entries("news.json")
        let document = try cli.json(["news", "--all"])
        XCTAssertEqual(document["total"] as? Int, entries.count)
        let dates = (document["items"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
        XCTAssertEqual(dates, entries.compactMap { $0["date"] as? String }.sorted(by: >))
        let articles = try cli.json(["news", "--kind", "article", "--all"])
        XCTAssertEqual(articles["total"] as? Int, entries.filter { $0["kind"] as? String == "article" }.count)
    }

    func testShowRendersTheBody() throws {
        let entry = try XCTUnwrap(try CatalogCommandsTests.entries("news.json").first)
        let id = try XCTUnwrap(entry["id"] as? String)
        let title = try XCTUnwrap((entry["title"] as? [String: String])?["en"])
        let result = try cli.run(["news", "show", id, "--lang", "en", "--width", "60"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.replacingOccurrences(of: "\n", with: " ").hasPrefix(title), result.stdout)
        XCTAssertFalse(result.stdout.contains("<p>"), "HTML is rendered, not printed")
        for line in result.stdout.lines where !line.contains("http") {
            XCTAssertLessThanOrEqual(line.count, 60, line)
        }
        XCTAssertEqual(try cli.run(["news", "show", "no-such-item"]).status, 3)
    }

    func testFeedsAreFetchedCachedAndListedOffline() throws {
        let rss = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Field notes</title>
            <item><guid>a1</guid><title>Rust spotted in Akmola</title><pubDate>Mon, 01 Jun 2099 08:00:00 GMT</pubDate>
            <description>&lt;p&gt;Check &lt;b&gt;flag leaves&lt;/b&gt; now.&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/feed.xml":
                return LoopbackResponse(status: 200, headers: [("Content-Type", "application/rss+xml")], body: Data(rss.utf8))
            default: return LoopbackResponse(status: 404, headers: [], body: Data("missing".utf8))
            }
        }
        defer { server.stop() }
        let good = server.baseURL.appendingPathComponent("feed.xml").absoluteString
        let broken = server.baseURL.appendingPathComponent("gone.xml").absoluteString
        XCTAssertEqual(try cli.run(["news", "feeds", "add", good]).status, 0)
        XCTAssertEqual(try cli.run(["news", "feeds", "add", broken]).status, 0)
        XCTAssertNotEqual(try cli.run(["news", "feeds", "add", "ftp://example.com/x"]).status, 0)

        let refresh = try cli.run(["news", "refresh", "--lang", "en"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stdout.contains("feed.xml: 1 item\n"), refresh.stdout)
        XCTAssertTrue(refresh.stderr.contains("gone.xml"), "the broken feed is reported: \(refresh.stderr)")

        server.stop()
        // Offline now: the list comes from the cache, the feed item first (dated 2099).
        let listed = try cli.json(["news", "--all"])
        let first = try XCTUnwrap((listed["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["name"] as? String, "Rust spotted in Akmola")
        XCTAssertEqual(first["source"] as? String, "Field notes")
        let shown = try cli.run(["news", "show", try XCTUnwrap(first["id"] as? String), "--lang", "en"])
        XCTAssertTrue(shown.stdout.contains("Check flag leaves now."), shown.stdout)
    }

    func testRenderHTMLFromStandardInput() throws {
        let html = "<h1>Title</h1><p>One <b>two</b>\u{1B}[31m three</p><ul><li>a</li><li>b</li></ul><a href=\"/x\">link</a>"
        let result = try cli.run(["render-html", "-", "--width", "40", "--base", "https://example.com/news/"], input: html)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Title"))
        XCTAssertTrue(result.stdout.contains("One two"), result.stdout)
        XCTAssertTrue(result.stdout.contains("https://example.com/x"), result.stdout)
        XCTAssertFalse(result.stdout.unicodeScalars.contains("\u{1B}"), "no escape reaches a pipe")
        XCTAssertEqual(try cli.run(["render-html", "/nonexistent.html"]).status, 74)
    }
}
