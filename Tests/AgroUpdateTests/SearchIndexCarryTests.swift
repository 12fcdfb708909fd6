import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroUpdate
@testable import AgroUpdateClient

/// A delta update carries the installed catalog's search index and rewrites only the rows whose
/// texts changed: the result must answer every search as a catalog built from scratch does.
final class SearchIndexCarryTests: XCTestCase {
    private var fixture: Fixture!

    override func setUp() async throws {
        fixture = try Fixture()
    }

    override func tearDown() {
        fixture = nil
    }

    /// test.agro at `version`, built from scratch: 12 products and 30 pests in English and
    /// Russian; `pestNames` replaces the English name of the pests it lists, `extraPest` adds one,
    /// `eppoCodes` gives pests an EPPO code.
    private func build(
        version: Int, pestNames: [String: String] = [:], extraPest: String? = nil, eppoCodes: [String: String] = [:],
        at path: String
    ) throws {
        let writer = try CatalogWriter(
            path: path,
            header: CatalogHeader(
                identity: "test.agro", version: version, builtAt: "2026-11-25T00:00:00Z",
                locales: LocaleChain(locales: ["en", "ru"]), title: ["en": "Test catalog"]))
        var pests = (10..<40).map { "pest-\($0)" }
        if let extraPest { pests.append(extraPest) }
        for id in pests {
            try writer.add(
                CatalogRecord.Pest(
                    id: id, kind: .disease, latinName: "Fungus \(id)", eppoCode: eppoCodes[id],
                    name: ["en": pestNames[id] ?? "Leaf blight \(id)", "ru": "Пятнистость \(id)"],
                    description: ["en": "Spots on the leaves"]))
        }
        for index in 0..<12 {
            try writer.add(
                CatalogRecord.Product(
                    id: "p\(index)", name: ["en": "Product \(index)", "ru": "Препарат \(index)"], category: .fungicide,
                    registrationNumber: "REG-\(index)"))
        }
        try writer.finish()
    }

    /// Applies the delta from `old` to `new` to a copy of `old` and refreshes its index.
    private func applyDelta(from old: String, to new: String) throws -> (path: String, refresh: SearchIndexRefresh) {
        let work = fixture.root + "/work-\(UUID().uuidString.prefix(6)).sqlite"
        try FileManager.default.copyItem(atPath: old, toPath: work)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: old, to: new))
        try DeltaFile.apply([changeset], to: work)
        return (work, try CatalogStore.refreshSearchIndex(at: work, previous: old))
    }

    /// Both catalogs give the same hits, in the same order with the same ranks, for each search.
    private func assertSameAnswers(
        _ path: String, _ scratch: String, searches: [(String, String)], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let carried = try SQLiteCatalog(path: path), fresh = try SQLiteCatalog(path: scratch)
        defer {
            try? carried.close()
            try? fresh.close()
        }
        for (text, locale) in searches {
            let page = PageRequest(perPage: 50)
            XCTAssertEqual(
                try carried.search(text, kinds: nil, page: page, locale: locale).items,
                try fresh.search(text, kinds: nil, page: page, locale: locale).items, "search \(text) (\(locale))",
                file: file, line: line)
        }
    }

    func testRenamedPestIsFoundByItsNewNameOnly() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, pestNames: ["pest-17": "Oldname blotch"], at: v2)
        try build(version: 3, pestNames: ["pest-17": "Newname blotch"], at: v3)
        let (work, refresh) = try applyDelta(from: v2, to: v3)

        // 60 pest rows and 24 product rows (two locales each); only pest-17's English row
        // changed its texts.
        XCTAssertEqual([refresh.rows, refresh.changed], [84, 1])
        XCTAssertFalse(refresh.rebuilt)
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
        let catalog = try SQLiteCatalog(path: work)
        defer { try? catalog.close() }
        let found = try catalog.search("Newname", kinds: nil, page: PageRequest(perPage: 5), locale: "en").items
        XCTAssertEqual(found.map(\.id), ["pest-17"])
        XCTAssertEqual(found.first?.name, "Newname blotch")
        XCTAssertEqual(try catalog.search("Oldname", kinds: nil, page: PageRequest(perPage: 5), locale: "en").items, [])
        try assertSameAnswers(
            work, v3,
            searches: [
                ("Newname", "en"), ("Oldname", "en"), ("blotch", "en"), ("leaf blight", "en"), ("Fungus", "en"),
                ("Пятнистость", "ru"), ("Product 1", "en"), ("Препарат", "ru"),
            ])
    }

    /// A new EPPO code is a change of the pest's row, which the search index reads: the delta
    /// rewrites that pest's rows (one per locale), and the code is found as in a fresh build.
    func testAChangedEPPOCodeIsFoundByTheNewCodeOnly() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, eppoCodes: ["pest-17": "PUCCRT"], at: v2)
        try build(version: 3, eppoCodes: ["pest-17": "PUCCST", "pest-20": "SEPTTR"], at: v3)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: v2, to: v3))
        XCTAssertEqual(try DeltaFile.tables(changedBy: [changeset]), ["catalog_metadata", "pests", "name_index"])
        let (work, refresh) = try applyDelta(from: v2, to: v3)
        XCTAssertEqual([refresh.rows, refresh.changed], [84, 4], "pest-17 and pest-20, in English and Russian")
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
        let catalog = try SQLiteCatalog(path: work)
        defer { try? catalog.close() }
        XCTAssertEqual(try catalog.pest(id: "pest-17", locale: "en")?.eppoCode, "PUCCST")
        XCTAssertEqual(try catalog.search("puccst", kinds: nil, page: .all, locale: "ru").items.map(\.id), ["pest-17"])
        XCTAssertEqual(try catalog.search("PUCCRT", kinds: nil, page: .all, locale: "en").items, [])
        XCTAssertEqual(try catalog.resolve("septtr", kind: .pest, locale: "en").id, "pest-20")
        try assertSameAnswers(work, v3, searches: [("PUCCST", "en"), ("SEPTTR", "ru"), ("Fungus", "en")])
    }

    func testChangesetNamesTheTablesItChanges() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, pestNames: ["pest-17": "Oldname blotch"], at: v2)
        try build(version: 3, pestNames: ["pest-17": "Newname blotch"], at: v3)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: v2, to: v3))
        // The version is metadata; the English name is in pest_i18n, and its folded key in
        // name_index (whose key is the folded name itself: one row deleted, one inserted).
        XCTAssertEqual(try DeltaFile.tables(changedBy: [changeset]), ["catalog_metadata", "pest_i18n", "name_index"])
    }

    func testMalformedChangesetIsATypedErrorNotAHang() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, pestNames: ["pest-17": "Oldname blotch"], at: v2)
        try build(version: 3, pestNames: ["pest-17": "Newname blotch"], at: v3)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: v2, to: v3))
        let work = fixture.root + "/work.sqlite"
        try FileManager.default.copyItem(atPath: v2, toPath: work)
        let before = try FileSystem.digest(of: work)
        // A table header cut before its name ends ('T', one column, its key flag): SQLite 3.40's
        // reader loops for ever on it. Then no header at all, and a real changeset cut short.
        let malformed = [
            Data([0x54, 0x01, 0x01]), Data("abc".utf8), Data(changeset.prefix(5)), Data(changeset.dropLast()),
        ]
        for bytes in malformed {
            XCTAssertThrowsError(try DeltaFile.tables(changedBy: [bytes])) { assertMalformed($0) }
            XCTAssertThrowsError(try DeltaFile.apply([changeset, bytes], to: work)) { assertMalformed($0) }
        }
        XCTAssertEqual(try FileSystem.digest(of: work), before, "nothing written")
        // Every cut of a real changeset is read (a cut between two changes is a shorter
        // changeset) or refused the same way; none hangs.
        var read = 0
        for length in 0..<changeset.count {
            do {
                read += try DeltaFile.tables(changedBy: [Data(changeset.prefix(length))]).isEmpty ? 0 : 1
            } catch {
                assertMalformed(error)
            }
        }
        XCTAssertGreaterThan(read, 0)
        XCTAssertEqual(try DeltaFile.tables(changedBy: [changeset]), ["catalog_metadata", "pest_i18n", "name_index"])
    }

    private func assertMalformed(_ error: any Error, file: StaticString = #filePath, line: UInt = #line) {
        guard case let .deltaFailed(reason)? = error as? UpdateError else {
            return XCTFail("expected UpdateError.deltaFailed, got \(error)", file: file, line: line)
        }
        XCTAssertTrue(reason.contains("malformed"), reason, file: file, line: line)
    }

    func testIndexIsLeftAsItIsWhenNoIndexedTableChanged() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, at: v2)
        try build(version: 3, at: v3)
        let work = fixture.root + "/work.sqlite"
        try FileManager.default.copyItem(atPath: v2, toPath: work)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: v2, to: v3))
        try DeltaFile.apply([changeset], to: work)
        // Only the version changed: the previous catalog is not even read (a missing path would
        // otherwise make the refresh rebuild all 84 rows).
        let refresh = try CatalogStore.refreshSearchIndex(
            at: work, previous: fixture.root + "/absent.sqlite", changedTables: try DeltaFile.tables(changedBy: [changeset]))
        XCTAssertEqual([refresh.rows, refresh.changed], [84, 0])
        XCTAssertFalse(refresh.rebuilt)
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
    }

    func testRenameThroughTheChangesetsTablesRewritesItsRow() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, pestNames: ["pest-17": "Oldname blotch"], at: v2)
        try build(version: 3, pestNames: ["pest-17": "Newname blotch"], at: v3)
        let work = fixture.root + "/work.sqlite"
        try FileManager.default.copyItem(atPath: v2, toPath: work)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: v2, to: v3))
        try DeltaFile.apply([changeset], to: work)
        let refresh = try CatalogStore.refreshSearchIndex(
            at: work, previous: v2, changedTables: try DeltaFile.tables(changedBy: [changeset]))
        XCTAssertEqual([refresh.rows, refresh.changed], [84, 1])
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
        try assertSameAnswers(work, v3, searches: [("Newname", "en"), ("Oldname", "en"), ("blotch", "en")])
    }

    func testAddedPestGetsTheRowAFreshBuildGivesIt() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, at: v2)
        // Pests are indexed after the products, in id order: pest-99 comes last, in both locales.
        try build(version: 3, extraPest: "pest-99", at: v3)
        let (work, refresh) = try applyDelta(from: v2, to: v3)
        XCTAssertEqual([refresh.rows, refresh.changed], [86, 2])
        XCTAssertFalse(refresh.rebuilt)
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
        try assertSameAnswers(work, v3, searches: [("pest-99", "en"), ("Пятнистость pest-99", "ru"), ("blight", "en")])
    }

    func testRebuildsWhenMostRowsChange() throws {
        let v2 = fixture.root + "/v2.sqlite", v3 = fixture.root + "/v3.sqlite"
        try build(version: 2, at: v2)
        // 30 English pest names of 84 rows, plus a pest added before all others: every row
        // after it moves, so more than half would be rewritten.
        try build(
            version: 3, pestNames: Dictionary(uniqueKeysWithValues: (10..<40).map { ("pest-\($0)", "Rust \($0)") }),
            extraPest: "pest-0", at: v3)
        let (work, refresh) = try applyDelta(from: v2, to: v3)
        XCTAssertEqual([refresh.rows, refresh.changed], [86, 86])
        XCTAssertTrue(refresh.rebuilt)
        XCTAssertEqual(try ContentHash.of(catalog: work), try ContentHash.of(catalog: v3))
        try assertSameAnswers(work, v3, searches: [("Rust", "en"), ("blight", "en"), ("Product", "en")])
    }

    /// The whole update, as a user runs it: v2 installed from the full file, then v3 (one pest
    /// renamed) through a delta; the catalog in use finds the pest by its new name only.
    func testDeltaUpdateRenamingAPestAnswersLikeAFreshCatalog() async throws {
        let v2 = fixture.builtPath(version: 2), v3 = fixture.builtPath(version: 3)
        try build(version: 2, pestNames: ["pest-17": "Oldname blotch"], at: v2)
        _ = try Publisher.publish(catalog: v2, to: fixture.publishDirectory, key: fixture.keys, deltas: 3)
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        _ = try await fixture.client(server.url).update()
        XCTAssertEqual(try fixture.store.select().info.version, 2)

        try build(version: 3, pestNames: ["pest-17": "Newname blotch"], at: v3)
        let manifest = try Publisher.publish(catalog: v3, to: fixture.publishDirectory, key: fixture.keys, deltas: 3)
        let log = ProgressLog()
        _ = try await fixture.client(server.url).update { log.append($0) }
        XCTAssertEqual(log.fallbacks, [])
        XCTAssertFalse(server.requests.contains { $0.path == "/" + manifest.file.path }, "the full catalog was not fetched")
        let current = try fixture.store.select()
        XCTAssertEqual(current.info.version, 3)
        XCTAssertEqual(try fixture.store.verify().info.version, 3)
        let catalog = try SQLiteCatalog(path: current.path)
        defer { try? catalog.close() }
        XCTAssertEqual(
            try catalog.search("Newname", kinds: nil, page: PageRequest(perPage: 5), locale: "en").items.map(\.id), ["pest-17"])
        XCTAssertEqual(try catalog.search("Oldname", kinds: nil, page: PageRequest(perPage: 5), locale: "en").items, [])
        try assertSameAnswers(
            current.path, v3, searches: [("Newname", "en"), ("blotch", "en"), ("leaf", "en"), ("Пятнистость", "ru")])
    }
}
