import AgroDomain
import AgroPresentation
import AgroStore
import Foundation
import XCTest

/// `agro products` and `agro search --format json` write their pages with `ProductPageJSON` and
/// `SearchPageJSON` instead of `JSONEncoder`, which costs a tenth of their start-up: the
/// program's answers must be the bytes
/// the encoder's path (`Environment.json(PageDocument(page))`) gives for the same page, read
/// here from the catalog in process, in every catalog language and for each filter.
final class ListJSONPathTests: XCTestCase {
    let cli = CLIRunner()
    let catalogPath = CLIRunner.root.appendingPathComponent("Database/catalog.sqlite").path

    func testTheProgramWritesTheEncodersBytes() throws {
        let catalog = try SQLiteCatalog(path: catalogPath, maximumReaders: 1)
        // (command-line options, the filter they name, the page they ask for)
        let cases: [([String], ProductFilter, PageRequest)] = [
            (["--per-page", "20"], ProductFilter(), PageRequest(perPage: 20)),
            (["--all"], ProductFilter(), .all),
            (["--page", "2", "--per-page", "3"], ProductFilter(), PageRequest(page: 2, perPage: 3)),
            (
                ["--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--per-page", "20"],
                ProductFilter(pest: "zymoseptoria-tritici", culture: "winter-wheat"), PageRequest(perPage: 20)
            ),
            (["--category", "herbicide", "--all"], ProductFilter(category: .herbicide), .all),
            (["--substance", "azoxystrobin", "--all"], ProductFilter(substance: "azoxystrobin"), .all),
            // Past the last page: no items.
            (["--page", "99", "--per-page", "20"], ProductFilter(), PageRequest(page: 99, perPage: 20)),
        ]
        var itemsCompared = 0
        for locale in ["en", "ru", "kk"] {
            for (options, filter, request) in cases {
                let result = try cli.run(
                    ["--catalog", catalogPath, "--lang", locale, "--format", "json", "products"] + options)
                XCTAssertEqual(result.status, 0, result.stderr)
                let page = try catalog.products(filter, page: request, locale: locale)
                itemsCompared += page.items.count
                let expected = try Environment.json(PageDocument(page))
                XCTAssertEqual(result.stdout, expected, "\(locale) \(options)")
            }
        }
        // The comparison covered real pages, not only empty ones.
        XCTAssertGreaterThan(itemsCompared, 100)
    }

    func testTheSearchWritesTheEncodersBytes() throws {
        let catalog = try SQLiteCatalog(path: catalogPath, maximumReaders: 1)
        let cases: [([String], String, Set<EntityKind>?, PageRequest)] = [
            (["ржавч", "--per-page", "20"], "ржавч", nil, PageRequest(perPage: 20)),
            (["wheat", "--all"], "wheat", nil, .all),
            (["пшеница", "--kind", "culture", "--all"], "пшеница", [.culture], .all),
            (["a", "--page", "2", "--per-page", "7"], "a", nil, PageRequest(page: 2, perPage: 7)),
            (["tebuconazole", "--kind", "product", "--all"], "tebuconazole", [.product], .all),
            (["no-such-word-anywhere", "--all"], "no-such-word-anywhere", nil, .all),
        ]
        var hitsCompared = 0
        for locale in ["en", "ru", "kk"] {
            for (options, text, kinds, request) in cases {
                let result = try cli.run(["--catalog", catalogPath, "--lang", locale, "--format", "json", "search"] + options)
                XCTAssertEqual(result.status, 0, result.stderr)
                let page = try catalog.search(text, kinds: kinds, page: request, locale: locale)
                hitsCompared += page.items.count
                XCTAssertEqual(result.stdout, try Environment.json(PageDocument(page)), "\(locale) \(options)")
            }
        }
        XCTAssertGreaterThan(hitsCompared, 20)
    }

    /// Hits no catalog has: no detail, texts to escape, ranks of every form a Double prints in.
    func testSearchPagesMadeToHitEveryBranch() throws {
        let ranks: [Double] = [-3.25, 0, -0.0, 1e-7, -2.5e-7, 12345.678, 1e16, 1e21, 0.30000000000000004, -17]
        let hits = ranks.enumerated().map { index, rank in
            SearchHit(
                kind: EntityKind.allCases[index % EntityKind.allCases.count], id: "id-\(index)/x",
                name: index.isMultiple(of: 2) ? "Name \"\(index)\" \\ tab\t\u{7F}\u{85}\u{202E}/ъ" : "plain",
                detail: index.isMultiple(of: 3) ? nil : "detail\n\u{1}\(index)", rank: rank)
        }
        for page in [
            Page(items: hits, page: 1, perPage: 20, total: hits.count),
            Page(items: [SearchHit](), page: 3, perPage: 5, total: 11),
        ] {
            XCTAssertEqual(SearchPageJSON.json(page), try Environment.json(PageDocument(page)))
        }
    }
}
