import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

/// The web app's pages and what makes them safe: escaping of catalog strings, sanitized news
/// HTML, the Content-Security-Policy, no inline script; the weather through the server; a
/// catalog installed by `agro db update` answering the next request.
final class WebPagesTests: XCTestCase {
    static let evilName = "<script>alert('x')</script> & \"Co\""
    static let evilHTML = """
        <p onclick="steal()">Spray <b>early</b>.</p><script>alert(1)</script>\
        <a href="javascript:alert(2)">bad</a> <a href="JaVaScRiPt&#58;alert(3)">worse</a>\
        <a href="https://example.org/a">good</a><img src="x" onerror="alert(4)" alt="pic">\
        <iframe src="https://evil.example/"></iframe><style>body{display:none}</style>\
        <table tabindex="-1" onfocus="alert(5)"><tr><th>Rate</th></tr></table>
        """

    /// A catalog whose strings are hostile: a product and a pest named with markup, and a news
    /// item whose HTML carries script, handlers and javascript: links.
    static func hostileCatalog(at path: String) throws {
        let writer = try CatalogWriter(
            path: path,
            header: CatalogHeader(
                identity: "test.hostile", version: 1, builtAt: "2026-11-21T00:00:00Z",
                locales: LocaleChain(locales: ["en"]), title: ["en": "Hostile <b>catalog</b>"]))
        try writer.add(CatalogRecord.Pest(id: "pest-evil", kind: .insect, name: ["en": evilName]))
        try writer.add(
            CatalogRecord.Product(
                id: "p-evil", name: ["en": evilName], category: .insecticide, registrationNumber: "<i>R-1</i>"))
        try writer.add(
            CatalogRecord.Region(
                id: "R-1", kind: .region, name: ["en": "Region <u>one</u>"], centre: Coordinates(latitude: 51, longitude: 71)))
        try writer.add(
            CatalogRecord.Representative(
                id: "rep-1", regionID: "R-1", name: ["en": "Ann <svg onload=alert(5)>"], phone: "+7 (701) 555-01-02",
                email: "ann@example.org"))
        try writer.add(
            CatalogRecord.News(
                id: "n-evil", kind: .news, date: "2026-11-20", title: ["en": "News " + evilName], bodyHTML: ["en": evilHTML],
                source: "https://example.org/news/"))
        try writer.finish()
    }

    var server: WebProcess!
    var catalog = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = WebProcess()
        catalog = server.home.appendingPathComponent("hostile.sqlite").path
        try Self.hostileCatalog(at: catalog)
        try server.start(["--catalog", catalog])
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// A page: 200, HTML, the policy, and no script but the served file.
    func page(_ target: String, headers: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let answer = try server.get(target, headers: headers)
        XCTAssertEqual(answer.status, 200, "\(target): \(answer.body.prefix(500))", file: file, line: line)
        XCTAssertEqual(answer.headers["content-type"], "text/html; charset=utf-8", file: file, line: line)
        let policy = answer.headers["content-security-policy"] ?? ""
        XCTAssertTrue(policy.contains("script-src 'self'"), policy, file: file, line: line)
        XCTAssertFalse(policy.contains("unsafe-inline"), policy, file: file, line: line)
        XCTAssertEqual(answer.headers["x-content-type-options"], "nosniff", file: file, line: line)
        // The script elements are the external files (app.js, offline.js); nothing refers to another origin.
        let scripts = answer.body.components(separatedBy: "<script").count - 1
        XCTAssertEqual(scripts, 2, target, file: file, line: line)
        XCTAssertTrue(answer.body.contains("<script src=\"/static/app.js\" defer></script>"), file: file, line: line)
        XCTAssertTrue(answer.body.contains("<script src=\"/static/offline.js\" defer></script>"), file: file, line: line)
        XCTAssertNil(
            answer.body.range(of: #"(src|href)="(https?:)?//(?!example\.org)"#, options: .regularExpression),
            target, file: file, line: line)
        // No event handler in any tag (escaped text may mention one).
        XCTAssertNil(
            answer.body.range(of: #"<[a-zA-Z][^>]*\son[a-z]+\s*="#, options: .regularExpression), target, file: file, line: line)
        return answer.body
    }

    func testCatalogStringsAreEscapedOnEveryPage() throws {
        let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"
        for target in ["/product/p-evil", "/?q=alert", "/products", "/pest/pest-evil", "/news", "/news/n-evil"] {
            let body = try page(target)
            XCTAssertTrue(body.contains(escaped), "\(target) lacks the escaped name")
            XCTAssertFalse(body.contains("<script>alert"), target)
        }
        XCTAssertTrue(try page("/product/p-evil").contains("&lt;i&gt;R-1&lt;/i&gt;"))
        let regions = try page("/regions?region=R-1")
        XCTAssertTrue(regions.contains("Ann &lt;svg onload=alert(5)&gt;"))
        XCTAssertTrue(regions.contains("href=\"tel:+77015550102\""), regions)
        XCTAssertTrue(regions.contains("href=\"mailto:ann@example.org\""))
        XCTAssertTrue(regions.contains("<circle"), "the map")
        XCTAssertTrue(try page("/").contains("Hostile &lt;b&gt;catalog&lt;/b&gt;"))
    }

    func testNewsHTMLIsSanitizedForTheBrowser() throws {
        let document = try XCTUnwrap(try server.get("/api/v1/news/n-evil").json as? [String: Any])
        let html = try XCTUnwrap((document["item"] as? [String: Any])?["bodyHTML"] as? String)
        for forbidden in [
            "<script", "alert(1)", "onclick", "onerror", "javascript:", "<iframe", "<style", "display:none", "alert(3)",
        ] {
            XCTAssertFalse(html.lowercased().contains(forbidden.lowercased()), "\(forbidden) in \(html)")
        }
        XCTAssertTrue(html.contains("<p>Spray <b>early</b>.</p>"), html)
        XCTAssertTrue(html.contains("<a href=\"https://example.org/a\" rel=\"noopener noreferrer nofollow\">good</a>"), html)
        // A relative image resolves against the item's source; the handler is gone.
        XCTAssertTrue(html.contains("<img src=\"https://example.org/news/x\" alt=\"pic\">"), html)
        XCTAssertTrue(html.contains(">bad</a>") && html.contains(">worse</a>"), "the links' text stays: \(html)")
        // A table takes the keyboard's focus (it scrolls sideways on a phone); its own attributes go.
        XCTAssertTrue(html.contains("<table tabindex=\"0\"><tr><th>Rate</th></tr></table>"), html)
        let body = try page("/news/n-evil")
        XCTAssertTrue(body.contains("<p>Spray <b>early</b>.</p>"))
        XCTAssertFalse(body.lowercased().contains("javascript:"))
    }

    func testEveryPageWorksAndTheLanguageSwitchIsRemembered() throws {
        for target in [
            "/", "/products?letter=P", "/products?category=insecticide", "/cultures", "/regions", "/weather",
            "/news", "/favorites",
        ] {
            _ = try page(target)
        }
        let russian = try server.get("/?lang=ru")
        XCTAssertEqual(russian.status, 200)
        XCTAssertTrue(russian.body.contains("<html lang=\"ru\">"))
        XCTAssertTrue(russian.body.contains(">Поиск<"), "interface strings from Localizable/ru.json")
        XCTAssertEqual(russian.headers["set-cookie"]?.hasPrefix("agro_lang=ru;"), true)
        let remembered = try server.get("/products", headers: ["Cookie": "agro_lang=ru"])
        XCTAssertTrue(remembered.body.contains(">Препараты<"))
        let kazakh = try server.get("/", headers: ["Accept-Language": "kk-KZ, ru;q=0.5"])
        XCTAssertTrue(kazakh.body.contains("<html lang=\"kk\">"))
        XCTAssertTrue(kazakh.body.contains(">Іздеу<"))

        let missing = try server.get("/product/nothing-like-this")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("class=\"error\""))
        XCTAssertEqual(try server.get("/static/app.js").headers["content-type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(try server.get("/static/..%2FLocalizable%2Fen.json").status, 404)
        XCTAssertEqual(try server.get("/static/nothing.js").status, 404)
    }

    func testStopsOnSIGTERM() throws {
        XCTAssertEqual(try server.get("/api/v1/catalog").status, 200)
        XCTAssertEqual(server.stop(), 0)
        XCTAssertTrue(
            server.stderrComesToContain("/api/v1/catalog"), "one access-log line per request: \(server.stderrText)")
    }
}
