import AgroDomain
import AgroStore
import XCTest

final class SearchTests: StoreTestCase {
    func hits(_ text: String, kinds: Set<EntityKind>? = nil, locale: String = "en") throws -> [String] {
        try catalog.search(text, kinds: kinds, page: .all, locale: locale).items.map { "\($0.kind.rawValue):\($0.id)" }
    }

    func testPrefixCaseAndScript() throws {
        XCTAssertEqual(Set(try hits("tebu")), ["product:p-tebu", "product:p-mix", "substance:tebuconazole"])
        XCTAssertEqual(Set(try hits("ТЕБУКОН")), ["product:p-tebu", "product:p-mix", "substance:tebuconazole"])
        XCTAssertTrue(try hits("озим").contains("culture:winter-wheat"))
    }

    func testDiacriticsAreFolded() throws {
        XCTAssertEqual(try hits("Kartoffelkafer"), ["pest:beetle"])
        XCTAssertEqual(try hits("желтая ржавч"), ["pest:yellow-rust"], "ё folds to е")
    }

    func testLatinNamesAndRegistrationNumbersAreSearchable() throws {
        XCTAssertEqual(try hits("Puccinia triticina"), ["pest:rust"])
        XCTAssertTrue(try hits("W-7113").contains("product:p-lambda"))
        XCTAssertTrue(try hits("7113").contains("product:p-lambda"))
    }

    func testTitlesRankAboveBodies() throws {
        // "rust" is in the names of two pests and only in the bodies of the news.
        let found = try hits("rust")
        XCTAssertEqual(Set(found.prefix(2)), ["pest:rust", "pest:yellow-rust"])
        XCTAssertTrue(found.contains("news:n1"))
    }

    func testKindFilterAndAnyWordFallback() throws {
        XCTAssertEqual(try hits("rust", kinds: [.news]), ["news:n1", "news:n2", "news:n3"].sorted())
        // No entity has both words; any word then matches.
        XCTAssertEqual(Set(try hits("glyphosate beetle", kinds: [.pest, .substance])), ["substance:glyphosate", "pest:beetle"])
    }

    func testOperatorsAndPunctuationNeverFail() throws {
        for text in [
            "\"", "*", "(", ")", "\"rust", "rust*", "NEAR(rust septoria)", "rust AND", "OR", "NOT rust",
            "rust OR 1=1 --", "'; DROP TABLE products; --", "^rust", "col:rust", "{rust}", "", "   ", "***",
        ] {
            XCTAssertNoThrow(try catalog.search(text, kinds: nil, page: .all, locale: "en"), text)
        }
        XCTAssertEqual(try hits("(rust)"), try hits("rust"))
        XCTAssertEqual(try hits(""), [])
    }
}

final class LookupTests: StoreTestCase {
    func ids(_ text: String, _ kind: EntityKind, locale: String = "en") throws -> [String] {
        try catalog.lookup(text, kind: kind, locale: locale).map(\.id)
    }

    func testIdAndNamesInAnyLanguage() throws {
        XCTAssertEqual(try ids("winter-wheat", .culture), ["winter-wheat"])
        XCTAssertEqual(try ids("Winter Wheat", .culture), ["winter-wheat"])
        XCTAssertEqual(try ids("озимая пшеница", .culture), ["winter-wheat"])
        XCTAssertEqual(try ids("пшеница озимая", .culture), ["winter-wheat"], "words in any order")
        XCTAssertEqual(try ids("Бидай", .culture), ["wheat"])
        XCTAssertEqual(try ids("avena fatua", .pest), ["wild-oat"], "Latin name")
        XCTAssertEqual(try ids("W-7113", .product), ["p-lambda"], "registration number as typed")
        XCTAssertEqual(try ids("7113", .product), ["p-lambda"], "bare registration number")
        XCTAssertEqual(try ids("acme", .company), ["acme"])
    }

    func testRepeatedLookupsAnswerInTheirOwnLanguage() throws {
        // Lookups are kept per catalog: asking again, or in another language, must not get the
        // answer kept for the first language (names from FixtureCatalog).
        for _ in 0..<2 {
            XCTAssertEqual(
                try catalog.lookup("winter-wheat", kind: .culture, locale: "en"),
                [EntityRef(id: "winter-wheat", name: "Winter wheat")])
            XCTAssertEqual(
                try catalog.lookup("winter-wheat", kind: .culture, locale: "ru"),
                [EntityRef(id: "winter-wheat", name: "Озимая пшеница")])
            XCTAssertEqual(try catalog.lookup("winter-wheat", kind: .pest, locale: "en"), [], "kinds kept apart")
        }
    }

    /// Typed text is trimmed of Unicode white space at both ends (a no-break space pasted from a
    /// label, a tab, a newline), never inside.
    func testSurroundingWhiteSpaceIsIgnored() throws {
        XCTAssertEqual(try ids("\u{00A0}\twinter-wheat \n", .culture), ["winter-wheat"])
        XCTAssertEqual(try ids("\u{3000}Winter Wheat\u{2003}", .culture), ["winter-wheat"])
        XCTAssertEqual(try ids(" \t\n\u{00A0}", .culture), [])
    }

    func testExactNameWinsOverLongerNames() throws {
        XCTAssertEqual(try ids("wheat", .culture), ["wheat"])
    }

    func testAmbiguousAndUnknownNames() throws {
        XCTAssertEqual(try ids("rust", .pest), ["rust"], "an exact id wins")
        XCTAssertEqual(Set(try ids("ржавчина", .pest)), ["rust", "yellow-rust"])
        assertThrowsCatalogError(try catalog.resolve("ржавчина", kind: .pest, locale: "en")) { error in
            guard case let .ambiguous(_, _, candidates) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(Set(candidates.map(\.id)), ["rust", "yellow-rust"])
        }
        assertThrowsCatalogError(try catalog.resolve("Wheet", kind: .culture, locale: "en")) { error in
            guard case let .unknownName(_, _, suggestions) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(suggestions.first?.id, "wheat")
        }
    }

    func assertThrowsCatalogError<T>(
        _ body: @autoclosure () throws -> T, _ check: (CatalogError) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
        } catch let error as CatalogError {
            check(error)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}

final class InjectionTests: StoreTestCase {
    static let attempts = [
        "'; DROP TABLE products; --", "\" OR 1=1 --", "x' OR '1'='1", "%", "_", "\\", "%' --", "') OR ('a'='a",
        "\u{0}", "рж'; DELETE FROM uses; --",
    ]

    func testEveryTextInputIsData() throws {
        for text in Self.attempts {
            for kind in EntityKind.allCases {
                XCTAssertEqual(try catalog.lookup(text, kind: kind, locale: "en"), [], "\(kind) \(text)")
            }
            _ = try catalog.search(text, kinds: nil, page: .all, locale: "en")
            XCTAssertEqual(try productIDs(ProductFilter(pest: text, culture: text, substance: text, company: text)), [])
            XCTAssertNil(try catalog.product(id: text, locale: text))
            XCTAssertEqual(try catalog.uses(UseFilter(product: text), locale: "en"), [])
        }
        // Nothing was dropped or deleted.
        XCTAssertEqual(try catalog.products(ProductFilter(), page: .all, locale: "en").total, FixtureCatalog.products.count)
        XCTAssertEqual(try catalog.uses(UseFilter(), locale: "en").count, FixtureCatalog.uses.count)
    }

    func testLikeWildcardsMatchLiterally() throws {
        XCTAssertEqual(try catalog.lookup("%", kind: .product, locale: "en"), [])
        XCTAssertEqual(try catalog.lookup("_", kind: .culture, locale: "en"), [])
        // These reach the LIKE: unescaped, "_" and "%" would match "wheat".
        XCTAssertEqual(try catalog.lookup("whe_t", kind: .culture, locale: "en"), [])
        XCTAssertEqual(try catalog.lookup("wh%t", kind: .culture, locale: "en"), [])
    }
}
