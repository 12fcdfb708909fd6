import AgroDomain
import AgroStore
import AgroTestSupport
import AgroUpdate
import AgroUpdateClient
import Foundation
import XCTest

final class LiveCatalogTests: XCTestCase {
    func testThousandSwapsWhileFourThreadsQueryGiveZeroFailedReads() throws {
        let fixture = try Fixture()
        let a = fixture.root + "/a.sqlite", b = fixture.root + "/b.sqlite"
        try TestCatalogs.make(at: a, version: 1, products: 50)
        try TestCatalogs.make(at: b, version: 2, products: 50)
        let closed = Counter()
        let live = LiveCatalog(try SQLiteCatalog(path: a)) { _ in closed.increment() }
        let stop = Counter(), reads = Counter(), failures = Counter(), sawV1 = Counter(), sawV2 = Counter()
        let readers = (0..<4).map { _ in
            Thread {
                while stop.value == 0 {
                    do {
                        let page = try live.products(ProductFilter(), page: PageRequest(perPage: 50), locale: "en")
                        // One query, one catalog: every name comes from the same version.
                        let versions = Set(page.items.map { $0.name.split(separator: " ").last.map(String.init) ?? "" })
                        if page.items.count != 50 || versions.count != 1 { failures.increment() }
                        if versions == ["v1"] { sawV1.increment() } else if versions == ["v2"] { sawV2.increment() }
                        reads.increment()
                    } catch {
                        failures.increment()
                    }
                }
                stop.increment()
            }
        }
        readers.forEach { $0.start() }
        for swap in 0..<1000 {
            live.swap(to: try SQLiteCatalog(path: swap % 2 == 0 ? b : a))
        }
        stop.increment()
        let deadline = Date().addingTimeInterval(10)
        while stop.value < 5, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(stop.value, 5, "readers finished")
        XCTAssertEqual(failures.value, 0)
        XCTAssertGreaterThan(reads.value, 1000)
        XCTAssertGreaterThan(sawV1.value, 0)
        XCTAssertGreaterThan(sawV2.value, 0)
        // Every replaced catalog was closed once its last query ended.
        closed.wait(for: 1000)
        XCTAssertEqual(closed.value, 1000)
        XCTAssertEqual(try live.catalogInfo().version, 1)
    }

    func testQueryInFlightFinishesOnOldCatalogAndNextSeesNew() throws {
        let fixture = try Fixture()
        let a = fixture.root + "/a.sqlite", b = fixture.root + "/b.sqlite"
        try TestCatalogs.make(at: a, version: 1)
        try TestCatalogs.make(at: b, version: 2)
        let closed = Counter()
        let live = LiveCatalog(try SQLiteCatalog(path: a)) { _ in closed.increment() }
        // The program passes it wherever a catalog is expected.
        let asCatalog: any Catalog = live
        XCTAssertEqual(try asCatalog.catalogInfo().version, 1)
        try live.read { old in
            live.swap(to: try SQLiteCatalog(path: b))
            // Still open: this query started before the swap.
            XCTAssertEqual(closed.value, 0)
            let page = try old.products(ProductFilter(), page: PageRequest(perPage: 1), locale: "en")
            XCTAssertEqual(page.items.first?.name, "Product 0 v1")
            XCTAssertEqual(try live.catalogInfo().version, 2)
            #if os(Linux)
                XCTAssertTrue(try Self.mapped(a), "the catalog is read through a memory map")
            #endif
        }
        closed.wait(for: 1)
        XCTAssertEqual(closed.value, 1)
        #if os(Linux)
            // A swapped-out file's map goes with its last reader, not with the process.
            XCTAssertFalse(try Self.mapped(a), "the replaced catalog's map is released")
            XCTAssertTrue(try Self.mapped(b))
        #endif
    }

    /// Whether this process maps the file at `path` (Linux's /proc/self/maps). Read to its end
    /// through a file handle: `String(contentsOfFile:)` stops after the first 4 KB of a /proc
    /// file (which reports a size of 0), and in a long test run the catalog's map lies beyond.
    static func mapped(_ path: String) throws -> Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try maps().contains(where: { $0.hasSuffix(" " + resolved) })
    }

    /// The lines of /proc/self/maps.
    static func maps() throws -> [Substring] {
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self).split(separator: "\n")
    }

    func testReloadPicksUpAnInstallByAnotherProcess() async throws {
        let fixture = try Fixture()
        let (live, selection) = try LiveCatalog.open(fixture.store)
        XCTAssertEqual(selection.source, .bundled)
        XCTAssertFalse(try live.reload(from: fixture.store))
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        _ = try await fixture.client(server.url).update()
        XCTAssertTrue(try live.reload(from: fixture.store))
        XCTAssertEqual(try live.catalogInfo().version, 2)
        XCTAssertEqual(try live.lookup("Product 1 v2", kind: .product, locale: "en").first?.id, "p1")
    }
}

final class WatchTests: XCTestCase {
    func testWatchSwapsAfterAnUpdateAndARollback() async throws {
        let fixture = try Fixture()
        let (live, _) = try LiveCatalog.open(fixture.store)
        let watcher = live.watch(fixture.store, every: .milliseconds(20))
        defer { watcher.cancel() }
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let client = try fixture.client(server.url)
        _ = try await client.update()
        try await waitForVersion(live, 2)
        try fixture.publish(version: 3)
        _ = try await client.update()
        try await waitForVersion(live, 3)
        _ = try client.rollback()
        try await waitForVersion(live, 2)
    }

    private func waitForVersion(_ live: LiveCatalog, _ version: Int, file: StaticString = #filePath, line: UInt = #line)
        async throws
    {
        let deadline = Date().addingTimeInterval(5)
        while try live.catalogInfo().version != version, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(try live.catalogInfo().version, version, file: file, line: line)
        let page = try live.products(ProductFilter(), page: PageRequest(perPage: 1), locale: "en")
        XCTAssertEqual(page.items.first?.name, "Product 0 v\(version)", file: file, line: line)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
    /// Waits up to 10 s for the count to reach `target`.
    func wait(for target: Int) {
        let deadline = Date().addingTimeInterval(10)
        while value < target, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
}
