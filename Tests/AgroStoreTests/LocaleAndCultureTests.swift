import AgroDomain
import AgroStore
import XCTest

final class LocaleFallbackTests: StoreTestCase {
    func testChainOrder() {
        let chain = FixtureCatalog.locales
        XCTAssertEqual(chain.chain(for: "kk"), ["kk", "ru", "en"])
        XCTAssertEqual(chain.chain(for: "en"), ["en", "ru", "kk"])
        XCTAssertEqual(chain.chain(for: "kk_KZ.UTF-8"), ["kk", "ru", "en"])
        XCTAssertEqual(chain.chain(for: "de"), ["ru", "en", "kk"], "an unknown language reads as the default one")
    }

    func testNamesFallBackFieldByField() throws {
        // kk has its own name for glyphosate, none for tebuconazole.
        XCTAssertEqual(try catalog.product(id: "p-glyph", locale: "kk")?.name, "Глифосат 360 СЕ")
        XCTAssertEqual(try catalog.product(id: "p-tebu", locale: "kk")?.name, "Тебуконазол 250 КЭ")
        // The rust's kk name exists; its description exists only in en: each field falls back alone.
        let rust = try XCTUnwrap(catalog.pest(id: "rust", locale: "kk"))
        XCTAssertEqual(rust.name, "Қоңыр тат")
        XCTAssertEqual(rust.description, "A fungal disease of leaves.")
        // A statement with only an English text shows in Russian too.
        let card = try XCTUnwrap(catalog.product(id: "p-tebu", locale: "ru"))
        XCTAssertEqual(card.hazard.precautionaryStatements.first?.text, "Wear protective gloves.")
        XCTAssertEqual(card.hazard.signalWord, "Осторожно")
    }

    func testNoNameIsEmptyInAnyLocale() throws {
        for locale in ["ru", "en", "kk", "de", "zz"] {
            for product in try catalog.products(ProductFilter(), page: .all, locale: locale).items {
                XCTAssertFalse(product.name.isEmpty, "\(product.id) in \(locale)")
                // A real name from some language, not the id the store falls back to.
                XCTAssertNotEqual(product.name, product.id, "\(product.id) in \(locale)")
            }
            for pest in try catalog.pests(PestFilter(), page: .all, locale: locale).items {
                XCTAssertFalse(pest.name.isEmpty, "\(pest.id) in \(locale)")
                XCTAssertNotEqual(pest.name, pest.id, "\(pest.id) in \(locale)")
            }
        }
    }
}

final class CultureResolutionTests: StoreTestCase {
    func testAncestryIncludesEveryGroup() throws {
        XCTAssertEqual(try catalog.cultureAncestry(id: "winter-wheat"), ["winter-wheat", "wheat", "cereals"])
        XCTAssertEqual(Set(try catalog.cultureAncestry(id: "soybean")), ["soybean", "legumes", "oilseeds"])
    }

    func testUsesOnAGroupCoverEveryMember() throws {
        // u1 is on cereals, u2 on wheat: both reach winter wheat.
        XCTAssertEqual(try productIDs(ProductFilter(culture: "winter-wheat")), ["p-tebu", "p-glyph"])
        XCTAssertEqual(try productIDs(ProductFilter(culture: "wheat")), ["p-tebu", "p-glyph"])
        // Barley gets the cereals use and its own.
        XCTAssertEqual(try productIDs(ProductFilter(culture: "barley")), ["p-tebu", "p-mix"])
        // A group does not inherit its members' uses.
        XCTAssertEqual(try productIDs(ProductFilter(culture: "cereals")), ["p-tebu"])
    }

    func testPestAndCultureMustMeetInOneUse() throws {
        XCTAssertEqual(try productIDs(ProductFilter(pest: "rust", culture: "winter-wheat")), ["p-tebu"])
        XCTAssertEqual(try productIDs(ProductFilter(pest: "rust", culture: "barley")), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(pest: "wild-oat", culture: "barley")), [])
        let uses = try catalog.uses(UseFilter(pest: "rust", culture: "winter-wheat"), locale: "en")
        XCTAssertEqual(uses.map(\.id), ["u1"])
    }
}
