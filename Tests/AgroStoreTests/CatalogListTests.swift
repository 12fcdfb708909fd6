import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// The use cases of a list printed whole (`CatalogList`: products, search, the names a filter
/// resolves), asked of the bundled catalog. Every implementation runs these same assertions
/// (a subclass each, below); the expectations are written by hand from `Database/content`.
class CatalogListTests: XCTestCase {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path

    override func setUpWithError() throws {
        if type(of: self) == CatalogListTests.self { throw XCTSkip("the implementations are the subclasses") }
    }

    /// The implementation under test, opened on the catalog at `path`.
    func open(_ path: String) throws -> any CatalogList {
        preconditionFailure("each subclass opens its implementation")
    }

    func testTheMetadataIsTheCatalogs() throws {
        let info = try open(Self.path).catalogInfo()
        // catalog.json
        XCTAssertEqual(info.identity, "kz.demo-agro")
        XCTAssertEqual(info.version, 4)
        XCTAssertEqual(info.locales.locales.sorted(), ["en", "kk", "ru"])
    }

    func testProductsOfAPestOnACultureCountTheCulturesGroups() throws {
        let catalog = try open(Self.path)
        // uses.json: the uses against zymoseptoria-tritici on winter wheat or its groups
        // (wheat, cereals, cultures.json).
        let filter = ProductFilter(pest: "zymoseptoria-tritici", culture: "winter-wheat")
        let page = try catalog.products(filter, page: .all, locale: "ru")
        XCTAssertEqual(
            Set(page.items.map(\.id)),
            [
                "azoxystrobin-cyproconazole-280-sc", "epoxiconazole-125-sc", "propiconazole-250-ec",
                "propiconazole-cyproconazole-330-ec", "prothioconazole-tebuconazole-250-ec",
                "pyraclostrobin-epoxiconazole-183-se", "tebuconazole-250-ec",
            ])
        XCTAssertEqual(page.total, 7)
        // products.json, in Russian, with its ingredients.
        let product = try XCTUnwrap(page.items.first { $0.id == "azoxystrobin-cyproconazole-280-sc" })
        XCTAssertEqual(product.name, "Азоксистробин 200 г/л + ципроконазол 80 г/л КС")
        XCTAssertEqual(product.category, .fungicide)
        XCTAssertEqual(product.registrationNumber, "KZ-DEMO-0028")
        XCTAssertEqual(product.registrationExpiry, "2030-06-30")
        XCTAssertEqual(product.ingredients.map(\.substance.id), ["azoxystrobin", "cyproconazole"])
        XCTAssertEqual(product.ingredients.map(\.concentration), [200, 80])
        // A page of 2 counts all 7 and starts where the whole list starts.
        let first = try catalog.products(filter, page: PageRequest(perPage: 2), locale: "ru")
        XCTAssertEqual(first.total, 7)
        XCTAssertEqual(first.items, Array(page.items.prefix(2)))
        let third = try catalog.products(filter, page: PageRequest(page: 4, perPage: 2), locale: "ru")
        XCTAssertEqual(third.items, Array(page.items.suffix(1)))
        // Spring wheat: the same seven (six registered on each wheat, propiconazole on wheat).
        let spring = try catalog.products(
            ProductFilter(pest: "zymoseptoria-tritici", culture: "spring-wheat"), page: .all, locale: "en")
        XCTAssertEqual(Set(spring.items.map(\.id)), Set(page.items.map(\.id)))
    }

    func testSearchFindsByAWordsBeginningInTheLanguageAsked() throws {
        let catalog = try open(Self.path)
        // pests.json: the four rusts, named "... ржавчина ..." in Russian.
        let pests = try catalog.search("ржавч", kinds: [.pest], page: .all, locale: "ru")
        XCTAssertEqual(
            Set(pests.items.map(\.id)), ["puccinia-graminis", "puccinia-hordei", "puccinia-striiformis", "puccinia-triticina"])
        XCTAssertTrue(pests.items.allSatisfy { $0.kind == .pest }, "\(pests.items)")
        // news.json: "Септориоз и ржавчина: ..." among every kind's hits.
        let all = try catalog.search("ржавч", kinds: nil, page: .all, locale: "ru")
        XCTAssertTrue(all.items.contains { $0.kind == .news && $0.id == "2025-septoria-rust-risk" })
        XCTAssertTrue(try catalog.search("zzqxj", kinds: nil, page: .all, locale: "en").items.isEmpty)
        // More words than a query may have: refused.
        let long = String(repeating: "a ", count: SearchQuery.maximumWords + 1)
        XCTAssertThrowsError(try catalog.search(long, kinds: nil, page: .all, locale: "en")) { error in
            XCTAssertTrue(error is SearchQueryError, "\(error)")
        }
    }

    func testNamesResolveInEveryLanguage() throws {
        let catalog = try open(Self.path)
        // pests.json and cultures.json.
        XCTAssertEqual(try catalog.resolve("Септориоз листьев пшеницы", kind: .pest, locale: "ru").id, "zymoseptoria-tritici")
        XCTAssertEqual(try catalog.resolve("septoria tritici blotch", kind: .pest, locale: "en").id, "zymoseptoria-tritici")
        XCTAssertEqual(try catalog.resolve("winter-wheat", kind: .culture, locale: "kk").id, "winter-wheat")
        XCTAssertEqual(try catalog.resolve("KZ-DEMO-0028", kind: .product, locale: "en").id, "azoxystrobin-cyproconazole-280-sc")
        // A misspelt name: unknown, with the closest names to choose from.
        XCTAssertThrowsError(try catalog.resolve("Septorya tritici blotch", kind: .pest, locale: "en")) { error in
            guard case let .unknownName(kind, text, suggestions)? = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertEqual(kind, .pest)
            XCTAssertEqual(text, "Septorya tritici blotch")
            XCTAssertTrue(suggestions.contains { $0.id == "zymoseptoria-tritici" }, "\(suggestions)")
        }
        // Characters LIKE would read as patterns find nothing.
        for text in ["%", "_", "\\"] { XCTAssertEqual(try catalog.lookup(text, kind: .product, locale: "en"), [], text) }
    }

    func testAFileThatIsNoCatalogIsRefused() throws {
        XCTAssertThrowsError(try open("/nonexistent/catalog.sqlite")) { error in
            guard case .missing? = error as? CatalogError else { return XCTFail("\(error)") }
        }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID()).sqlite").path
        _ = FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 8192))
        defer { try? FileManager.default.removeItem(atPath: junk) }
        XCTAssertThrowsError(try open(junk)) { error in
            guard case .corrupt? = error as? CatalogError else { return XCTFail("\(error)") }
        }
        let newer = try FixtureCatalog.write()
        try rewriteMetadata(newer, key: "schema_version", value: String(CatalogSchema.version + 1))
        XCTAssertThrowsError(try open(newer)) { error in
            guard case .schemaTooNew? = error as? CatalogError else { return XCTFail("\(error)") }
        }
    }
}

/// The store every other use case reads through (GRDB).
final class SQLiteCatalogListTests: CatalogListTests {
    override func open(_ path: String) throws -> any CatalogList { try SQLiteCatalog(path: path, maximumReaders: 1) }

    /// What a list shows opens as a card (the pager's): the product of products.json.
    func testAListedProductOpens() throws {
        let catalog = try SQLiteCatalog(path: Self.path, maximumReaders: 1)
        let card = try XCTUnwrap(catalog.product(id: "azoxystrobin-cyproconazole-280-sc", locale: "en"))
        XCTAssertEqual(card.name, "Azoxystrobin 200 g/L + cyproconazole 80 g/L SC")
    }
}

/// The command line's lists through the SQLite C API (`LocalStoreOpener.openList`).
final class DirectCatalogListTests: CatalogListTests {
    override func open(_ path: String) throws -> any CatalogList { try DirectCatalog(path: path) }

    /// A file longer than its pages make: the page check the store's selection asks says so.
    func testTheSelectionsPageCheckFindsAFileCutWrong() throws {
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID()).sqlite").path
        try (Data(contentsOf: URL(fileURLWithPath: Self.path)) + Data(count: 100)).write(to: URL(fileURLWithPath: cut))
        defer { try? FileManager.default.removeItem(atPath: cut) }
        XCTAssertNoThrow(try DirectCatalog(path: Self.path).checkPages())
        XCTAssertThrowsError(try DirectCatalog(path: cut).checkPages()) { error in
            guard case .corrupt(_, let reason) = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("its pages make"), reason)
        }
    }
}
