import Foundation
import XCTest

/// What makes the web app work offline and installable, as served: the service worker at the
/// root (versioned, never cached by HTTP), the files it precaches, the offline page in each
/// language, the manifest; and the accessibility hooks of every page (skip link, the hidden
/// saved-copy banner the worker reveals, the announced search results).
final class WebOfflineTests: XCTestCase {
    var server: WebProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = WebProcess()
        try server.start(["--catalog", WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path])
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// An interface string read from Localizable/, not through the program.
    func string(_ locale: String, _ key: String) throws -> String {
        let url = WebProcess.root.appendingPathComponent("Localizable/\(locale).json")
        let table = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String])
        return try XCTUnwrap(table[key], "\(locale).json has \(key)")
    }

    func testServiceWorkerIsServedFromTheRootWithItsShell() throws {
        let worker = try server.get("/sw.js")
        XCTAssertEqual(worker.status, 200)
        XCTAssertEqual(worker.headers["content-type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(worker.headers["cache-control"], "no-cache", "the browser checks for a new worker on every visit")
        XCTAssertTrue(worker.headers["content-security-policy"]?.contains("worker-src 'self'") ?? false)
        let version = try XCTUnwrap(
            worker.body.range(of: #"var VERSION = "[0-9a-f]+";"#, options: .regularExpression),
            "the version is filled in: \(worker.body.prefix(600))")
        XCTAssertEqual(
            try server.get("/sw.js").body[version.lowerBound...].prefix(40),
            worker.body[version.lowerBound...].prefix(40), "the same files give the same version")

        // Every file of the shell it precaches is served: one missing would fail its install.
        let list = try XCTUnwrap(worker.body.range(of: #"var SHELL_FILES = \[[^\]]*\]"#, options: .regularExpression))
        let files = worker.body[list].matches(of: #/"(/[^"]+)"/#).map { String($0.1) }
        XCTAssertTrue(files.contains("/static/app.css") && files.contains("/static/offline.js"), "\(files)")
        for file in files {
            XCTAssertEqual(try server.get(file).status, 200, file)
        }
        for locale in ["en", "ru", "kk"] {
            XCTAssertTrue(worker.body.contains("\"\(locale)\""), "the offline page in \(locale) is precached")
        }
    }

    func testOfflinePageInEachLanguage() throws {
        for locale in ["en", "ru", "kk"] {
            let page = try server.get("/offline/\(locale)")
            XCTAssertEqual(page.status, 200)
            XCTAssertTrue(page.body.contains("<html lang=\"\(locale)\">"), locale)
            XCTAssertTrue(page.body.contains("<h1>\(try string(locale, "web.offlineTitle"))</h1>"), locale)
            XCTAssertTrue(page.body.contains(try string(locale, "web.offlineText")), locale)
            XCTAssertNil(page.headers["set-cookie"], "precaching the offline pages leaves the language choice alone")
        }
        XCTAssertTrue(try server.get("/offline/xx").body.contains("<html lang=\"en\">"), "an unknown language gives English")
        XCTAssertTrue(try server.get("/offline/en?lang=ru").body.contains("<html lang=\"ru\">"), "the switch works there too")
    }

    func testManifestDeclaresTheAppAndItsIcons() throws {
        let answer = try server.get("/static/manifest.webmanifest")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["content-type"], "application/manifest+json")
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        XCTAssertEqual(manifest["start_url"] as? String, "/")
        XCTAssertEqual(manifest["display"] as? String, "standalone")
        XCTAssertEqual(manifest["short_name"] as? String, "agro")
        XCTAssertEqual(manifest["theme_color"] as? String, "#1d5e2a")
        let icons = try XCTUnwrap(manifest["icons"] as? [[String: String]])
        XCTAssertEqual(Set(icons.compactMap { $0["type"] }), ["image/svg+xml", "image/png"])
        for icon in icons {
            let file = try server.get(try XCTUnwrap(icon["src"]))
            XCTAssertEqual(file.status, 200, "\(icon)")
            XCTAssertEqual(file.headers["content-type"], icon["type"])
        }
        let page = try server.get("/")
        XCTAssertTrue(page.body.contains("<link rel=\"manifest\" href=\"/static/manifest.webmanifest\">"))
        XCTAssertTrue(page.body.contains("<meta name=\"theme-color\" content=\"#1d5e2a\">"))
    }

    func testPagesCarryTheSkipLinkTheBannerAndTheAnnouncedResults() throws {
        let page = try server.get("/?lang=kk&q=septoria")
        XCTAssertTrue(page.body.contains("<a class=\"skip\" href=\"#content\">\(try string("kk", "web.skip"))</a>"))
        XCTAssertTrue(page.body.contains("<main id=\"content\" tabindex=\"-1\">"))
        // Hidden until the worker serves the page from its saved copy (sw.js rewrites this tag).
        XCTAssertTrue(
            page.body.contains(
                "<p class=\"saved\" id=\"saved\" role=\"status\" hidden>\(try string("kk", "web.savedCopy")) <time id=\"saved-at\"></time></p>"
            ))
        let worker = try server.get("/sw.js").body
        XCTAssertTrue(worker.contains("'<p class=\"saved\" id=\"saved\" role=\"status\" hidden>'"), "the worker finds the banner")
        XCTAssertTrue(worker.contains("'<time id=\"saved-at\"></time>'"))
        XCTAssertTrue(page.body.contains("id=\"results-status\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\""))
        XCTAssertTrue(page.body.contains("data-found=\"\(try string("kk", "web.resultsCount"))\""))
    }
}
