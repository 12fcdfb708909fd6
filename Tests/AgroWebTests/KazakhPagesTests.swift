import Foundation
import XCTest

/// The web app in Kazakh reads Kazakh: every page a Kazakh browser asks for shows the
/// interface strings of kk.json and none of Russian's, now that Kazakh no longer falls back.
/// The catalog is the hostile one of `WebPagesTests`, English only, so every Cyrillic word on a
/// page is an interface string.
final class KazakhPagesTests: XCTestCase {
    private var server: WebProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = WebProcess()
        let catalog = server.home.appendingPathComponent("hostile.sqlite").path
        try WebPagesTests.hostileCatalog(at: catalog)
        try server.start(["--catalog", catalog])
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func table(_ locale: String) throws -> [String: String] {
        let file = WebProcess.root.appendingPathComponent("Localizable/\(locale).json")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
    }

    func testKazakhPagesShowNoRussianInterfaceString() throws {
        let russian = try table("ru"), kazakh = try table("kk")
        // Russian strings a page could show in place of the Kazakh one: those Kazakh words
        // otherwise, with no placeholder to fill (their whole text would appear).
        let russianOnly = russian.filter { key, text in
            kazakh[key] != text && !text.contains("{") && text.range(of: "[а-яё]{4,}", options: .regularExpression) != nil
        }
        XCTAssertGreaterThan(russianOnly.count, 200)
        let pages = [
            "/", "/products", "/products?letter=P", "/product/p-evil", "/pest/pest-evil", "/cultures", "/regions",
            "/regions?region=R-1", "/news", "/news/n-evil", "/favorites", "/weather", "/uses", "/uses?pest=pest-evil", "/plan",
            "/tank",
        ]
        for target in pages {
            let answer = try server.get(target, headers: ["Accept-Language": "kk-KZ, kk;q=0.9"])
            XCTAssertEqual(answer.status, 200, target)
            XCTAssertTrue(answer.body.contains("<html lang=\"kk\">"), target)
            for (key, text) in russianOnly where answer.body.contains(">\(text)<") {
                XCTFail("\(target) shows the Russian \"\(text)\" (\(key)) to a Kazakh reader")
            }
        }
        // And what the pages show is kk.json's: the header and the product card's labels.
        let home = try server.get("/?lang=kk").body
        for key in ["web.search", "web.products", "web.cultures", "web.regions", "web.news", "web.favorites"] {
            let text = try XCTUnwrap(kazakh[key])
            XCTAssertTrue(home.contains(text), "the home page lacks \(key): \(text)")
        }
    }
}
