import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// The products list, a pest on a culture above all, on both implementations (`KeptAndRead`:
/// by SQL, and from the uses kept in memory with the names kept per locale); expected values
/// worked out by hand from the fixture's records.
final class ProductsOfAPairTests: XCTestCase {
    /// Cereals > wheat > winter wheat; rust on them through uses on each level, a product with
    /// two uses on the same pair, names whose order differs between English and Russian, and a
    /// product named in English only (Russian falls back to it).
    static let implementations: [(name: String, catalog: SQLiteCatalog)] = {
        do { return try KeptAndRead.both(write()) } catch { fatalError("cannot write the fixture: \(error)") }
    }()

    // After each test, not once for the class: XCTest on Linux drops a class tear-down's failures.
    override func tearDown() {
        KeptAndRead.checkBothRan(Self.implementations)
        super.tearDown()
    }

    static func write() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-products-memory-\(UUID().uuidString).sqlite").path
        let writer = try CatalogWriter(path: path, header: FixtureCatalog.header())
        try writer.add(CatalogRecord.Substance(id: "s", name: ["en": "Substance"]))
        // The decision fixture's cultures and pests (its pests beyond rust and septoria have no use here).
        for culture in DecisionFixture.cultures { try writer.add(culture) }
        for pest in DecisionFixture.pests { try writer.add(pest) }
        for (id, names) in [
            ("p-a", ["en": "Zeta", "ru": "Альфа"]), ("p-b", ["en": "Alpha", "ru": "Яблоко"]), ("p-c", ["en": "Mid"]),
            ("p-d", ["en": "Mid"]),
        ] {
            try writer.add(
                CatalogRecord.Product(
                    id: id, name: names, category: .fungicide, registrationNumber: id.uppercased(),
                    ingredients: [.init(substanceID: "s", concentration: 1, unit: "g/l")]))
        }
        for (id, product, culture, pest) in [
            ("u1", "p-a", "wheat", "rust"), ("u2", "p-a", "cereals", "rust"), ("u3", "p-b", "winter-wheat", "rust"),
            ("u4", "p-c", "cereals", "rust"), ("u5", "p-d", "winter-wheat", "septoria"), ("u6", "p-d", "potato", "rust"),
        ] {
            try writer.add(
                CatalogRecord.Use(
                    id: id, productID: product, cultureIDs: [culture], pests: [.init(pestID: pest)],
                    dose: Dose(from: 1, to: 1, unit: "l/ha")))
        }
        try writer.finish()
        return path
    }

    /// The ids of the products matching `filter` on `page` in `locale`, and the total.
    private func listed(
        _ catalog: SQLiteCatalog, _ filter: ProductFilter, page: PageRequest = .all, locale: String = "en"
    ) throws -> (ids: [String], total: Int) {
        let found = try catalog.products(filter, page: page, locale: locale)
        return (found.items.map(\.id), found.total)
    }

    func testAPestOnACultureIsEachProductOnceInTheLocalesNameOrder() throws {
        for (name, catalog) in Self.implementations {
            // Alpha, Mid, Zeta; p-a has two uses there (wheat, cereals) and is listed once.
            let english = try listed(catalog, ProductFilter(pest: "rust", culture: "winter-wheat"))
            XCTAssertEqual(english.ids, ["p-b", "p-c", "p-a"], name)
            XCTAssertEqual(english.total, 3, name)
            // Mid (no Russian name: the English one; Latin letters sort before Cyrillic), Альфа, Яблоко.
            let russian = try catalog.products(
                ProductFilter(pest: "rust", culture: "winter-wheat"), page: PageRequest(perPage: 20), locale: "ru")
            XCTAssertEqual(russian.items.map(\.id), ["p-c", "p-a", "p-b"], name)
            XCTAssertEqual(russian.items.map(\.name), ["Mid", "Альфа", "Яблоко"], name)
            XCTAssertEqual(russian.items.first?.ingredients.map(\.substance.name), ["Substance"], name)
            XCTAssertEqual(russian.items.map(\.registrationNumber), ["P-C", "P-A", "P-B"], name)
            // Uses on a culture below the one asked do not count (u3 is on winter wheat, u5 too).
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "rust", culture: "wheat")).ids, ["p-c", "p-a"], name)
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "rust", culture: "cereals")).ids, ["p-c", "p-a"], name)
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "rust", culture: "potato")).ids, ["p-d"], name)
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "septoria", culture: "winter-wheat")).ids, ["p-d"], name)
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "septoria", culture: "wheat")).ids, [], name)
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "unknown", culture: "wheat")).total, 0, name)
        }
    }

    func testPagesOfAPairCountEveryMatch() throws {
        for (name, catalog) in Self.implementations {
            let filter = ProductFilter(pest: "rust", culture: "winter-wheat")
            let second = try listed(catalog, filter, page: PageRequest(page: 2, perPage: 1))
            XCTAssertEqual(second.ids, ["p-c"], name)
            XCTAssertEqual(second.total, 3, name)
            XCTAssertEqual(try listed(catalog, filter, page: PageRequest(page: 2, perPage: 2), locale: "ru").ids, ["p-b"], name)
            let beyond = try listed(catalog, filter, page: PageRequest(page: 9, perPage: 2))
            XCTAssertEqual(beyond.ids, [], name)
            XCTAssertEqual(beyond.total, 3, name)
        }
    }

    func testOtherFiltersListTheSameWhereTheNamesAreKept() throws {
        for (name, catalog) in Self.implementations {
            // Every product against rust: Alpha, Mid (p-c), Mid (p-d), Zeta; ties of a name by id.
            XCTAssertEqual(try listed(catalog, ProductFilter(pest: "rust")).ids, ["p-b", "p-c", "p-d", "p-a"], name)
            // Cereals: its own uses (u2, u4); a culture filter takes no member below it.
            XCTAssertEqual(try listed(catalog, ProductFilter(culture: "cereals")).ids, ["p-c", "p-a"], name)
            XCTAssertEqual(
                try catalog.products(ProductFilter(), page: .all, locale: "ru").items.map(\.name),
                ["Mid", "Mid", "Альфа", "Яблоко"], name)
        }
    }

    /// A one-shot query (the CLI's) lists by SQL and leaves the uses unread: reading every use
    /// of a national register to answer one pair took longer than the query.
    func testAOneShotQueryDoesNotReadTheIndex() throws {
        let fresh = try SQLiteCatalog(path: Self.write(), maximumReaders: 1)
        let found = try fresh.products(ProductFilter(pest: "rust", culture: "winter-wheat"), page: .all, locale: "en")
        XCTAssertEqual(found.items.map(\.id), ["p-b", "p-c", "p-a"])
        XCTAssertNil(fresh.useIndexOnce.keptValue)
        _ = try fresh.compareUses(UseQuery(pest: "rust", culture: "wheat", asOf: "2026-06-01"), page: .all, locale: "en")
        XCTAssertNil(fresh.useIndexOnce.keptValue, "nor a comparison")
        LiveCatalog.warm(fresh, readers: 1)
        XCTAssertNotNil(fresh.useIndexOnce.keptValue, "a server's warm-up keeps it")
    }

    /// A server offering six languages (the Swiss register's four and Russian and Kazakh) keeps
    /// the names of every kind in each: the uses page and the products pages of a sixth
    /// language must not read all names again on every request.
    func testTheNamesOfEveryKindAreKeptInSixLanguages() throws {
        let fresh = try SQLiteCatalog(path: Self.write(), maximumReaders: 1)
        try fresh.keepIndexes()
        let locales = ["de", "fr", "it", "en", "ru", "kk"]
        for locale in locales {
            _ = try fresh.compareUses(
                UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01"), page: .all, locale: locale)
            _ = try fresh.products(ProductFilter(pest: "rust", culture: "winter-wheat"), page: .all, locale: locale)
        }
        // Names not kept: read again (the closure runs) or not keepable (nil).
        var notKept: [String] = []
        for locale in locales {
            for kind in ["culture", "pest", "product", "substance"] {
                let key = kind + "/" + locale
                let kept = fresh.namesOnce.keptValue(key) {
                    notKept.append(key)
                    return [:]
                }
                if kept == nil { notKept.append(key) }
            }
        }
        XCTAssertEqual(notKept, [])
    }
}
