import AgroDomain
import AgroStore
import XCTest

/// The decision layer on `DecisionFixture`; expected values worked out by hand from its records.
final class DecisionTests: XCTestCase {
    var catalog: SQLiteCatalog { DecisionFixture.catalog }

    private func rows(_ query: UseQuery, page: PageRequest = .all) throws -> [UseRow] {
        try catalog.compareUses(query, page: page, locale: "en").items
    }

    // MARK: - Compare uses

    // The comparison's rows, order, filters and pages: `UseComparisonTests`, on both implementations.

    func testUseRowJSONCarriesTheDocumentedKeys() throws {
        let row = try XCTUnwrap(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01")).first { $0.id == "u1" })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(row)) as? [String: Any])
        XCTAssertEqual(object["productId"] as? String, "p-tebu")
        XCTAssertEqual(object["registrationNumber"] as? String, "T-1")
        let dose = try XCTUnwrap(object["dose"] as? [String: Any])
        XCTAssertEqual(Set(dose.keys), ["from", "to", "unit"])
        XCTAssertEqual((dose["from"] as? NSNumber)?.doubleValue, 0.5)
        XCTAssertEqual((dose["to"] as? NSNumber)?.doubleValue, 1.0)
        XCTAssertEqual(dose["unit"] as? String, "l/ha")
        XCTAssertEqual(object["phiDays"] as? Int, 30)
        XCTAssertEqual(object["maxApplications"] as? Int, 2)
        XCTAssertEqual(object["bbch"] as? [String: Int], ["from": 30, "to": 59])
        XCTAssertEqual(object["groups"] as? [String], ["FRAC 3"])
    }

    func testInjectionAttemptsAreOnlyValues() throws {
        let hostile = "rust' OR 1=1 --"
        XCTAssertEqual(try rows(UseQuery(pest: hostile, culture: "winter-wheat", asOf: "2026-06-01")), [])
        XCTAssertEqual(try rows(UseQuery(pest: "rust", culture: "x') OR ('1'='1", asOf: "2026-06-01")), [])
        XCTAssertEqual(
            try rows(
                UseQuery(
                    pest: "rust", culture: "winter-wheat", group: GroupCode(scheme: "FRAC' OR '1'='1", group: "3"),
                    asOf: "2026-06-01")), [])
        XCTAssertEqual(try catalog.alternatives(to: "p-tebu' OR '1'='1", culture: nil, pest: nil, locale: "en"), [])
        XCTAssertEqual(try catalog.planFacts(products: [hostile], culture: "winter-wheat", locale: "en").products.count, 0)
    }

    // MARK: - Alternatives

    func testAlternativesRankAnotherModeOfActionFirstThenGenerics() throws {
        // p-tebu covers (wheat, rust) and (wheat, septoria). Products with a use against one of
        // them on wheat or cereals: p-pyra (septoria, FRAC 11), p-old and p-tebu-generic
        // (tebuconazole). p-azoxy is registered on winter wheat only, not on all wheat.
        let found = try catalog.alternatives(to: "p-tebu", culture: nil, pest: nil, locale: "en")
        XCTAssertEqual(found.map(\.id), ["p-pyra", "p-old", "p-tebu-generic"])
        XCTAssertEqual(found.map(\.relation), [.otherModeOfAction, .sameSubstance, .sameSubstance])
        XCTAssertEqual(found.map(\.sharedUses), [1, 1, 1])
        // On winter wheat against rust: p-azoxy (FRAC 11) now counts; p-pyra is septoria only.
        let onWinterWheat = try catalog.alternatives(to: "p-tebu", culture: "winter-wheat", pest: "rust", locale: "en")
        XCTAssertEqual(onWinterWheat.map(\.id), ["p-azoxy", "p-old", "p-tebu-generic"])
    }

    // MARK: - Resistance data

    func testGroupLimitsAndIncompatibilitiesAreRead() throws {
        let limits = try catalog.groupLimits()
        XCTAssertEqual(limits.count, 3)
        XCTAssertEqual(limits.first { $0.culture == "cereals" }?.maxApplications, 2)
        XCTAssertEqual(limits.first { $0.maxShare != nil }?.culture, nil)
        let found = try catalog.tankIncompatibilities(among: ["p-azoxy", "p-lambda", "p-tebu"], locale: "en")
        XCTAssertEqual(found, [TankIncompatibility(product: "p-tebu", other: "p-lambda", reason: "test: do not mix")])
        XCTAssertEqual(try catalog.tankIncompatibilities(among: ["p-tebu", "p-azoxy"], locale: "en"), [])
    }
}
