import AgroDomain
import AgroPresentation
import AgroStore
import XCTest

/// A products page's JSON, written here by hand from Database/content (products.json,
/// substances.json, companies.json, uses.json), checked against both writers of it: the
/// documents' `Encodable` (`Environment.json(PageDocument(page))`) and `ProductPageJSON`, the
/// one `Environment.json(products:)` chooses for the CLI and the web API.
final class ProductPageJSONTests: XCTestCase {
    let catalog = WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path

    /// Both writers, each of which must give `expected`, as must the `answers` given.
    func assertBothWrite(
        _ page: Page<ProductSummary>, _ answers: String..., expected: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        for answer in answers { XCTAssertEqual(answer, expected, "an answer", file: file, line: line) }
        XCTAssertEqual(try Environment.json(PageDocument(page)), expected, "Encodable", file: file, line: line)
        XCTAssertEqual(ProductPageJSON.json(page), expected, "ProductPageJSON", file: file, line: line)
        XCTAssertEqual(Environment.json(products: page), expected, "the writer chosen", file: file, line: line)
    }

    /// Fusarium head blight (fusarium-graminearum), in Russian: the two products registered
    /// against it, by name; the list leaves modes of action to the product's card.
    func testTheProductsAgainstFusariumInRussian() throws {
        let store = try SQLiteCatalog(path: catalog, maximumReaders: 1)
        let page = try store.products(
            ProductFilter(pest: "fusarium-graminearum"), page: PageRequest(perPage: 20), locale: "ru")
        // And the command line's answer, which goes through the writer chosen.
        let cli = try WebProcess().cli([
            "--catalog", catalog, "--lang", "ru", "--format", "json", "products", "--pest", "fusarium-graminearum",
            "--per-page", "20",
        ])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        try assertBothWrite(
            page, cli.stdout,
            expected: """
                {
                  "items" : [
                    {
                      "category" : "fungicide",
                      "company" : "Демо Агро Казахстан",
                      "formulation" : "EC",
                      "id" : "prothioconazole-tebuconazole-250-ec",
                      "ingredients" : [
                        {
                          "concentration" : 125,
                          "substance" : {
                            "id" : "prothioconazole",
                            "name" : "Протиоконазол"
                          },
                          "unit" : "g/l"
                        },
                        {
                          "concentration" : 125,
                          "substance" : {
                            "id" : "tebuconazole",
                            "name" : "Тебуконазол"
                          },
                          "unit" : "g/l"
                        }
                      ],
                      "name" : "Протиоконазол 125 г/л + тебуконазол 125 г/л КЭ",
                      "registrationExpiry" : "2031-06-30",
                      "registrationNumber" : "KZ-DEMO-0031"
                    },
                    {
                      "category" : "fungicide",
                      "company" : "Демо Агро Казахстан",
                      "formulation" : "EC",
                      "id" : "tebuconazole-250-ec",
                      "ingredients" : [
                        {
                          "concentration" : 250,
                          "substance" : {
                            "id" : "tebuconazole",
                            "name" : "Тебуконазол"
                          },
                          "unit" : "g/l"
                        }
                      ],
                      "name" : "Тебуконазол 250 г/л КЭ",
                      "registrationExpiry" : "2030-03-31",
                      "registrationNumber" : "KZ-DEMO-0024"
                    }
                  ],
                  "page" : 1,
                  "perPage" : 20,
                  "total" : 2
                }

                """)
    }

    /// Sunflower downy mildew (plasmopara-halstedii), in English: one seed treatment; and the
    /// second page of the same list, past its end.
    func testTheSeedTreatmentAgainstDownyMildewInEnglish() throws {
        let store = try SQLiteCatalog(path: catalog, maximumReaders: 1)
        let filter = ProductFilter(pest: "plasmopara-halstedii")
        try assertBothWrite(
            try store.products(filter, page: PageRequest(perPage: 5), locale: "en"),
            expected: """
                {
                  "items" : [
                    {
                      "category" : "seed_treatment",
                      "company" : "Demo Seed Care",
                      "formulation" : "ES",
                      "id" : "metalaxyl-m-350-es",
                      "ingredients" : [
                        {
                          "concentration" : 350,
                          "substance" : {
                            "id" : "metalaxyl-m",
                            "name" : "Metalaxyl-M"
                          },
                          "unit" : "g/l"
                        }
                      ],
                      "name" : "Metalaxyl-M 350 g/L ES",
                      "registrationExpiry" : "2028-12-31",
                      "registrationNumber" : "KZ-DEMO-0038"
                    }
                  ],
                  "page" : 1,
                  "perPage" : 5,
                  "total" : 1
                }

                """)
        try assertBothWrite(
            try store.products(filter, page: PageRequest(page: 2, perPage: 5), locale: "en"),
            expected: """
                {
                  "items" : [

                  ],
                  "page" : 2,
                  "perPage" : 5,
                  "total" : 1
                }

                """)
    }

    /// What no catalog here has: optional keys missing, a registration number of null, a
    /// fraction, and text to escape (quote, backslash, tab; DEL and a right-to-left override,
    /// which reorder or hide a terminal's text; the slash left alone).
    func testMissingValuesAndTextToEscape() throws {
        let item = ProductSummary(
            id: "x/1", name: "Say \"hi\" \\ tab\there\u{7F} \u{202E}gnp.exe", category: .herbicide, formulation: nil,
            company: nil, registrationNumber: nil,
            ingredients: [
                ActiveIngredient(
                    substance: EntityRef(id: "s", name: "S"), concentration: 2.5, unit: nil, modeOfAction: nil)
            ], registrationExpiry: nil)
        try assertBothWrite(
            Page(items: [item], page: 1, perPage: 1, total: 3),
            expected: """
                {
                  "items" : [
                    {
                      "category" : "herbicide",
                      "id" : "x/1",
                      "ingredients" : [
                        {
                          "concentration" : 2.5,
                          "substance" : {
                            "id" : "s",
                            "name" : "S"
                          }
                        }
                      ],
                      "name" : "Say \\"hi\\" \\\\ tab\\there\\u007F \\u202Egnp.exe",
                      "registrationNumber" : null
                    }
                  ],
                  "page" : 1,
                  "perPage" : 1,
                  "total" : 3
                }

                """)
    }

    // Beside the pages written by hand: the inputs where a hand-written writer goes wrong
    // (numbers in exponent form, negative zero, every control character, the separators and
    // bidirectional marks), against the encoder, the independent writer of the same contract.
    /// Every scalar class the two escape differently from plain text, and some they leave alone.
    static let awkward =
        (0..<0x20).map { String(Unicode.Scalar(UInt8($0))) }.joined()
        + "\"\\/\u{7F}\u{85}\u{9F}\u{A0}\u{200B}\u{200E}\u{2028}\u{202E}\u{2066}\u{FEFF}é Қ 😀"

    static func product(_ index: Int, complete: Bool) -> ProductSummary {
        ProductSummary(
            id: "p-\(index)", name: complete ? "Name \(index) " + awkward : "Plain/\(index)",
            category: ProductCategory.allCases[index % ProductCategory.allCases.count],
            formulation: complete ? "EC" : nil, company: complete ? "Firma \"AG\" \\ \u{1B}[31m" : nil,
            registrationNumber: index % 2 == 0 ? "W-\(index)" : nil,
            ingredients: ingredients(index, complete: complete), registrationExpiry: complete ? "2026-12-31" : nil)
    }

    static let concentrations: [Double?] = [
        250, 0.1, 1e-5, 2.5e-7, 1e16, 1e21, 123_456_789_012_345_680_000, -0.0, 0.30000000000000004, 12345.678, 100, nil,
    ]

    static func ingredients(_ index: Int, complete: Bool) -> [ActiveIngredient] {
        guard index % 3 != 0 else { return [] }
        return (0..<(index % 3)).map { offset in
            ActiveIngredient(
                substance: EntityRef(id: "s-\(offset)", name: complete ? "Stoff " + awkward : "Stoff"),
                concentration: concentrations[(index + offset) % concentrations.count],
                unit: complete || offset == 0 ? "g/l" : nil,
                modeOfAction: complete && offset == 1 ? ModeOfAction(scheme: "FRAC", group: "3\u{202E}") : nil)
        }
    }

    func testWritesWhatTheEncoderWrites() throws {
        var pages: [Page<ProductSummary>] = [Page(items: [], page: 3, perPage: 20, total: 41)]
        for count in [1, 2, 7, 24] {
            for complete in [false, true] {
                let items = (0..<count).map { Self.product($0, complete: complete || $0 % 4 == 1) }
                pages.append(Page(items: items, page: 1, perPage: count, total: count * 10 + 1))
            }
        }
        for page in pages {
            let expected = try Environment.json(PageDocument(page))
            let written = ProductPageJSON.json(page)
            if written != expected {
                // Where they part, readable in the log (the documents run to 20 KB).
                let common = zip(written.utf8, expected.utf8).prefix { $0 == $1 }.count
                XCTFail(
                    "differs at byte \(common): \(String(decoding: Array(written.utf8.dropFirst(common).prefix(60)), as: UTF8.self))"
                )
            }
        }
    }
}
