import AgroContent
import AgroDomain
import AgroStore
import XCTest

/// Checks the demo content in Database/content against the requirements for the bundled
/// catalog, reading the JSON sources directly (not through the program).
final class BundledCatalogTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let content = root.appendingPathComponent("Database/content")

    func entries(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.content.appendingPathComponent(file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    func testTheCommittedCatalogIsBuiltFromTheCommittedSources() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-bundled-\(UUID()).sqlite").path
        try ContentBuilder(sourceDirectory: Self.content).build(to: out)
        let committed = FileManager.default.contents(atPath: Self.root.appendingPathComponent("Database/catalog.sqlite").path)
        XCTAssertEqual(FileManager.default.contents(atPath: out), committed,
                       "Database/catalog.sqlite is stale: run agro catalog build Database/content --out Database/catalog.sqlite")
    }

    func testTheSchemaFileMatchesTheProgram() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Database/schema.sql"), encoding: .utf8)
        XCTAssertEqual(file, CatalogSchema.script, "Database/schema.sql is stale: run agro catalog schema > Database/schema.sql")
    }

    func testVolumes() throws {
        let cultures = try entries("cultures.json")
        XCTAssertGreaterThanOrEqual(cultures.filter { !(($0["stages"] as? [Any]) ?? []).isEmpty }.count, 12)
        XCTAssertGreaterThanOrEqual(try entries("pests.json").count, 60)
        XCTAssertGreaterThanOrEqual(try entries("products.json").count, 40)
        XCTAssertGreaterThanOrEqual(try entries("uses.json").count, 200)
        XCTAssertGreaterThanOrEqual(Set(try entries("schemes.json").compactMap { $0["culture"] as? String }).count, 6)
        XCTAssertGreaterThanOrEqual(try entries("news.json").count, 12)
        let regions = try entries("regions.json")
        XCTAssertEqual(regions.filter { $0["kind"] as? String == "region" }.count, 17)
        XCTAssertEqual(regions.filter { $0["kind"] as? String == "city" }.count, 3)
        for region in regions {
            let centre = try XCTUnwrap(region["centre"] as? [String: Any])
            let lat = try XCTUnwrap(centre["lat"] as? Double), lon = try XCTUnwrap(centre["lon"] as? Double)
            XCTAssertTrue((40.5...55.5).contains(lat) && (46.5...87.5).contains(lon), "\(region["id"] ?? "") lies in Kazakhstan")
        }
    }

    func testContactsArePlainlyFictional() throws {
        for file in ["representatives.json", "distributors.json"] {
            for entry in try entries(file) {
                if let email = entry["email"] as? String { XCTAssertTrue(email.hasSuffix("@example.com"), email) }
            }
        }
        let readme = try String(contentsOf: Self.content.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("demo"))
        XCTAssertTrue(readme.contains("no substitute for the label"))
    }

    /// ru and en complete, kk partial: every name has ru and en; some, not all, have kk.
    func testLanguageCoverage() throws {
        var names = 0, kazakh = 0
        for file in ["cultures.json", "pests.json", "products.json", "substances.json", "regions.json", "news.json"] {
            for entry in try entries(file) {
                let text = try XCTUnwrap((entry["name"] ?? entry["title"]) as? [String: String], "\(file) \(entry["id"] ?? "")")
                XCTAssertNotNil(text["ru"], "\(file) \(entry["id"] ?? "") has ru")
                XCTAssertNotNil(text["en"], "\(file) \(entry["id"] ?? "") has en")
                names += 1
                if text["kk"] != nil { kazakh += 1 }
            }
        }
        XCTAssertGreaterThan(kazakh, 0)
        XCTAssertLessThan(kazakh, names)
    }
}
