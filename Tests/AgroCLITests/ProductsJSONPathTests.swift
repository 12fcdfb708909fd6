import AgroDomain
import AgroPresentation
import AgroStore
import Foundation
import XCTest

/// `agro products --format json` writes its page with `ProductPageJSON` instead of
/// `JSONEncoder` (issue 20): the program's answers must be the bytes the encoder's path
/// (`Environment.json(PageDocument(page))`) gives for the same page, read here from the catalog
/// in process, in every catalog language and for each filter.
final class ProductsJSONPathTests: XCTestCase {
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
}
