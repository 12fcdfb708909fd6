import AgroDomain
import GRDB
import XCTest

@testable import AgroStore

final class PaginationTests: StoreTestCase {
    func testPagesOfAList() throws {
        let first = try catalog.products(ProductFilter(), page: PageRequest(page: 1, perPage: 3), locale: "en")
        XCTAssertEqual(first.items.count, 3)
        XCTAssertEqual(first.total, 4)
        XCTAssertEqual(first.pageCount, 2)
        let last = try catalog.products(ProductFilter(), page: PageRequest(page: 2, perPage: 3), locale: "en")
        XCTAssertEqual(last.items.map(\.id), ["p-tebu"], "the fourth product by English name")
        XCTAssertEqual(Set(first.items.map(\.id) + last.items.map(\.id)).count, 4, "pages do not overlap")
    }

    func testPagePastTheEnd() throws {
        let past = try catalog.products(ProductFilter(), page: PageRequest(page: 9, perPage: 3), locale: "en")
        XCTAssertEqual(past.items, [])
        XCTAssertEqual(past.total, 4)
        XCTAssertEqual(past.page, 9)
    }

    func testEmptyList() throws {
        let empty = try catalog.products(
            ProductFilter(pest: "beetle", culture: "wheat"), page: PageRequest(page: 1, perPage: 5), locale: "en")
        XCTAssertEqual(empty.items, [])
        XCTAssertEqual(empty.total, 0)
        XCTAssertEqual(empty.pageCount, 1)
    }

    func testEverything() throws {
        let all = try catalog.pests(PestFilter(), page: .all, locale: "en")
        XCTAssertEqual(all.items.count, FixtureCatalog.pests.count)
        XCTAssertEqual(all.perPage, FixtureCatalog.pests.count)
        XCTAssertEqual(all.pageCount, 1)
    }

    func testHugePagesAreClampedNotOverflowed() throws {
        let request = PageRequest(page: Int.max, perPage: Int.max)
        XCTAssertEqual(request.page, PageRequest.limit)
        XCTAssertEqual(request.perPage, PageRequest.limit)
        let page = try catalog.products(ProductFilter(), page: request, locale: "en")
        XCTAssertEqual(page.items, [])
        XCTAssertEqual(page.total, FixtureCatalog.products.count)
    }

    func testSlicingInMemoryMatchesTheStore() throws {
        let list = Array(1...10)
        XCTAssertEqual(Page(slicing: list, PageRequest(page: 4, perPage: 3)).items, [10])
        XCTAssertEqual(Page(slicing: list, PageRequest(page: 5, perPage: 3)).items, [])
        XCTAssertEqual(Page(slicing: [Int](), PageRequest(page: 1, perPage: 3)).pageCount, 1)
        // The same pages as the store cuts from the same list.
        let all = try catalog.products(ProductFilter(), page: .all, locale: "en").items.map(\.id)
        for number in 1...3 {
            let request = PageRequest(page: number, perPage: 3)
            let stored = try catalog.products(ProductFilter(), page: request, locale: "en")
            let sliced = Page(slicing: all, request)
            XCTAssertEqual(stored.items.map(\.id), sliced.items, "page \(number)")
            XCTAssertEqual(stored.pageCount, sliced.pageCount)
        }
    }
}

final class CatalogFileTests: XCTestCase {
    func testSameRecordsGiveTheSameBytes() throws {
        let a = try FixtureCatalog.write(), b = try FixtureCatalog.write()
        XCTAssertEqual(FileManager.default.contents(atPath: a), FileManager.default.contents(atPath: b))
    }

    /// The search index, built apart on a connection of its own and copied in, holds row for
    /// row what indexing the tables in place writes (`rebuildSearchIndex` drops the index and
    /// builds it again on the catalog's own connection).
    func testTheSearchIndexBuiltApartIsTheOneBuiltInPlace() throws {
        let built = try FixtureCatalog.write()
        let rebuilt = built + ".rebuilt"
        try? FileManager.default.removeItem(atPath: rebuilt)
        try FileManager.default.copyItem(atPath: built, toPath: rebuilt)
        defer { try? FileManager.default.removeItem(atPath: rebuilt) }
        try CatalogStore.rebuildSearchIndex(at: rebuilt)
        func rows(_ path: String, _ table: String) throws -> [Row] {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM \(table) ORDER BY 1, 2") }
        }
        for suffix in ["data", "idx", "content", "docsize", "config"] {
            let table = "search_index_\(suffix)"
            XCTAssertEqual(try rows(built, table), try rows(rebuilt, table), table)
        }
        XCTAssertGreaterThan(try rows(built, "search_index_content").count, 10)
    }

    func testACycleInCultureParentsIsRefused() throws {
        XCTAssertThrowsError(
            try FixtureCatalog.write { writer in
                try writer.add(CatalogRecord.Culture(id: "a", name: ["en": "A"], parentIDs: ["b"]))
                try writer.add(CatalogRecord.Culture(id: "b", name: ["en": "B"], parentIDs: ["a"]))
            }
        ) { error in
            guard case .cultureCycle? = error as? CatalogWriterError else { return XCTFail("\(error)") }
        }
    }

    func testDanglingReferenceFailsTheBuild() {
        XCTAssertThrowsError(
            try FixtureCatalog.write { writer in
                try writer.add(
                    CatalogRecord.Use(
                        id: "bad", productID: "no-such-product", cultureIDs: ["wheat"], pests: [],
                        dose: Dose(from: 1, to: 1, unit: "l/ha")))
            }
        ) { error in
            // The reference check, not some other failure, refuses it.
            XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY, "\(error)")
            XCTAssertTrue("\(error)".contains("products"), "\(error)")
        }
    }

    /// A use's references to cultures, pests and obligations are checked by the writer itself
    /// (not by `PRAGMA foreign_key_check`): each missing one still refuses the catalog, naming
    /// the table and the table it refers to.
    func testDanglingReferencesOfAUseFailTheBuild() throws {
        let cases: [(use: CatalogRecord.Use, table: String, parent: String)] = [
            (use(cultureIDs: ["wheat", "no-such-culture"]), "use_cultures", "cultures"),
            (use(pests: [.init(pestID: "rust"), .init(pestID: "no-such-pest")]), "use_pests", "pests"),
            (use(obligationIDs: ["ob-1", "no-such-obligation"]), "use_obligations", "obligations"),
            (use(productID: "no-such-product"), "uses", "products"),
        ]
        for (use, table, parent) in cases {
            XCTAssertThrowsError(
                try FixtureCatalog.write { writer in
                    try writer.add(CatalogRecord.Obligation(id: "ob-1", text: ["en": "Keep off"]))
                    try writer.add(use)
                }
            ) { error in
                XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY, "\(error)")
                XCTAssertEqual(
                    (error as? DatabaseError)?.message,
                    "FOREIGN KEY constraint failed: a row of \(table) refers to a missing row of \(parent)")
            }
        }
    }

    /// Records may come in any order: a use written before the rows it refers to is accepted
    /// once they are written, and its rows are stored.
    func testAUseMayComeBeforeWhatItRefersTo() throws {
        let path = try FixtureCatalog.write { writer in
            try writer.add(
                self.use(
                    productID: "p-late", cultureIDs: ["late-culture"], pests: [.init(pestID: "late-pest")],
                    obligationIDs: ["late-obligation"]))
            try writer.add(CatalogRecord.Obligation(id: "late-obligation", text: ["en": "Later"]))
            try writer.add(CatalogRecord.Pest(id: "late-pest", kind: .insect, name: ["en": "Late pest"]))
            try writer.add(CatalogRecord.Culture(id: "late-culture", name: ["en": "Late culture"]))
            try writer.add(CatalogRecord.Product(id: "p-late", name: ["en": "Late"], category: .insecticide))
        }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT u.product_id || '/' || c.culture_id || '/' || p.pest_id || '/' || o.obligation_id
                    FROM uses u JOIN use_cultures c ON c.use_id = u.id JOIN use_pests p ON p.use_id = u.id
                    JOIN use_obligations o ON o.use_id = u.id WHERE u.id = 'use-under-test'
                    """)
        }
        XCTAssertEqual(rows, ["p-late/late-culture/late-pest/late-obligation"])
    }

    /// Ids are compared as SQLite compares them, byte for byte: "é" as one code point is not
    /// the key "e" followed by a combining accent, though Swift's strings call them equal.
    func testAReferenceMustMatchItsIdByteForByte() throws {
        XCTAssertEqual("\u{E9}", "e\u{301}", "the two spellings are equal Swift strings")
        XCTAssertThrowsError(
            try FixtureCatalog.write { writer in
                try writer.add(CatalogRecord.Culture(id: "caf\u{E9}", name: ["en": "Composed"]))
                try writer.add(self.use(cultureIDs: ["cafe\u{301}"]))
            }
        ) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "FOREIGN KEY constraint failed: a row of use_cultures refers to a missing row of cultures")
        }
    }

    /// The tables whose references the writer checks itself are skipped by the SQLite check;
    /// every foreign key of theirs in the schema must be one the writer knows of.
    func testTheWriterChecksEveryForeignKeyOfTheUseTables() throws {
        let queue = try DatabaseQueue(path: FixtureCatalog.write())
        defer { try? queue.close() }
        let schema = try queue.read { db in
            try UseReferences.checkedTables.sorted().flatMap { table in
                try Row.fetchAll(db, sql: "SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", arguments: [table])
                    .map { row -> String in "\(table).\(row[0] as String) -> \(row[1] as String)" }
            }
        }
        let checked = UseReferences.checkedForeignKeys.map { "\($0.table).\($0.column) -> \($0.parent)" }
        XCTAssertEqual(schema.sorted(), checked.sorted())
        XCTAssertFalse(schema.isEmpty)
        // Each kind of reference the writer looks up is one of those foreign keys.
        for kind in UseReferences.Kind.allCases {
            XCTAssertTrue(checked.contains { $0.hasPrefix(kind.tables.table + ".") && $0.hasSuffix("-> " + kind.tables.parent) })
        }
    }

    /// Outside the use tables, SQLite's check still refuses a dangling reference.
    func testADanglingReferenceOutsideTheUsesFailsTheBuild() {
        XCTAssertThrowsError(
            try FixtureCatalog.write { writer in
                try writer.add(
                    CatalogRecord.Product(
                        id: "p-orphan", name: ["en": "Orphan"], category: .herbicide, companyID: "no-such-company"))
            }
        ) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "FOREIGN KEY constraint failed: a row of products refers to a missing row of companies")
        }
    }

    private func use(
        productID: EntityID = "p-tebu", cultureIDs: [EntityID] = ["wheat"], pests: [CatalogRecord.Target] = [],
        obligationIDs: [EntityID] = []
    ) -> CatalogRecord.Use {
        CatalogRecord.Use(
            id: "use-under-test", productID: productID, cultureIDs: cultureIDs, pests: pests,
            dose: Dose(from: 1, to: 1, unit: "l/ha"), obligationIDs: obligationIDs)
    }

    func testMissingAndCorruptFilesSaySo() throws {
        XCTAssertThrowsError(try SQLiteCatalog(path: "/nonexistent/catalog.sqlite")) { error in
            XCTAssertEqual(error as? CatalogError, .missing(path: "/nonexistent/catalog.sqlite"))
        }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID()).sqlite").path
        _ = FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 8192))
        XCTAssertThrowsError(try SQLiteCatalog(path: junk)) { error in
            guard case .corrupt = error as? CatalogError else { return XCTFail("\(error)") }
        }
    }

    func testANewerSchemaIsRefused() throws {
        let path = try FixtureCatalog.write()
        try rewriteMetadata(path, key: "schema_version", value: String(CatalogSchema.version + 1))
        XCTAssertThrowsError(try SQLiteCatalog(path: path)) { error in
            XCTAssertEqual(
                error as? CatalogError,
                .schemaTooNew(path: path, found: CatalogSchema.version + 1, supported: CatalogSchema.version))
        }
    }
}

final class UserStoreTests: XCTestCase {
    func testFavoritesSurviveACatalogReplacement() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-user-\(UUID())")
        let store = try UserStore(path: directory.appendingPathComponent("user.sqlite").path)
        XCTAssertTrue(try store.addFavorite(kind: .product, id: "p-tebu", at: Date(timeIntervalSince1970: 1)))
        XCTAssertFalse(try store.addFavorite(kind: .product, id: "p-tebu", at: Date(timeIntervalSince1970: 5)))
        XCTAssertTrue(try store.addFavorite(kind: .pest, id: "rust", at: Date(timeIntervalSince1970: 2)))
        XCTAssertEqual(try store.favorites().map(\.id), ["rust", "p-tebu"], "newest first")

        // A new catalog version replaces the file; favorites refer to stable ids and still resolve.
        let v2 = try SQLiteCatalog(path: FixtureCatalog.write(version: 2))
        for favorite in try store.favorites() where favorite.kind == .product {
            XCTAssertNotNil(try v2.product(id: favorite.id, locale: "en"))
        }
        let reopened = try UserStore(path: directory.appendingPathComponent("user.sqlite").path)
        XCTAssertEqual(try reopened.favorites().count, 2)
        XCTAssertTrue(try reopened.removeFavorite(kind: .pest, id: "rust"))
        XCTAssertFalse(try reopened.removeFavorite(kind: .pest, id: "rust"))
    }

    /// A user database of the first schema (with the recent searches and settings nothing
    /// read) keeps its favorites and loses those two tables when opened.
    func testOpeningAFirstSchemaUserDatabaseDropsSearchesAndSettings() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("agro-user-\(UUID()).sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE favorite (kind TEXT NOT NULL, entityId TEXT NOT NULL, addedAt DATETIME NOT NULL,
                          PRIMARY KEY (kind, entityId));
                        CREATE TABLE recentSearch (text TEXT PRIMARY KEY, searchedAt DATETIME NOT NULL);
                        CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                        INSERT INTO grdb_migrations VALUES ('v1');
                        INSERT INTO favorite VALUES ('pest', 'rust', '2026-01-02 03:04:05.000');
                        INSERT INTO recentSearch VALUES ('glyphosate', '2026-01-02 03:04:05.000');
                        INSERT INTO setting VALUES ('lang', 'kk');
                        """)
            }
            try queue.close()
        }
        let store = try UserStore(path: path)
        XCTAssertEqual(try store.favorites().map(\.id), ["rust"])
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        // Searches and settings gone; the journal's tables (migration v3) and what it has synced
        // with its farm (v4) added.
        XCTAssertEqual(tables, ["favorite", "field", "grdb_migrations", "sprayRecord", "syncState", "syncedChange"])
    }

    /// Dates are written as GRDB writes them (its DateFormatter is the reference), so GRDB
    /// reads them back.
    func testDatesAreStoredAsGRDBStoresThem() throws {
        for seconds in [0, 1, 0.999_9, 59.5, -0.25, -86_400.001, 951_782_400.123, 1_795_289_851.9876, 4_102_444_799.999] {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(UserStore.storageText(date).databaseValue, date.databaseValue, "\(seconds)")
        }
    }

    /// Closing leaves the write-ahead log in place (no checkpoint, no sync); the next opening
    /// reads it, and so does a plain SQLite connection.
    func testChangesSurviveClosingWithoutACheckpoint() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("agro-user-\(UUID()).sqlite").path
        do {
            let store = try UserStore(path: path)
            try store.addFavorite(kind: .product, id: "p-tebu", at: Date(timeIntervalSince1970: 7))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "the log stays after closing")
        XCTAssertEqual(try UserStore(path: path).favorites().map(\.id), ["p-tebu"])
        let plain = try DatabaseQueue(path: path)
        XCTAssertEqual(try plain.read { try String.fetchAll($0, sql: "SELECT entityId FROM favorite") }, ["p-tebu"])
    }
}

/// Changes a catalog's metadata behind the writer's back, as a damaged or foreign file would.
func rewriteMetadata(_ path: String, key: String, value: String) throws {
    try DatabaseQueue(path: path).write { db in
        try db.execute(sql: "UPDATE catalog_metadata SET value = ? WHERE key = ?", arguments: [value, key])
    }
}
