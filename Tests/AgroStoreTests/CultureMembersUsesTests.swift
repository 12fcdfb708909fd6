import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// A question on a culture that has members (wheat: winter and spring wheat; cereals: wheat,
/// barley, oats) lists what is registered on its members too, after its own uses, grouped by
/// member, each row naming its member; on the bundled catalog. The expectations are read from
/// `Database/content/uses.json` by hand: against septoria tritici, u-0100 (propiconazole, its
/// registration ended 2025-06-30) is on wheat itself; six products have one use on winter wheat
/// (u-0095, u-0102, u-0106, u-0109, u-0118, u-0121) and one on spring wheat (u-0096, u-0103,
/// u-0107, u-0110, u-0119, u-0122). Each assertion runs against both implementations
/// (`KeptAndRead`).
final class CultureMembersUsesTests: XCTestCase {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path
    static let implementations = try! KeptAndRead.both(path)

    // After each test, not once for the class: XCTest on Linux drops a class tear-down's failures.
    override func tearDown() {
        KeptAndRead.checkBothRan(Self.implementations)
        super.tearDown()
    }

    /// The six products on each of winter and spring wheat, by English name.
    static let sixOnEachWheat = [
        "Azoxystrobin 200 g/L + cyproconazole 80 g/L SC", "Epoxiconazole 125 g/L SC",
        "Propiconazole 250 g/L + cyproconazole 80 g/L EC", "Prothioconazole 125 g/L + tebuconazole 125 g/L EC",
        "Pyraclostrobin 133 g/L + epoxiconazole 50 g/L SE", "Tebuconazole 250 g/L EC",
    ]

    func testWheatAgainstSeptoriaListsItsOwnUseThenEachMembersByMember() throws {
        for (name, catalog) in Self.implementations {
            let query = UseQuery(pest: "zymoseptoria-tritici", culture: "wheat", asOf: "2026-11-29")
            let rows = try catalog.compareUses(query, page: .all, locale: "en").items
            XCTAssertEqual(rows.count, 13, "\(name): one on wheat, six on each member")
            XCTAssertEqual(rows.first?.name, "Propiconazole 250 g/L EC", name)
            XCTAssertNil(rows.first?.member, "\(name): registered on wheat itself")
            XCTAssertEqual(rows.first?.expired, true, name)
            // "Spring wheat" before "Winter wheat" in English.
            XCTAssertEqual(rows[1...6].map(\.member?.name), Array(repeating: "Spring wheat", count: 6), name)
            XCTAssertEqual(rows[1...6].map(\.name), Self.sixOnEachWheat, name)
            XCTAssertEqual(rows[7...12].map(\.member?.name), Array(repeating: "Winter wheat", count: 6), name)
            XCTAssertEqual(rows[7...12].map(\.name), Self.sixOnEachWheat, name)
            XCTAssertEqual(Set(rows[7...12].map(\.id)), ["u-0095", "u-0102", "u-0106", "u-0109", "u-0118", "u-0121"], name)
            XCTAssertTrue(rows.dropFirst().allSatisfy { !$0.expired }, "\(name): every member's product is current")

            // In Russian "Пшеница озимая" comes before "Пшеница яровая": the groups follow the names.
            let ru = try catalog.compareUses(query, page: .all, locale: "ru").items
            XCTAssertEqual(ru.compactMap(\.member?.name).first, "Пшеница озимая", name)
            XCTAssertEqual(ru.compactMap(\.member?.name).last, "Пшеница яровая", name)
            // In Kazakh "Жаздық бидай" (spring) comes before "Күздік бидай" (winter).
            let kk = try catalog.compareUses(query, page: .all, locale: "kk").items
            XCTAssertEqual(kk[1].member?.name, "Жаздық бидай", name)
            XCTAssertEqual(kk[12].member?.name, "Күздік бидай", name)
            // Э comes after Т in the Kazakh alphabet: epoxiconazole closes each member's rows.
            XCTAssertEqual(kk[11].name, "Тебуконазол 250 г/л КЭ", name)
            XCTAssertEqual(kk[12].name, "Эпоксиконазол 125 г/л КС", name)
        }
    }

    func testAMemberAskedItselfKeepsItsGroupsUsesAndNamesNoMember() throws {
        for (name, catalog) in Self.implementations {
            // Winter wheat: its six, and propiconazole registered on wheat above it.
            let rows = try catalog.compareUses(
                UseQuery(pest: "zymoseptoria-tritici", culture: "winter-wheat", asOf: "2026-11-29"), page: .all, locale: "en"
            ).items
            XCTAssertEqual(rows.map(\.name).sorted(), (Self.sixOnEachWheat + ["Propiconazole 250 g/L EC"]).sorted(), name)
            XCTAssertTrue(rows.allSatisfy { $0.member == nil }, name)
        }
    }
}
