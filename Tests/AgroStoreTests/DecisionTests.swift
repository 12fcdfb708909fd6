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

    func testUsesAgainstRustOnWinterWheatResolveCultureGroups() throws {
        // rust: u1 (wheat), u2 (cereals), u3 (winter wheat), u5 (wheat); u4 is septoria only.
        // By name: Azoxy 250 SC, Old Tebu, Tebu 250 EC, Tebu Generic.
        let found = try rows(UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01"))
        XCTAssertEqual(found.map(\.id), ["u3", "u5", "u1", "u2"])
        let u1 = try XCTUnwrap(found.first { $0.id == "u1" })
        XCTAssertEqual(u1.productID, "p-tebu")
        XCTAssertEqual(u1.registrationNumber, "T-1")
        XCTAssertEqual(u1.dose, Dose(from: 0.5, to: 1.0, unit: "l/ha"))
        XCTAssertEqual(u1.water, Dose(from: 200, to: 300, unit: "l/ha"))
        XCTAssertEqual(u1.phiDays, 30)
        XCTAssertEqual(u1.maxApplications, 2)
        XCTAssertEqual(u1.intervalDays, 14)
        XCTAssertEqual(u1.bbch, BBCHRange(from: 30, to: 59))
        XCTAssertEqual(u1.applicationArea, "Field")
        XCTAssertEqual(u1.groups, ["FRAC 3"])
        XCTAssertEqual(u1.cultures.map(\.id), ["wheat"])
        XCTAssertEqual(Set(u1.pests.map(\.id)), ["rust", "septoria"])
        // Only Old Tebu's registration (2024-12-31) has expired by 2026-06-01.
        XCTAssertEqual(found.filter(\.expired).map(\.id), ["u5"])
        XCTAssertTrue(found.allSatisfy { !$0.outsideStage })
    }

    func testStageMarksUsesOutsideTheirWindowWithoutDroppingThem() throws {
        // BBCH 60: u1 (30-59) and u5 (30-59) lie outside; u2 (31-65) and u3 (30-61) inside.
        let found = try rows(UseQuery(pest: "rust", culture: "winter-wheat", stage: 60, asOf: "2026-06-01"))
        XCTAssertEqual(Set(found.filter(\.outsideStage).map(\.id)), ["u1", "u5"])
        XCTAssertEqual(found.count, 4)
    }

    func testSortByPhiAndDose() throws {
        // PHI: u1 30, u5 30, u2 35, u3 35; ties by product name.
        XCTAssertEqual(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", sort: .phi, asOf: "2026-06-01")).map(\.id),
            ["u5", "u1", "u3", "u2"])
        // Highest dose: u5 0.5, then 1.0 for u3, u1, u2 by product name.
        XCTAssertEqual(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", sort: .dose, asOf: "2026-06-01")).map(\.id),
            ["u5", "u3", "u1", "u2"])
    }

    func testGroupAndSubstanceFilters() throws {
        let qoi = try XCTUnwrap(GroupCode(parsing: "frac 11"))
        XCTAssertEqual(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", group: qoi, asOf: "2026-06-01")).map(\.id), ["u3"])
        let bare = try XCTUnwrap(GroupCode(parsing: "3"))
        XCTAssertEqual(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", group: bare, asOf: "2026-06-01")).map(\.id),
            ["u5", "u1", "u2"])
        XCTAssertEqual(
            try rows(
                UseQuery(pest: "rust", culture: "winter-wheat", group: GroupCode(scheme: "IRAC", group: "3"), asOf: "2026-06-01")),
            [])
        XCTAssertEqual(
            try rows(UseQuery(pest: "rust", culture: "winter-wheat", substance: "tebuconazole", asOf: "2026-06-01")).map(\.id),
            ["u5", "u1", "u2"])
        XCTAssertNil(GroupCode(parsing: "FRAC"))
        XCTAssertNil(GroupCode(parsing: "x'; DROP TABLE uses; --"))
    }

    func testUsesArePaginated() throws {
        let page = try catalog.compareUses(
            UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01"), page: PageRequest(page: 2, perPage: 3),
            locale: "en")
        XCTAssertEqual(page.total, 4)
        XCTAssertEqual(page.items.map(\.id), ["u2"])
    }

    func testGroupsOfferedAreThoseOfEveryMatchingUseWhateverThePageOrTheGroupFilter() throws {
        // rust on winter wheat: u1, u2, u5 (tebuconazole, FRAC 3) and u3 (azoxystrobin, FRAC 11);
        // Lambda 50 (IRAC 3A) and Pyra 200 (u4, septoria only) have no use there.
        let all = UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01")
        let second = try catalog.compareUsesOfferingGroups(all, page: PageRequest(page: 2, perPage: 3), locale: "en")
        XCTAssertEqual(second.groups, ["FRAC 3", "FRAC 11"])
        XCTAssertEqual(second.rows.items.map(\.id), ["u2"])
        XCTAssertEqual(second.rows.total, 4)
        var qoi = all
        qoi.group = try XCTUnwrap(GroupCode(parsing: "frac 11"))
        let filtered = try catalog.compareUsesOfferingGroups(qoi, page: PageRequest(page: 1, perPage: 20), locale: "en")
        XCTAssertEqual(filtered.groups, ["FRAC 3", "FRAC 11"], "the filter's own choices stay offered")
        XCTAssertEqual(filtered.rows.items.map(\.id), ["u3"])
        XCTAssertEqual(filtered.rows.total, 1)
        // u7's chlormequat has no group: a row, no group offered.
        let ungrouped = try catalog.compareUsesOfferingGroups(
            UseQuery(pest: "lodging", culture: "winter-wheat", asOf: "2026-06-01"), page: .all, locale: "en")
        XCTAssertEqual(ungrouped.groups, [])
        XCTAssertEqual(ungrouped.rows.items.map(\.id), ["u7"])
    }

    func testUsesPageComparisonEqualsTheComparisonForEveryPairAndPage() throws {
        // A pest on a culture by name comes from the ids kept in memory, the other sorts and
        // filters from SQL; the rows of every page are made from what `UseIndex` keeps of each
        // use: each page as `compareUses` reads it by SQL alone, for every pest and culture of
        // the fixture (and neither), in three languages, with and without a stage or a filter.
        let frac3 = try XCTUnwrap(GroupCode(parsing: "FRAC 3"))
        var compared = 0
        for pest in ["rust", "septoria", "aphid", "lodging", "late-blight", "unknown", nil] {
            for culture in ["cereals", "wheat", "winter-wheat", "potato", "unknown", nil] {
                guard pest != nil || culture != nil else { continue }
                for sort in UseSort.allCases {
                    for (stage, substance, group) in [
                        (nil, nil, nil), (60, nil, nil), (nil, "tebuconazole", nil), (31, nil, frac3),
                    ]
                        as [(Int?, String?, GroupCode?)]
                    {
                        for page in [PageRequest.all, PageRequest(page: 1, perPage: 2), PageRequest(page: 2, perPage: 2)] {
                            for locale in ["en", "ru", "de"] {
                                let query = UseQuery(
                                    pest: pest, culture: culture, stage: stage, substance: substance, group: group, sort: sort,
                                    asOf: "2026-06-01")
                                let expected = try catalog.compareUses(query, page: page, locale: locale)
                                let found = try catalog.compareUsesOfferingGroups(query, page: page, locale: locale).rows
                                XCTAssertEqual(found, expected, "\(query), page \(page), \(locale)")
                                compared += expected.items.count
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 500, "rows compared")
    }

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
