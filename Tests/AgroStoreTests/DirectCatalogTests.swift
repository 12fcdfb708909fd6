import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// `DirectCatalog` (the SQLite C API, for the command line's one-shot lists) answers as
/// `SQLiteCatalog` (GRDB) does: the same products pages, search hits, looked-up names and
/// errors, on the bundled catalog in each of its languages and one it does not have.
final class DirectCatalogTests: XCTestCase {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path
    let locales = ["en", "ru", "kk", "de"]

    func open() throws -> (direct: DirectCatalog, grdb: SQLiteCatalog) {
        (try DirectCatalog(path: Self.path), try SQLiteCatalog(path: Self.path, maximumReaders: 1))
    }

    func testTheMetadataIsTheSame() throws {
        let (direct, grdb) = try open()
        XCTAssertEqual(try direct.catalogInfo(), grdb.info)
        XCTAssertNoThrow(try direct.checkPages())
    }

    func testProductsPagesAreTheSame() throws {
        let (direct, grdb) = try open()
        let pests = try grdb.pests(PestFilter(), page: .all, locale: "en").items.map(\.id)
        let cultures = try grdb.cultures(locale: "en").map(\.id)
        let substances = try grdb.substances(page: .all, locale: "en").items.map(\.id)
        let all = try grdb.products(ProductFilter(), page: .all, locale: "en").items
        XCTAssertGreaterThan(pests.count, 10)
        XCTAssertGreaterThan(cultures.count, 10)
        var filters: [ProductFilter] = [ProductFilter()]
        filters += pests.map { ProductFilter(pest: $0) } + cultures.map { ProductFilter(culture: $0) }
        filters += substances.map { ProductFilter(substance: $0) }
        filters += ProductCategory.allCases.map { ProductFilter(category: $0) }
        let companies = try all.prefix(20).compactMap { try grdb.product(id: $0.id, locale: "en")?.company?.id }
        filters += Set(companies + ["no-such-company"]).sorted().map { ProductFilter(company: $0) }
        filters += ["a", "B", "Ф", "ж", "1"].map { ProductFilter(letter: $0) }
        // Each pest on each culture some product is registered for, and on their groups.
        for pest in pests {
            let registered = try grdb.products(ProductFilter(pest: pest), page: .all, locale: "en").items.map(\.id)
            guard let product = registered.first else { continue }
            let uses = try grdb.uses(UseFilter(product: product, pest: pest), locale: "en")
            for culture in Set(uses.flatMap { $0.cultures.map(\.id) }) {
                filters.append(ProductFilter(pest: pest, culture: culture))
                filters.append(ProductFilter(pest: pest, culture: culture, category: .fungicide, letter: "a"))
                for group in try grdb.cultureAncestry(id: culture) { filters.append(ProductFilter(pest: pest, culture: group)) }
            }
        }
        var itemsCompared = 0
        for locale in locales {
            for filter in filters {
                for request in [PageRequest.all, PageRequest(perPage: 2), PageRequest(page: 2, perPage: 3)] {
                    let page = try direct.products(filter, page: request, locale: locale)
                    XCTAssertEqual(page, try grdb.products(filter, page: request, locale: locale), "\(filter) \(locale)")
                    itemsCompared += page.items.count
                }
            }
        }
        // Real pages were compared, with ingredients, not only empty ones.
        XCTAssertGreaterThan(itemsCompared, 5000)
        XCTAssertFalse(try direct.products(ProductFilter(), page: .all, locale: "ru").items.allSatisfy(\.ingredients.isEmpty))
    }

    func testSearchHitsAreTheSame() throws {
        let (direct, grdb) = try open()
        var texts = ["ржавч", "wheat", "пшеница озимая", "бидай", "a", "no-such-word", "tebuconazole 250", "\"*(", "OR"]
        // The first four letters of every product's name in every language.
        for locale in locales {
            texts += try grdb.products(ProductFilter(), page: .all, locale: locale).items.map { String($0.name.prefix(4)) }
        }
        var hitsCompared = 0
        for locale in ["en", "kk"] {
            for text in Set(texts).sorted() {
                for kinds in [nil, Set([EntityKind.product]), Set([.culture, .pest])] {
                    for request in [PageRequest.all, PageRequest(page: 2, perPage: 3)] {
                        let hits = try direct.search(text, kinds: kinds, page: request, locale: locale)
                        XCTAssertEqual(hits, try grdb.search(text, kinds: kinds, page: request, locale: locale), text)
                        hitsCompared += hits.items.count
                    }
                }
            }
        }
        XCTAssertGreaterThan(hitsCompared, 1000)
        // A text over the size limit is refused alike.
        let long = String(repeating: "a ", count: SearchQuery.maximumWords + 1)
        XCTAssertThrowsError(try direct.search(long, kinds: nil, page: .all, locale: "en")) { error in
            XCTAssertTrue(error is SearchQueryError, "\(error)")
        }
    }

    func testLookedUpNamesAreTheSame() throws {
        let (direct, grdb) = try open()
        var texts: [(String, EntityKind)] = []
        for locale in locales {
            for pest in try grdb.pests(PestFilter(), page: .all, locale: locale).items {
                texts += [(pest.id, .pest), (pest.name, .pest), (String(pest.name.prefix(3)), .pest)]
                texts += [(" " + pest.name.uppercased() + "\n", .pest), (String(pest.name.dropFirst(2)), .pest)]
            }
            for culture in try grdb.cultures(locale: locale) {
                texts += [(culture.id, .culture), (culture.name, .culture), (String(culture.name.prefix(4)), .culture)]
                // Words in another order ("пшеница озимая" for "Озимая пшеница").
                texts.append((culture.name.split(separator: " ").reversed().joined(separator: " "), .culture))
            }
        }
        texts += [("", .pest), ("  ", .culture), ("%", .product), ("_", .substance), ("\\", .company), ("50%_\\x", .news)]
        var matched = 0
        for locale in ["en", "ru", "kk"] {
            for (text, kind) in texts {
                let found = try direct.lookup(text, kind: kind, locale: locale)
                XCTAssertEqual(found, try grdb.lookup(text, kind: kind, locale: locale), "\(kind) \(text)")
                matched += found.count
            }
        }
        XCTAssertGreaterThan(matched, 500)
        // Misspelt names: the resolver's error names the closest (the same), or the candidates.
        for text in ["septorya", "Septoria trit", "пшеница", "бидай", "zzzz", "ржавчина бурая", "овсюг"] {
            XCTAssertEqual(
                Result(catching: { try direct.resolve(text, kind: .pest, locale: "ru") }).error,
                Result(catching: { try grdb.resolve(text, kind: .pest, locale: "ru") }).error, text)
            let closest = try direct.closestNames(to: text, kind: .culture, locale: "kk", limit: 5)
            XCTAssertEqual(closest, try grdb.closestNames(to: text, kind: .culture, locale: "kk", limit: 5), text)
        }
    }

    func testOpeningFailuresAreTheSame() throws {
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID()).sqlite").path
        _ = FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 8192))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let newer = try FixtureCatalog.write()
        try rewriteMetadata(newer, key: "schema_version", value: String(CatalogSchema.version + 1))
        for path in ["/nonexistent/catalog.sqlite", junk, empty, newer] {
            let direct = Result(catching: { try DirectCatalog(path: path) }).error
            XCTAssertNotNil(direct, path)
            XCTAssertEqual(direct, Result(catching: { try SQLiteCatalog(path: path, maximumReaders: 1) }).error, path)
        }
        // A file longer than its pages make (cut short, it fails sooner): the page check says so,
        // as the store's selection asks it.
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID()).sqlite").path
        try (Data(contentsOf: URL(fileURLWithPath: Self.path)) + Data(count: 100)).write(to: URL(fileURLWithPath: cut))
        XCTAssertNoThrow(try DirectCatalog(path: Self.path).checkPages())
        XCTAssertThrowsError(try DirectCatalog(path: cut).checkPages()) { error in
            guard case .corrupt(_, let reason) = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("its pages make"), reason)
        }
    }
}

extension Result where Failure == any Error {
    /// The failure as a catalog error; nil on success or another error.
    fileprivate var error: CatalogError? {
        guard case .failure(let error) = self else { return nil }
        return error as? CatalogError
    }
}
