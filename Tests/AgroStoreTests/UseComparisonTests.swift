import AgroDomain
import XCTest

@testable import AgroStore

/// `compareUses` and `groupsOffered` on `DecisionFixture`, each assertion run against both
/// implementations (`KeptAndRead`: by SQL, and from the uses kept in memory); expected values
/// worked out by hand from the fixture's records.
final class UseComparisonTests: XCTestCase {
    static let implementations: [(name: String, catalog: SQLiteCatalog)] = {
        do { return try KeptAndRead.both(DecisionFixture.catalog.path) } catch { fatalError("\(error)") }
    }()

    // After each test, not once for the class: XCTest on Linux drops a class tear-down's failures.
    override func tearDown() {
        KeptAndRead.checkBothRan(Self.implementations)
        super.tearDown()
    }

    /// `body` once per implementation, with its name for the failure messages.
    private func each(_ body: (_ name: String, _ catalog: SQLiteCatalog) throws -> Void) rethrows {
        for (name, catalog) in Self.implementations { try body(name, catalog) }
    }

    private func ids(_ catalog: SQLiteCatalog, _ query: UseQuery, page: PageRequest = .all, locale: String = "en") throws
        -> [String]
    {
        try catalog.compareUses(query, page: page, locale: locale).items.map(\.id)
    }

    func testUsesAgainstRustOnWinterWheatResolveCultureGroups() throws {
        try each { name, catalog in
            // rust: u1 (wheat), u2 (cereals), u3 (winter wheat), u5 (wheat); u4 is septoria only.
            // By name: Azoxy 250 SC, Old Tebu, Tebu 250 EC, Tebu Generic.
            let found = try catalog.compareUses(
                UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01"), page: .all, locale: "en"
            ).items
            XCTAssertEqual(found.map(\.id), ["u3", "u5", "u1", "u2"], name)
            XCTAssertEqual(found.map(\.name), ["Azoxy 250 SC", "Old Tebu", "Tebu 250 EC", "Tebu Generic"], name)
            let u1 = try XCTUnwrap(found.first { $0.id == "u1" })
            XCTAssertEqual(u1.productID, "p-tebu", name)
            XCTAssertEqual(u1.registrationNumber, "T-1", name)
            XCTAssertEqual(u1.registrationExpiry, "2030-12-31", name)
            XCTAssertEqual(u1.dose, Dose(from: 0.5, to: 1.0, unit: "l/ha"), name)
            XCTAssertEqual(u1.water, Dose(from: 200, to: 300, unit: "l/ha"), name)
            XCTAssertEqual(u1.phiDays, 30, name)
            XCTAssertEqual(u1.maxApplications, 2, name)
            XCTAssertEqual(u1.intervalDays, 14, name)
            XCTAssertEqual(u1.bbch, BBCHRange(from: 30, to: 59), name)
            XCTAssertEqual(u1.applicationArea, "Field", name)
            XCTAssertEqual(u1.groups, ["FRAC 3"], name)
            XCTAssertEqual(u1.ingredients.map(\.name), ["Tebuconazole"], name)
            XCTAssertEqual(u1.ingredients.map(\.concentration), [250], name)
            XCTAssertEqual(u1.cultures.map(\.name), ["Wheat"], name)
            // Brown rust before Septoria, by name.
            XCTAssertEqual(u1.pests.map(\.id), ["rust", "septoria"], name)
            XCTAssertNil(u1.member, name)
            // u2 has no water, interval or area.
            let u2 = try XCTUnwrap(found.first { $0.id == "u2" })
            XCTAssertNil(u2.water, name)
            XCTAssertNil(u2.intervalDays, name)
            XCTAssertNil(u2.applicationArea, name)
            XCTAssertEqual(u2.dose, Dose(from: 0.75, to: 1.0, unit: "l/ha"), name)
            // Only Old Tebu's registration (2024-12-31) has expired by 2026-06-01.
            XCTAssertEqual(found.filter(\.expired).map(\.id), ["u5"], name)
            XCTAssertTrue(found.allSatisfy { !$0.outsideStage }, name)
        }
    }

    func testStageMarksUsesOutsideTheirWindowWithoutDroppingThem() throws {
        try each { name, catalog in
            // BBCH 60: u1 (30-59) and u5 (30-59) lie outside; u2 (31-65) and u3 (30-61) inside.
            let found = try catalog.compareUses(
                UseQuery(pest: "rust", culture: "winter-wheat", stage: 60, asOf: "2026-06-01"), page: .all, locale: "en"
            ).items
            XCTAssertEqual(Set(found.filter(\.outsideStage).map(\.id)), ["u1", "u5"], name)
            XCTAssertEqual(found.count, 4, name)
        }
    }

    func testSortByPhiAndDose() throws {
        try each { name, catalog in
            // PHI: u1 30, u5 30, u2 35, u3 35; ties by product name.
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "rust", culture: "winter-wheat", sort: .phi, asOf: "2026-06-01")),
                ["u5", "u1", "u3", "u2"], name)
            // Highest dose: u5 0.5, then 1.0 for u3, u1, u2 by product name.
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "rust", culture: "winter-wheat", sort: .dose, asOf: "2026-06-01")),
                ["u5", "u3", "u1", "u2"], name)
        }
    }

    func testGroupAndSubstanceFilters() throws {
        let qoi = try XCTUnwrap(GroupCode(parsing: "frac 11"))
        let bare = try XCTUnwrap(GroupCode(parsing: "3"))
        try each { name, catalog in
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "rust", culture: "winter-wheat", group: qoi, asOf: "2026-06-01")), ["u3"],
                name)
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "rust", culture: "winter-wheat", group: bare, asOf: "2026-06-01")),
                ["u5", "u1", "u2"], name)
            XCTAssertEqual(
                try ids(
                    catalog,
                    UseQuery(
                        pest: "rust", culture: "winter-wheat", group: GroupCode(scheme: "IRAC", group: "3"), asOf: "2026-06-01")),
                [], name)
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "rust", culture: "winter-wheat", substance: "tebuconazole", asOf: "2026-06-01")),
                ["u5", "u1", "u2"], name)
        }
        XCTAssertNil(GroupCode(parsing: "FRAC"))
        XCTAssertNil(GroupCode(parsing: "x'; DROP TABLE uses; --"))
    }

    func testUsesArePaginated() throws {
        try each { name, catalog in
            let query = UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01")
            let second = try catalog.compareUses(query, page: PageRequest(page: 2, perPage: 3), locale: "en")
            XCTAssertEqual(second.total, 4, name)
            XCTAssertEqual(second.page, 2, name)
            XCTAssertEqual(second.items.map(\.id), ["u2"], name)
            let first = try catalog.compareUses(query, page: PageRequest(page: 1, perPage: 3), locale: "en")
            XCTAssertEqual(first.items.map(\.id), ["u3", "u5", "u1"], name)
            XCTAssertEqual(try catalog.compareUses(query, page: PageRequest(page: 5, perPage: 3), locale: "en").items, [], name)
        }
    }

    func testACultureAloneListsItsOwnUsesThenEachMembersByMember() throws {
        try each { name, catalog in
            // Cereals' own: Lambda 50 (u6), Tebu Generic (u2); then wheat's: Old Tebu (u5), Pyra 200
            // (u4), Tebu 250 EC (u1); then winter wheat's: Azoxy 250 SC (u3), Chlormequat 750 (u7).
            // Potato's u8 is not below cereals.
            let found = try catalog.compareUses(UseQuery(culture: "cereals", asOf: "2026-06-01"), page: .all, locale: "en").items
            XCTAssertEqual(found.map(\.id), ["u6", "u2", "u5", "u4", "u1", "u3", "u7"], name)
            XCTAssertEqual(
                found.map(\.member?.name), [nil, nil, "Wheat", "Wheat", "Wheat", "Winter wheat", "Winter wheat"], name)
            // Wheat against septoria: its own u4 (Pyra 200) and u1 (Tebu 250 EC), then winter wheat's u3.
            let wheat = try catalog.compareUses(
                UseQuery(pest: "septoria", culture: "wheat", asOf: "2026-06-01"), page: .all, locale: "en"
            ).items
            XCTAssertEqual(wheat.map(\.id), ["u4", "u1", "u3"], name)
            XCTAssertEqual(wheat.map(\.member?.id), [nil, nil, "winter-wheat"], name)
            // A pest alone: every use against it, by product name, no member.
            let septoria = try catalog.compareUses(UseQuery(pest: "septoria", asOf: "2026-06-01"), page: .all, locale: "en")
            XCTAssertEqual(septoria.items.map(\.id), ["u3", "u4", "u1"], name)
            XCTAssertTrue(septoria.items.allSatisfy { $0.member == nil }, name)
            XCTAssertEqual(
                try ids(catalog, UseQuery(pest: "late-blight", culture: "cereals", asOf: "2026-06-01")), [], name)
            XCTAssertEqual(try ids(catalog, UseQuery(pest: "unknown", culture: "wheat", asOf: "2026-06-01")), [], name)
        }
    }

    func testGroupsOfferedAreThoseOfEveryMatchingUseWhateverTheGroupFilter() throws {
        try each { name, catalog in
            // rust on winter wheat: u1, u2, u5 (tebuconazole, FRAC 3) and u3 (azoxystrobin, FRAC 11);
            // Lambda 50 (IRAC 3A) and Pyra 200 (u4, septoria only) have no use there.
            var query = UseQuery(pest: "rust", culture: "winter-wheat", asOf: "2026-06-01")
            XCTAssertEqual(try catalog.groupsOffered(for: query), ["FRAC 3", "FRAC 11"], name)
            query.group = try XCTUnwrap(GroupCode(parsing: "frac 11"))
            XCTAssertEqual(try catalog.groupsOffered(for: query), ["FRAC 3", "FRAC 11"], "\(name): the filter's own stay")
            // Rust on wheat: its own and cereals' tebuconazole (FRAC 3), winter wheat's azoxystrobin (FRAC 11).
            XCTAssertEqual(
                try catalog.groupsOffered(for: UseQuery(pest: "rust", culture: "wheat", asOf: "2026-06-01")),
                ["FRAC 3", "FRAC 11"], name)
            // u7's chlormequat has no group: a row, no group offered.
            XCTAssertEqual(try catalog.groupsOffered(for: UseQuery(pest: "lodging", culture: "winter-wheat", asOf: "")), [], name)
            XCTAssertEqual(
                try catalog.groupsOffered(for: UseQuery(pest: "aphid", culture: "cereals", asOf: "2026-06-01")), ["IRAC 3A"],
                name)
            XCTAssertEqual(
                try catalog.groupsOffered(for: UseQuery(culture: "cereals", asOf: "2026-06-01")),
                ["FRAC 3", "FRAC 11", "IRAC 3A"], name)
            XCTAssertEqual(
                try catalog.groupsOffered(
                    for: UseQuery(pest: "rust", culture: "winter-wheat", substance: "azoxystrobin", asOf: "2026-06-01")),
                ["FRAC 11"], name)
        }
    }
}
