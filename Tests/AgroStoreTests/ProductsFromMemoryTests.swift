import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// The products of a pest on a culture listed from the uses kept in memory (`UseIndex`, the
/// name order per locale) against the same list read by SQL.
final class ProductsFromMemoryTests: XCTestCase {
    /// Cereals > wheat > winter wheat; rust on them through uses on each level, a product with
    /// two uses on the same pair, names whose order differs between English and Russian, and a
    /// product named in English only (Russian falls back to it).
    static let catalog: SQLiteCatalog = {
        do {
            let catalog = try SQLiteCatalog(path: write())
            try catalog.keepIndexes()
            return catalog
        } catch { fatalError("cannot write the fixture: \(error)") }
    }()

    static func write() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-products-memory-\(UUID().uuidString).sqlite").path
        let writer = try CatalogWriter(path: path, header: FixtureCatalog.header())
        try writer.add(CatalogRecord.Substance(id: "s", name: ["en": "Substance"]))
        for culture: CatalogRecord.Culture in [
            .init(id: "cereals", name: ["en": "Cereals"]),
            .init(id: "wheat", name: ["en": "Wheat"], parentIDs: ["cereals"]),
            .init(id: "winter-wheat", name: ["en": "Winter wheat"], parentIDs: ["wheat"]),
            .init(id: "potato", name: ["en": "Potato"]),
        ] { try writer.add(culture) }
        for pest: CatalogRecord.Pest in [
            .init(id: "rust", kind: .disease, name: ["en": "Brown rust"]),
            .init(id: "septoria", kind: .disease, name: ["en": "Septoria"]),
        ] { try writer.add(pest) }
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

    var catalog: SQLiteCatalog { Self.catalog }

    func testAPestOnACultureIsEachProductOnceInTheLocalesNameOrder() throws {
        let english = try catalog.products(
            ProductFilter(pest: "rust", culture: "winter-wheat"), page: PageRequest(perPage: 20), locale: "en")
        // Alpha, Mid, Zeta; p-a has two uses there (wheat, cereals) and is listed once.
        XCTAssertEqual(english.items.map(\.id), ["p-b", "p-c", "p-a"])
        XCTAssertEqual(english.total, 3)
        // Mid (no Russian name: the English one; Latin letters sort before Cyrillic), Альфа, Яблоко.
        let russian = try catalog.products(
            ProductFilter(pest: "rust", culture: "winter-wheat"), page: PageRequest(perPage: 20), locale: "ru")
        XCTAssertEqual(russian.items.map(\.id), ["p-c", "p-a", "p-b"])
        // Uses on a group below the culture do not count (u3 is on winter wheat).
        let wheat = try catalog.products(ProductFilter(pest: "rust", culture: "wheat"), page: .all, locale: "en")
        XCTAssertEqual(wheat.items.map(\.id), ["p-c", "p-a"])
    }

    /// A one-shot query (the CLI's) lists by SQL and leaves the uses unread: reading every use
    /// of a national register to answer one pair took longer than the query.
    func testAOneShotQueryDoesNotReadTheIndex() throws {
        let fresh = try SQLiteCatalog(path: Self.write(), maximumReaders: 1)
        let found = try fresh.products(ProductFilter(pest: "rust", culture: "winter-wheat"), page: .all, locale: "en")
        XCTAssertEqual(found.items.map(\.id), ["p-b", "p-c", "p-a"])
        XCTAssertNil(fresh.useIndexOnce.keptValue)
        LiveCatalog.warm(fresh, readers: 1)
        XCTAssertNotNil(fresh.useIndexOnce.keptValue, "a server's warm-up keeps it")
    }

    /// Where the uses are kept, a page takes its products' and substances' names from the names
    /// kept per locale (and its order from the list): the same page as a catalog that keeps
    /// nothing reads with its subqueries, fallback to English and sorting included.
    func testAPageWithTheNamesKeptIsThePageReadBySQL() throws {
        let fresh = try SQLiteCatalog(path: Self.write(), maximumReaders: 1)
        for filter in [
            ProductFilter(pest: "rust", culture: "winter-wheat"), ProductFilter(pest: "rust"), ProductFilter(),
            ProductFilter(culture: "cereals"),
        ] {
            for locale in ["en", "ru", "kk"] {
                for page in [PageRequest.all, PageRequest(page: 1, perPage: 2), PageRequest(page: 2, perPage: 1)] {
                    let expected = try fresh.products(filter, page: page, locale: locale)
                    XCTAssertFalse(expected.items.isEmpty)
                    let found = try catalog.products(filter, page: page, locale: locale)
                    XCTAssertEqual(found, expected, "\(filter) in \(locale), page \(page)")
                }
            }
        }
        XCTAssertNil(fresh.useIndexOnce.keptValue)
        XCTAssertEqual(
            try catalog.products(ProductFilter(), page: .all, locale: "ru").items.map(\.name), ["Mid", "Mid", "Альфа", "Яблоко"])
        XCTAssertEqual(
            try catalog.products(ProductFilter(), page: .all, locale: "ru").items.first?.ingredients.map(\.substance.name),
            ["Substance"])
    }

    /// A server offering six languages (the Swiss register's four and Russian and Kazakh) keeps
    /// the names of every kind in each: the uses page and the products pages of a sixth
    /// language must not read all names again on every request.
    func testTheNamesOfEveryKindAreKeptInSixLanguages() throws {
        let fresh = try SQLiteCatalog(path: Self.write(), maximumReaders: 1)
        try fresh.keepIndexes()
        let locales = ["de", "fr", "it", "en", "ru", "kk"]
        for locale in locales {
            _ = try fresh.compareUsesOfferingGroups(
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

    func testEveryPairPageAndLocaleIsTheListSQLReads() throws {
        for pest in ["rust", "septoria", "unknown"] {
            for culture in ["cereals", "wheat", "winter-wheat", "potato", "unknown"] {
                for locale in ["en", "ru", "kk"] {
                    for page in [
                        PageRequest.all, PageRequest(page: 1, perPage: 1), PageRequest(page: 2, perPage: 2),
                        PageRequest(page: 9, perPage: 2),
                    ] {
                        let filter = ProductFilter(pest: pest, culture: culture)
                        let expected = try catalog.products(filter, page: page, locale: locale, fromMemory: false)
                        let found = try catalog.products(filter, page: page, locale: locale, fromMemory: true)
                        XCTAssertEqual(found, expected, "\(pest) on \(culture) in \(locale), page \(page)")
                    }
                }
            }
        }
    }
}
