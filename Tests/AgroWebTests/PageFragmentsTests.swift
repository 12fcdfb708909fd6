import AgroStore
import AgroTestSupport
import Foundation
import Mustache
import XCTest

@testable import AgroWeb

/// `PageFragments` on real catalogs (the pages through a server: WebWeatherAndUpdateTests'
/// `testPickersFollowACatalogInstalledByDbUpdate`): kept per catalog, a swap starts over and a
/// request still reading the old catalog keeps nothing; bounded by bytes, the oldest going
/// first; choices render as the list they replace, the selected one in its place.
final class PageFragmentsTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("agro-fragments-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A catalog of identity `test.NAME` ("Test catalog test.NAME" in English), with a culture
    /// and a pest named with `version`.
    func catalog(_ name: String, version: Int) throws -> SQLiteCatalog {
        let path = folder.appendingPathComponent("\(name).sqlite").path
        try TestCatalogs.make(at: path, identity: "test.\(name)", version: version, products: 3, pickers: true)
        return try SQLiteCatalog(path: path, maximumReaders: 1)
    }

    func testEntriesBelongToTheCatalogTheyWereReadFrom() throws {
        let live = LiveCatalog(try catalog("a", version: 1))
        let fragments = PageFragments(limit: 1 << 20)
        var reads = 0
        func title() throws -> String {
            try fragments.value(.catalogTitle(locale: "en"), in: live) { catalog in
                reads += 1
                return try catalog.catalogInfo(locale: "en").title
            }
        }
        XCTAssertEqual(try title(), "Test catalog test.a")
        XCTAssertEqual(try title(), "Test catalog test.a")
        XCTAssertEqual(reads, 1, "read once")
        let old = live.catalog
        live.swap(to: try catalog("b", version: 2))
        XCTAssertEqual(try title(), "Test catalog test.b")
        XCTAssertEqual(reads, 2, "read again from the new catalog")
        // A request that began on the old catalog gets what it read, and it is not kept.
        let stale = fragments.value(.catalogTitle(locale: "en"), source: old, current: live.catalog) {
            "from the old catalog"
        }
        XCTAssertEqual(stale, "from the old catalog")
        XCTAssertEqual(try title(), "Test catalog test.b")
        XCTAssertEqual(reads, 2)
        // The picker names come from the catalog in use.
        let template = try MustacheTemplate(string: "{{#cultures}}[{{name}}]{{/cultures}}")
        let cultures = try fragments.choices(.cultures(locale: "ru"), in: live, selected: nil, strings: [:]) { catalog in
            try catalog.cultures(locale: "ru").map { ($0.id, $0.name) }
        }
        XCTAssertEqual(template.render(["cultures": cultures]), "[Пшеница v2]")
    }

    func testTheCacheStaysWithinItsBytesTheOldestGoingFirst() throws {
        let live = LiveCatalog(try catalog("a", version: 1))
        let entry = 1000 + "".cost + PageFragments.entryOverhead
        let fragments = PageFragments(limit: 10 * entry)
        func fill(_ index: Int) throws -> Bool {
            var made = false
            _ = try fragments.value(.pests(locale: "en", culture: "c\(index)"), in: live) { _ in
                made = true
                return String(repeating: "x", count: 1000)
            }
            return made
        }
        for index in 0..<50 { XCTAssertTrue(try fill(index)) }
        XCTAssertEqual(fragments.size.entries, 10)
        XCTAssertLessThanOrEqual(fragments.size.bytes, 10 * entry)
        XCTAssertFalse(try fill(49), "the newest is kept")
        XCTAssertFalse(try fill(40), "the tenth newest is kept")
        XCTAssertTrue(try fill(39), "the eleventh newest is gone")
        // Larger than the whole cache: made, never kept.
        let huge = try fragments.value(.catalogTitle(locale: "en"), in: live) { _ in
            String(repeating: "y", count: 11 * entry)
        }
        XCTAssertEqual(huge.count, 11 * entry)
        XCTAssertLessThanOrEqual(fragments.size.bytes, 10 * entry)
        XCTAssertEqual(
            PageFragments(limit: 0).value(
                .catalogTitle(locale: "en"), source: live.catalog, current: live.catalog
            ) { "z" }, "z")
    }

    func testChoicesRenderAsTheListTheyReplace() throws {
        let live = LiveCatalog(try catalog("a", version: 1))
        let fragments = PageFragments(limit: 1 << 20)
        let template = try MustacheTemplate(
            string:
                "<select>{{#cultures}}<option value=\"{{id}}\"{{#selected}} selected{{/selected}}>{{name}}</option>{{/cultures}}</select>"
        )
        let items: [(id: String, name: String)] = [("a", "Apple <red> & \"green\""), ("b", "Beet"), ("c", "Corn")]
        var reads = 0
        func render(_ selected: String?) throws -> String {
            let lambda = try fragments.choices(.cultures(locale: "en"), in: live, selected: selected, strings: [:]) { _ in
                reads += 1
                return items
            }
            return template.render(["cultures": lambda])
        }
        let apple = "<option value=\"a\">Apple &lt;red&gt; &amp; &quot;green&quot;</option>"
        XCTAssertEqual(
            try render("b"),
            "<select>\(apple)<option value=\"b\" selected>Beet</option><option value=\"c\">Corn</option></select>")
        XCTAssertEqual(
            try render(nil), "<select>\(apple)<option value=\"b\">Beet</option><option value=\"c\">Corn</option></select>")
        XCTAssertEqual(
            try render("a"),
            "<select><option value=\"a\" selected>Apple &lt;red&gt; &amp; &quot;green&quot;</option><option value=\"b\">Beet</option>"
                + "<option value=\"c\">Corn</option></select>")
        XCTAssertEqual(try render("nope"), try render(nil))
        XCTAssertEqual(reads, 1, "the choices are read once")
        // Another template over the same choices (a datalist) gets its own rendering.
        let datalist = try MustacheTemplate(string: "{{#cultures}}<option value=\"{{id}}\">{{t.x}}{{/cultures}}")
        let lambda = try fragments.choices(.cultures(locale: "en"), in: live, selected: "b", strings: ["x": "X"]) { _ in items
        }
        XCTAssertEqual(
            datalist.render(["cultures": lambda]), "<option value=\"a\">X<option value=\"b\">X<option value=\"c\">X")
    }
}
