import AgroContent
import AgroDomain
import AgroStore
import XCTest

/// Group limits and tank incompatibilities: their validation, and the bundled content's groups.
final class DecisionContentTests: XCTestCase {
    private func built(_ sources: Sources) throws -> SQLiteCatalog {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-decisions-\(UUID()).sqlite").path
        try ContentBuilder(sourceDirectory: sources.write()).build(to: out)
        return try SQLiteCatalog(path: out)
    }

    /// The problems a failing build reports, as "file|entry|problem".
    private func problems(_ sources: Sources) throws -> [String] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-decisions-\(UUID()).sqlite").path
        do {
            try ContentBuilder(sourceDirectory: sources.write()).build(to: out)
        } catch let error as ContentBuildError {
            return error.problems.map { "\($0.file)|\($0.entry ?? "")|\($0.problem)" }
        }
        XCTFail("the build succeeded")
        return []
    }

    private func entries(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: BundledCatalogTests.content.appendingPathComponent(file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    func testGroupLimitsAndIncompatibilitiesBuild() throws {
        var sources = Sources()
        sources.files["group-limits.json"] = [
            [
                "id": "frac-3-cereals", "scheme": "FRAC", "group": "3", "culture": "cereals", "maxApplications": 2,
                "source": "test",
            ] as [String: Any]
        ]
        sources.append("products.json", ["id": "p2", "name": ["en": "Other"], "category": "fungicide"])
        sources.files["tank-incompatibilities.json"] = [
            ["id": "p1-p2", "products": ["p1", "p2"], "reason": ["en": "no"]] as [String: Any]
        ]
        let catalog = try built(sources)
        XCTAssertEqual(
            try catalog.groupLimits(),
            [GroupLimit(scheme: "FRAC", group: "3", culture: "cereals", maxApplications: 2, source: "test")])
        XCTAssertEqual(
            try catalog.tankIncompatibilities(among: ["p2", "p1"], locale: "en"),
            [TankIncompatibility(product: "p1", other: "p2", reason: "no")])
    }

    func testBadGroupLimitsAreReported() throws {
        var sources = Sources()
        sources.files["group-limits.json"] = [
            ["id": "a", "scheme": "XRAC", "group": "3", "maxApplications": 2, "source": "s"] as [String: Any],
            ["id": "b", "scheme": "FRAC", "group": "3", "culture": "rice", "maxApplications": 2, "source": "s"] as [String: Any],
            ["id": "c", "scheme": "FRAC", "group": "3", "source": "s"] as [String: Any],
            ["id": "d", "scheme": "FRAC", "group": "3", "maxShare": 1.5, "source": "s"] as [String: Any],
        ]
        let found = try problems(sources)
        for (entry, phrase) in [
            ("a", "FRAC, IRAC or HRAC"), ("b", "unknown culture \"rice\""), ("c", "needs"), ("d", "maxShare"),
        ] {
            XCTAssertTrue(
                found.contains { $0.hasPrefix("group-limits.json|\(entry)|") && $0.contains(phrase) }, "\(entry): \(found)")
        }
        var mix = Sources()
        mix.files["tank-incompatibilities.json"] = [
            ["id": "m", "products": ["p1", "nope"], "reason": ["en": "x"]] as [String: Any]
        ]
        XCTAssertTrue(
            try problems(mix).contains {
                $0.hasPrefix("tank-incompatibilities.json|m|") && $0.contains("unknown product \"nope\"")
            })
    }

    /// Every substance of a fungicide, insecticide, acaricide or herbicide product in the bundled
    /// content has a FRAC, IRAC or HRAC group; only growth regulators, safeners and adjuvants may
    /// lack one.
    func testBundledSubstancesHaveTheirGroups() throws {
        let substances = try entries("substances.json")
        let products = try entries("products.json")
        let expected: [String: String] = [
            "fungicide": "FRAC", "seed_treatment": "", "insecticide": "IRAC", "acaricide": "IRAC", "herbicide": "HRAC",
        ]
        let groups = Dictionary(
            uniqueKeysWithValues: substances.map { ($0["id"] as! String, ($0["moa"] as? [String: String])?["scheme"]) })
        var unclassified = Set<String>()
        for product in products {
            let category = product["category"] as! String
            for ingredient in product["ingredients"] as? [[String: Any]] ?? [] {
                let id = ingredient["substance"] as! String
                guard let scheme = groups[id] ?? nil else { unclassified.insert(id); continue }
                if let wanted = expected[category], !wanted.isEmpty { XCTAssertEqual(scheme, wanted, "\(id) in a \(category)") }
            }
        }
        XCTAssertEqual(
            unclassified,
            ["chlormequat-chloride", "cloquintocet-mexyl", "mefenpyr-diethyl", "rapeseed-oil-methyl-esters", "trinexapac-ethyl"])
        let limits = try entries("group-limits.json")
        XCTAssertFalse(limits.isEmpty)
        for limit in limits { XCTAssertTrue((limit["source"] as? String)?.contains("FRAC") == true, "\(limit)") }
    }
}
