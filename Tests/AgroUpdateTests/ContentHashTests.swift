import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import GRDB
import XCTest

@testable import AgroUpdate

/// The catalog content hash: the encoding written out by hand from its specification, and its
/// independence from page layout, page size and VACUUM.
final class ContentHashTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "agro-content-hash-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func database(_ name: String, _ sql: String) throws -> String {
        let path = root + "/" + name
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
        return path
    }

    func testEncodingAsSpecified() throws {
        let tableA = "CREATE TABLE a(k TEXT PRIMARY KEY, n INTEGER, f REAL) WITHOUT ROWID"
        let tableB = "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)"
        let tableS = "CREATE VIRTUAL TABLE s USING fts5(w)"
        let path = try database(
            "small.sqlite",
            """
            \(tableB); \(tableA); \(tableS);
            INSERT INTO a VALUES ('y', 2, NULL), ('x', -1, 0.5);
            INSERT INTO b VALUES (7, x'00ff');
            INSERT INTO s(rowid, w) VALUES (3, 'hi');
            """)
        // Written from the specification in ContentHash.swift, value by value: each section's
        // bytes, their SHA-256, then the hash of the definition's name and those digests.
        var bytes = Data()
        func u64(_ value: UInt64) { bytes += withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        func text(_ value: String) {
            bytes += Data("t".utf8)
            u64(UInt64(value.utf8.count))
            bytes += Data(value.utf8)
        }
        func integer(_ value: Int64) {
            bytes += Data("i".utf8)
            u64(UInt64(bitPattern: value))
        }
        var digests: [String: String] = [:]
        func section(_ name: String) throws {
            digests[name] = try sha256(bytes)
            bytes = Data()
        }
        bytes += Data("S".utf8)
        u64(4)
        // The schema without the five shadow tables of s (s_data, s_idx, s_content, s_docsize, s_config).
        for (name, sql) in [("a", tableA), ("b", tableB), ("s", tableS)] {
            bytes += Data("R".utf8)
            text("table"); text(name); text(name); text(sql)
        }
        try section("sqlite_schema")
        bytes += Data("T".utf8); text("a"); u64(3)
        bytes += Data("R".utf8); text("x"); integer(-1); bytes += Data("f".utf8); u64((0.5 as Double).bitPattern)
        bytes += Data("R".utf8); text("y"); integer(2); bytes += Data("n".utf8)
        try section("a")
        bytes += Data("T".utf8); text("b"); u64(2)
        bytes += Data("R".utf8); integer(7); bytes += Data("b".utf8); u64(2); bytes += Data([0x00, 0xFF])
        try section("b")
        bytes += Data("T".utf8); text("s"); u64(2)
        bytes += Data("R".utf8); integer(3); text("hi")
        try section("s")
        var whole = Data("agro-content-2\n".utf8)
        for name in ["sqlite_schema", "a", "b", "s"] {
            // The 32 bytes of each digest, from its hexadecimal form.
            let hex = Array(try XCTUnwrap(digests[name]).utf8)
            whole += Data(
                stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            )
        }
        whole += Data("E".utf8)
        XCTAssertEqual(try ContentHash.of(catalog: path), try sha256(whole))
        XCTAssertEqual(try ContentHash.sections(of: path), digests)
    }

    /// SHA-256 of bytes, through a file (the test target does not link a hash library of its own).
    private func sha256(_ bytes: Data) throws -> String {
        let file = root + "/bytes-" + UUID().uuidString.prefix(8)
        try bytes.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try FileSystem.digest(of: file).sha256
    }

    func testSectionsSelectedAndCombined() throws {
        let catalog = root + "/catalog.sqlite"
        try TestCatalogs.make(at: catalog, version: 4, products: 20)
        let all = try ContentHash.sections(of: catalog)
        XCTAssertTrue(all.keys.contains("uses") && all.keys.contains("search_index") && all.keys.contains("sqlite_schema"))
        XCTAssertEqual(ContentHash.combine(all), try ContentHash.of(catalog: catalog))
        // Only the named sections (a name the catalog lacks is left out), hashed alike.
        let some = try ContentHash.sections(of: catalog, only: ["uses", "sqlite_schema", "no_such_table"])
        XCTAssertEqual(some, ["uses": try XCTUnwrap(all["uses"]), "sqlite_schema": try XCTUnwrap(all["sqlite_schema"])])
        // Every section counts: another digest for one table, or one table fewer, is another hash.
        var changed = all
        changed["uses"] = String(repeating: "0", count: 64)
        XCTAssertNotEqual(ContentHash.combine(changed), ContentHash.combine(all))
        XCTAssertNotEqual(ContentHash.combine(all.filter { $0.key != "news" }), ContentHash.combine(all))
        XCTAssertNil(ContentHash.combine(all.filter { $0.key != "sqlite_schema" }))
        changed["uses"] = "not hex"
        XCTAssertNil(ContentHash.combine(changed))
    }

    func testIndependentOfLayoutAndSensitiveToEveryValue() throws {
        let catalog = root + "/catalog.sqlite"
        try TestCatalogs.make(at: catalog, version: 4, products: 50, padding: 300)
        let hash = try ContentHash.of(catalog: catalog)

        // Another page size, rows written in another order, then vacuumed: other bytes, same content.
        let relaid = root + "/relaid.sqlite"
        let queue = try DatabaseQueue(path: catalog)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 1024")
            try db.execute(sql: "VACUUM INTO ?", arguments: [relaid])
        }
        try queue.close()
        let relaidQueue = try DatabaseQueue(path: relaid)
        try relaidQueue.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM product_i18n ORDER BY product_id DESC")
            try db.execute(sql: "DELETE FROM product_i18n")
            for row in rows {
                try db.execute(
                    sql: "INSERT INTO product_i18n(product_id, locale, name, name_key) VALUES (?, ?, ?, ?)",
                    arguments: [row["product_id"], row["locale"], row["name"], row["name_key"]])
            }
        }
        try relaidQueue.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        XCTAssertNotEqual(try FileSystem.digest(of: catalog).sha256, try FileSystem.digest(of: relaid).sha256)
        XCTAssertEqual(try ContentHash.of(catalog: relaid), hash)

        // One value changed, in a table and then in the search index: another hash each time.
        try relaidQueue.write {
            try $0.execute(sql: "UPDATE product_i18n SET name = 'Product 3 v5' WHERE product_id = 'p3' AND locale = 'en'")
        }
        let changed = try ContentHash.of(catalog: relaid)
        XCTAssertNotEqual(changed, hash)
        try relaidQueue.write { try $0.execute(sql: "UPDATE search_index SET title = 'x' WHERE rowid = 1") }
        XCTAssertNotEqual(try ContentHash.of(catalog: relaid), changed)
        try relaidQueue.close()

        XCTAssertThrowsError(try ContentHash.of(catalog: root + "/missing.sqlite"))
    }
}
