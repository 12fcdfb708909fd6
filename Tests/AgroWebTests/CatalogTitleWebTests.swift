import Foundation
import XCTest

/// The layout's title and footer name the catalog in the page's language (they showed the
/// Russian title to Kazakh and English readers).
final class CatalogTitleWebTests: XCTestCase {
    func testFooterNamesTheCatalogInThePagesLanguage() throws {
        let server = WebProcess()
        defer { server.stop() }
        try server.start(["--catalog", WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path])
        // catalog.json, title.kk and title.en.
        let titles = [
            "kk": "Демо Агро Қазақстан — өсімдіктерді қорғау құралдарының демонстрациялық анықтамалығы",
            "en": "Demo Agro Kazakhstan — demo crop-protection reference catalog",
        ]
        for (locale, title) in titles {
            let page = try server.get("/?lang=\(locale)")
            XCTAssertEqual(page.status, 200)
            XCTAssertTrue(page.body.contains("<footer><small>\(title)</small></footer>"), "\(locale): \(page.body.suffix(400))")
            XCTAssertFalse(page.body.contains("демонстрационный справочник"), locale)
        }
    }
}
