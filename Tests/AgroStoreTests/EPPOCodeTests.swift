import AgroDomain
import AgroStore
import Foundation
import GRDB
import XCTest

/// EPPO codes in the bundled demo catalog, found by search, and a catalog of the schema before
/// them still read. Expected codes are written by hand from the EPPO Global Database.
final class EPPOCodeTests: XCTestCase {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path

    nonisolated(unsafe) static var opened: SQLiteCatalog?
    var catalog: SQLiteCatalog {
        get throws {
            if let catalog = Self.opened { return catalog }
            let catalog = try SQLiteCatalog(path: Self.bundled)
            Self.opened = catalog
            return catalog
        }
    }

    func testTheDemoCulturesCarryEPPOsCodes() throws {
        let expected = [
            "winter-wheat": "TRZAW", "spring-wheat": "TRZAS", "spring-barley": "HORVS", "wheat": "1TRZG",
            "barley": "1HORG", "oats": "AVESA", "maize": "ZEAMX", "potato": "SOLTU", "sunflower": "HELAN",
            "soybean": "GLXMA", "sugar-beet": "BEAVA", "pea": "PIBSX", "chickpea": "CIEAR", "flax": "LIUUT",
            "rapeseed": "BRSNN",
        ]
        // Groups that are no taxon (cereals, legumes, oilseeds, pasture), fallow, and the two
        // rapeseeds whose season-specific codes are not certain (docs/catalog.md).
        let none: Set = ["cereals", "legumes", "oilseeds", "pasture", "fallow", "winter-rapeseed", "spring-rapeseed"]
        let cultures = try catalog.cultures(locale: "en")
        XCTAssertEqual(cultures.count, expected.count + none.count)
        for node in cultures {
            let culture = try XCTUnwrap(try catalog.culture(id: node.id, locale: "en"))
            XCTAssertEqual(culture.eppoCode, expected[node.id], node.id)
            XCTAssertEqual(culture.eppoCode == nil, none.contains(node.id), node.id)
        }
    }

    func testTheDemoPestsCarryEPPOsCodes() throws {
        let expected = [
            "zymoseptoria-tritici": "SEPTTR", "puccinia-striiformis": "PUCCST", "puccinia-triticina": "PUCCRT",
            "blumeria-graminis": "ERYSGR", "leptinotarsa-decemlineata": "LPTNDE", "avena-fatua": "AVEFA",
            "fusarium-graminearum": "GIBBZE", "eurygaster-integriceps": "EURGIN", "fusarium-spp": "1FUSAG",
        ]
        let pests = try catalog.pests(PestFilter(), page: .all, locale: "en").items
        for (id, code) in expected {
            XCTAssertEqual(pests.first { $0.id == id }?.eppoCode, code, "list: \(id)")
            XCTAssertEqual(try catalog.pest(id: id, locale: "ru")?.eppoCode, code, "card: \(id)")
        }
        // Lodging and uneven ripening are no organisms.
        XCTAssertNil(try catalog.pest(id: "lodging", locale: "en")?.eppoCode)
        XCTAssertNil(try catalog.pest(id: "uneven-ripening", locale: "en")?.eppoCode)
        for pest in pests {
            if let code = pest.eppoCode { XCTAssertEqual(EPPOCode.normalized(code), code, pest.id) }
        }
    }

    func testSearchAndLookupFindACodeInAnyCase() throws {
        for text in ["TRZAW", "trzaw", "TrZaW"] {
            let hits = try catalog.search(text, kinds: nil, page: .all, locale: "kk").items
            XCTAssertEqual(hits.map { "\($0.kind.rawValue):\($0.id)" }, ["culture:winter-wheat"], text)
        }
        XCTAssertEqual(try catalog.search("septtr", kinds: nil, page: .all, locale: "ru").items.first?.id, "zymoseptoria-tritici")
        XCTAssertEqual(try catalog.resolve("trzas", kind: .culture, locale: "en").id, "spring-wheat")
        XCTAssertEqual(try catalog.resolve("PUCCST", kind: .pest, locale: "ru").id, "puccinia-striiformis")
    }

    func testACatalogOfSchemaTwoStillOpensWithoutCodes() throws {
        // Schema 2 as it was: no eppo_code columns, its search index built from its own tables.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("agro-schema2-\(UUID()).sqlite").path
        try FileManager.default.copyItem(atPath: Self.bundled, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "ALTER TABLE cultures DROP COLUMN eppo_code")
            try db.execute(sql: "ALTER TABLE pests DROP COLUMN eppo_code")
            try db.execute(sql: "DELETE FROM name_index WHERE key IN ('trzaw', 'septtr')")
            try db.execute(sql: "UPDATE catalog_metadata SET value = '2' WHERE key = 'schema_version'")
        }
        try CatalogStore.rebuildSearchIndex(at: path)

        let old = try SQLiteCatalog(path: path)
        XCTAssertEqual(old.info.schemaVersion, 2)
        let wheat = try XCTUnwrap(try old.culture(id: "winter-wheat", locale: "en"))
        XCTAssertEqual(wheat.name, "Winter wheat")
        XCTAssertEqual(wheat.latinName, "Triticum aestivum")
        XCTAssertNil(wheat.eppoCode)
        XCTAssertNil(try old.pest(id: "zymoseptoria-tritici", locale: "en")?.eppoCode)
        XCTAssertEqual(try old.pests(PestFilter(), page: .all, locale: "en").items.count, 92)
        XCTAssertEqual(try old.search("trzaw", kinds: nil, page: .all, locale: "en").items.count, 0)
        XCTAssertTrue(
            try old.search("winter wheat", kinds: nil, page: .all, locale: "en").items.contains { $0.id == "winter-wheat" })
    }
}
