import AgroDomain
import AgroStore
import Foundation
import XCTest

/// A catalog opens whatever its file is called: the store hands SQLite a URI (to open the file
/// immutable), so characters a URI gives a meaning (`?`, `#`, `%`, spaces) must stay part of
/// the name.
final class CatalogPathTests: XCTestCase {
    func testNamesWithURICharactersOpen() throws {
        let source = try FixtureCatalog.write()
        defer { try? FileManager.default.removeItem(atPath: source) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agro paths #1 ?x=%20 \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [
            "plain.sqlite", "with space.sqlite", "q?immutable=0.sqlite", "hash#1.sqlite", "pct%41.sqlite", "каталог.sqlite",
        ] {
            let path = folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: source, toPath: path)
            for readers in [1, 4] {
                let catalog = try SQLiteCatalog(path: path, maximumReaders: readers)
                XCTAssertEqual(catalog.info.identity, "test.fixture", name)
                XCTAssertEqual(try catalog.product(id: "p-tebu", locale: "en")?.name, "Tebuconazole 250 EC", name)
                try catalog.close()
            }
        }
        // A file that is not there is still said to be missing, not opened empty.
        XCTAssertThrowsError(try SQLiteCatalog(path: folder.appendingPathComponent("none?.sqlite").path)) { error in
            guard case CatalogError.missing = error else { return XCTFail("\(error)") }
        }
    }
}
