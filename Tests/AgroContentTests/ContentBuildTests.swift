import AgroContent
import AgroDomain
import AgroStore
import XCTest

/// A minimal, valid set of sources written by the test; each test breaks one thing.
struct Sources {
    var files: [String: Any] = [
        "catalog.json": [
            "identity": "test.sources", "version": 3, "released": "2026-01-01T00:00:00Z",
            "locales": ["ru", "en"], "fallbacks": ["ru": ["en"]], "title": ["en": "Test"],
        ] as [String: Any],
        "companies.json": [["id": "acme", "name": ["en": "Acme"]]],
        "hazard-statements.json": [["code": "H302", "text": ["en": "Harmful if swallowed."]]],
        "substances.json": [["id": "tebu", "name": ["en": "Tebuconazole", "ru": "Тебуконазол"]]],
        "cultures.json": [
            ["id": "cereals", "name": ["en": "Cereals"]],
            [
                "id": "wheat", "name": ["en": "Wheat"], "parents": ["cereals"],
                "stages": [["bbch": [0, 9], "name": ["en": "Germination"]]],
            ],
        ],
        "pests.json": [["id": "rust", "kind": "disease", "name": ["en": "Rust"]]],
        "products.json": [
            [
                "id": "p1", "name": ["en": "Tebuconazole 250 EC"], "category": "fungicide", "company": "acme",
                "ingredients": [["substance": "tebu", "concentration": 250, "unit": "g/l"]],
                "hazard": ["statements": ["H302"]],
            ] as [String: Any]
        ],
        "uses.json": [
            [
                "id": "u1", "product": "p1", "cultures": ["wheat"], "pests": ["rust"], "dose": [0.5, 1], "unit": "l/ha",
                "phi": 30, "maxApplications": 1, "obligations": [["en": "Keep 5 m from water."]],
            ] as [String: Any]
        ],
        "schemes.json": [
            [
                "id": "s1", "culture": "wheat", "title": ["en": "Wheat"],
                "stages": [
                    ["bbch": [30, 39], "name": ["en": "Stem"], "treatments": [["product": "p1", "dose": 1, "unit": "l/ha"]]]
                ],
            ] as [String: Any]
        ],
        "regions.json": [
            ["id": "KZ-AKM", "kind": "region", "name": ["en": "Akmola"], "centre": ["lat": 53.28, "lon": 69.38]] as [String: Any]
        ],
        "representatives.json": [["id": "r1", "region": "KZ-AKM", "name": ["en": "Demo"]] as [String: Any]],
        "distributors.json": [["id": "d1", "region": "KZ-AKM", "name": ["en": "Demo Seeds"]] as [String: Any]],
        "news.json": [["id": "n1", "kind": "news", "date": "2026-01-01", "title": ["en": "News"]] as [String: Any]],
    ]
    var bodies: [String: String] = ["n1.en.html": "<p>Body</p>"]

    /// Writes the sources to a new temporary folder.
    func write() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-sources-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("news"), withIntermediateDirectories: true)
        for (name, value) in files {
            let data = try (value as? Data) ?? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
            try data.write(to: directory.appendingPathComponent(name))
        }
        for (name, body) in bodies { try Data(body.utf8).write(to: directory.appendingPathComponent("news/\(name)")) }
        return directory
    }

    /// Changes one entry of a file.
    mutating func edit(_ file: String, _ index: Int, _ change: (inout [String: Any]) -> Void) {
        var entries = files[file] as! [[String: Any]]
        change(&entries[index])
        files[file] = entries
    }

    mutating func append(_ file: String, _ entry: [String: Any]) {
        files[file] = (files[file] as! [[String: Any]]) + [entry]
    }
}

final class ContentBuildTests: XCTestCase {
    func build(_ sources: Sources) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-built-\(UUID()).sqlite").path
        try ContentBuilder(sourceDirectory: sources.write()).build(to: out)
        return out
    }

    /// Asserts the build fails naming `file`, `entry` and a problem containing `phrase`, and
    /// leaves no catalog behind.
    func assertProblem(_ sources: Sources, file: String, entry: String?, _ phrase: String, line: UInt = #line) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-built-\(UUID()).sqlite").path
        do {
            try ContentBuilder(sourceDirectory: sources.write()).build(to: out)
            XCTFail("the build succeeded", line: line)
        } catch let error as ContentBuildError {
            XCTAssertTrue(
                error.problems.contains { $0.file == file && $0.entry == entry && $0.problem.contains(phrase) },
                "\(error.problems)", line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), line: line)
    }

    func testValidSourcesBuild() throws {
        let catalog = try SQLiteCatalog(path: build(Sources()))
        XCTAssertEqual(catalog.info.identity, "test.sources")
        XCTAssertEqual(catalog.info.version, 3)
        XCTAssertEqual(catalog.info.builtAt, "2026-01-01T00:00:00Z")
        let uses = try catalog.uses(UseFilter(product: "p1"), locale: "ru")
        XCTAssertEqual(uses.first?.obligations, ["Keep 5 m from water."])
        XCTAssertEqual(try catalog.product(id: "p1", locale: "en")?.hazard.hazardStatements.map(\.code), ["H302"])
        XCTAssertEqual(try catalog.newsItem(id: "n1", locale: "ru")?.bodyHTML, "<p>Body</p>")
    }

    func testEPPOCodesAreKeptAsEPPOWritesThem() throws {
        var sources = Sources()
        sources.edit("cultures.json", 1) { $0["eppo"] = "1TRZG" }
        sources.edit("pests.json", 0) { $0["eppo"] = "PUCCRT" }
        let catalog = try SQLiteCatalog(path: build(sources))
        XCTAssertEqual(try catalog.culture(id: "wheat", locale: "en")?.eppoCode, "1TRZG")
        XCTAssertNil(try catalog.culture(id: "cereals", locale: "en")?.eppoCode)
        XCTAssertEqual(try catalog.pest(id: "rust", locale: "ru")?.eppoCode, "PUCCRT")
        XCTAssertEqual(try catalog.resolve("puccrt", kind: .pest, locale: "en").id, "rust")

        for bad in ["1trzg", "TRZ", "TRIZAWX", "TRZ W", "12345", "ТРЗАВ"] {
            sources = Sources()
            sources.edit("cultures.json", 1) { $0["eppo"] = bad }
            assertProblem(sources, file: "cultures.json", entry: "wheat", "field \"eppo\" must be an EPPO code")
        }
    }

    func testUnknownReference() {
        var sources = Sources()
        sources.edit("uses.json", 0) { $0["pests"] = ["rust", "no-such-pest"] }
        assertProblem(sources, file: "uses.json", entry: "u1", "unknown pest \"no-such-pest\"")
        sources = Sources()
        sources.edit("cultures.json", 1) { $0["parents"] = ["grains"] }
        assertProblem(sources, file: "cultures.json", entry: "wheat", "unknown parent culture \"grains\"")
        sources = Sources()
        sources.edit("schemes.json", 0) { $0["culture"] = "rye" }
        assertProblem(sources, file: "schemes.json", entry: "s1", "unknown culture \"rye\"")
        sources = Sources()
        sources.edit("products.json", 0) { $0["hazard"] = ["statements": ["H999"]] }
        assertProblem(sources, file: "products.json", entry: "p1", "unknown statement \"H999\"")
    }

    func testMissingRequiredField() {
        var sources = Sources()
        sources.edit("products.json", 0) { $0.removeValue(forKey: "category") }
        assertProblem(sources, file: "products.json", entry: "p1", "missing required field \"category\"")
        sources = Sources()
        sources.edit("pests.json", 0) { $0.removeValue(forKey: "name") }
        assertProblem(sources, file: "pests.json", entry: "rust", "missing required field \"name\"")
        sources = Sources()
        sources.edit("uses.json", 0) { $0.removeValue(forKey: "id") }
        assertProblem(sources, file: "uses.json", entry: "#1", "missing required field \"id\"")
    }

    func testDuplicateID() {
        var sources = Sources()
        sources.append("pests.json", ["id": "rust", "kind": "disease", "name": ["en": "Rust again"]])
        assertProblem(sources, file: "pests.json", entry: "rust", "duplicate id \"rust\"")
    }

    func testDoseFromGreaterThanTo() {
        var sources = Sources()
        sources.edit("uses.json", 0) { $0["dose"] = [2, 1] }
        assertProblem(sources, file: "uses.json", entry: "u1", "from (2) is greater than to (1)")
    }

    func testUnknownLocale() {
        var sources = Sources()
        sources.edit("pests.json", 0) { $0["name"] = ["en": "Rust", "de": "Rost"] }
        assertProblem(sources, file: "pests.json", entry: "rust", "unknown locale \"de\"")
        sources = Sources()
        sources.bodies["n1.fr.html"] = "<p>Corps</p>"
        assertProblem(sources, file: "news/n1.fr.html", entry: "n1", "unknown locale \"fr\"")
    }

    func testBadValuesAndSyntax() {
        var sources = Sources()
        sources.edit("pests.json", 0) { $0["kind"] = "bacterium" }
        assertProblem(sources, file: "pests.json", entry: "rust", "expected one of insect")
        sources = Sources()
        sources.files["pests.json"] = Data("[{\"id\": \"rust\",}".utf8)
        assertProblem(sources, file: "pests.json", entry: nil, "not valid JSON")
        sources = Sources()
        sources.edit("cultures.json", 0) { $0["parents"] = ["wheat"] }
        assertProblem(sources, file: "cultures.json", entry: "cereals", "cycle")
    }

    func testAllProblemsAreReportedTogether() throws {
        var sources = Sources()
        sources.edit("uses.json", 0) {
            $0["dose"] = [2, 1]; $0["product"] = "nope"
        }
        sources.edit("pests.json", 0) { $0["name"] = ["xx": "?"] }
        do {
            _ = try build(sources)
            XCTFail("the build succeeded")
        } catch let error as ContentBuildError {
            XCTAssertGreaterThanOrEqual(error.problems.count, 3, "\(error.problems)")
        }
    }

    func testTheSameSourcesGiveTheSameBytes() throws {
        let a = try build(Sources()), b = try build(Sources())
        XCTAssertEqual(FileManager.default.contents(atPath: a), FileManager.default.contents(atPath: b))
    }
}
