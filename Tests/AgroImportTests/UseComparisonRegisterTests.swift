import AgroDomain
import AgroStore
import XCTest

extension RegisterChecks {
    /// `agro uses` on the imported register: for five real (pest, culture) pairs, one row per
    /// product and indication that covers them, as the independent reading of the XML finds
    /// them (culture groups resolved), with the amount, waiting period and registration number;
    /// read by SQL and from the uses kept in memory (a server's) alike.
    static func compareUses(_ r: ImportedRegister) throws {
        let kept = try SQLiteCatalog(path: r.catalog.path, maximumReaders: 1)
        try kept.keepIndexes()
        for catalog in [r.catalog, kept] { try compareUses(r, catalog) }
    }

    private static func compareUses(_ r: ImportedRegister, _ catalog: SQLiteCatalog) throws {
        let ref = r.reference
        var children: [String: [String]] = [:]
        for (culture, parents) in ref.parents { for parent in parents { children[parent, default: []].append(culture) } }
        let indications = ref.products.flatMap(\.indications).filter { !$0.pests.isEmpty && !$0.cultures.isEmpty }
        // Three pairs whose culture is a group (so a member must resolve to it), two others,
        // spread over the register.
        let grouped = indications.filter { children[$0.cultures[0]] != nil }
        let plain = indications.filter { children[$0.cultures[0]] == nil }
        let sample =
            Swift.stride(from: 0, to: grouped.count, by: max(1, grouped.count / 3)).prefix(3).map { grouped[$0] }
            + Swift.stride(from: 0, to: plain.count, by: max(1, plain.count / 2)).prefix(2).map { plain[$0] }
        var checked = 0, viaGroup = 0
        for indication in sample {
            let pest = indication.pests[0]
            let group = indication.cultures[0]
            let culture = children[group]?.sorted().first ?? group
            if culture != group { viaGroup += 1 }
            let covering = ref.ancestorsOrSelf(culture)
            var expected: [String] = []
            var waiting: [String: [Int?]] = [:]
            for product in ref.products {
                for candidate in product.indications
                where candidate.pests.contains(pest) && !covering.isDisjoint(with: candidate.cultures) {
                    let amount = Double(candidate.expenditureFrom) ?? Double(candidate.dosageFrom)
                    let key = "\(product.catalogID)|\(amount.map { "\($0)" } ?? "-")"
                    expected.append(key)
                    waiting[key, default: []].append(Int(candidate.waitingPeriod))
                }
            }
            let rows = try catalog.compareUses(
                UseQuery(pest: pest, culture: culture, asOf: "2026-02-03"), page: .all, locale: "de"
            ).items
            let actual = rows.map { "\($0.productID)|\($0.dose.from.map { "\($0)" } ?? "-")" }
            XCTAssertEqual(actual.sorted(), expected.sorted(), "pest \(pest) culture \(culture)")
            for row in rows {
                let key = "\(row.productID)|\(row.dose.from.map { "\($0)" } ?? "-")"
                let days = waiting[key] ?? []
                // The register gives the waiting period in days or weeks; nil when it has none.
                XCTAssertTrue(
                    days.contains { d in d.map { row.phiDays == $0 || row.phiDays == $0 * 7 } ?? (row.phiDays == nil) },
                    "\(key): \(String(describing: row.phiDays)) not in \(days)")
                let product = try XCTUnwrap(ref.products.first { $0.catalogID == row.productID })
                if !product.isParallelImport { XCTAssertEqual(row.registrationNumber, "W-\(product.wNbr)") }
            }
            XCTAssertFalse(rows.isEmpty)
            checked += 1
        }
        XCTAssertEqual(checked, 5)
        XCTAssertGreaterThan(viaGroup, 0, "the pairs must exercise culture groups")
    }
}

final class RegisterUseComparisonTests: XCTestCase {
    func testCompareUses2026() throws { try RegisterChecks.compareUses(ImportedRegister.load(Register2026Tests.file)) }
}
