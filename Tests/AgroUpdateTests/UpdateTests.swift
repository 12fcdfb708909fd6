import AgroDomain
import AgroStore
import AgroTestSupport
import AgroUpdateClient
import Foundation
import XCTest

@testable import AgroUpdate

/// The normal path, against the Hummingbird catalog server on loopback.
final class UpdateTests: XCTestCase {
    func testUpdateInstallsNewerCatalogThenRollbackAndVerify() async throws {
        let fixture = try Fixture()
        try fixture.assertCurrent(version: 1, source: .bundled)
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let client = try fixture.client(server.url)

        let check = try await client.check()
        XCTAssertEqual(check.availability, .available)
        XCTAssertEqual(check.downloadSize, check.manifest.file.compressed.size)

        let bundled = try SQLiteCatalog(path: fixture.bundled).info
        let progress = ProgressLog()
        let outcome = try await client.update { progress.append($0) }
        guard case let .installed(from, to) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(from, bundled)
        XCTAssertEqual(to.identity, "test.agro")
        XCTAssertEqual(to.version, 2)
        try fixture.assertCurrent(version: 2, source: .installed)
        XCTAssertTrue(progress.events.contains(.installing(.currentLinked)))
        XCTAssertEqual(progress.events.last, .installing(.currentLinked))
        let lastDownload = progress.events.compactMap { event -> Int64? in
            if case let .downloading(received, _) = event { return received } else { return nil }
        }.last
        XCTAssertEqual(lastDownload, check.manifest.file.compressed.size)

        // Equal version: nothing to do.
        let again = try await client.update()
        guard case .upToDate = again else { return XCTFail("expected up to date, got \(again)") }

        try fixture.publish(version: 3)
        _ = try await client.update()
        try fixture.assertCurrent(version: 3, source: .installed)
        XCTAssertEqual(try fixture.store.status().previous?.version, 2)

        let rollback = try client.rollback()
        XCTAssertEqual(rollback.from.version, 3)
        XCTAssertEqual(rollback.to.version, 2)
        try fixture.assertCurrent(version: 2, source: .installed)
        let back = try client.rollback()
        XCTAssertEqual(back.to.version, 3)
        try fixture.assertCurrent(version: 3, source: .installed)

        // Only the current and the previous catalogs are kept.
        let installed = try FileManager.default.contentsOfDirectory(atPath: fixture.store.catalogsDirectory)
            .filter { $0.hasSuffix(".sqlite") && !$0.hasPrefix("current") && !$0.hasPrefix("previous") }
        XCTAssertEqual(installed.count, 2)
    }

    func testUnchangedManifestCostsA304() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let client = try fixture.client(server.url)
        let first = try await client.check()
        XCTAssertFalse(first.notModified)
        let second = try await client.check()
        XCTAssertTrue(second.notModified)
        XCTAssertEqual(second.manifest, first.manifest)
        let statuses = server.log.access.filter { $0["path"] == "/manifest.json" }.map { $0["status"] }
        XCTAssertEqual(statuses, ["200", "304"])
        XCTAssertNotNil(fixture.store.readState().lastCheck)

        // A new publication changes the ETag, so the next check gets it.
        try await Task.sleep(for: .milliseconds(1100))
        try fixture.publish(version: 3)
        let third = try await client.check()
        XCTAssertFalse(third.notModified)
        XCTAssertEqual(third.manifest.catalogVersion, 3)
    }

    func testInterruptedDownloadResumesWhereItStopped() async throws {
        let fixture = try Fixture()
        let manifest = try fixture.publish(version: 2)
        let size = Int(manifest.file.compressed.size)
        let cut = size / 2
        let directory = fixture.publishDirectory
        let cutOnce = Flag()
        let server = try FaultyHTTPServer { request in
            if request.path.hasSuffix(".gz"), cutOnce.setOnce() {
                guard case let .respond(status, headers, body, _, _, _) = FaultyHTTPServer.file(request, in: directory) else {
                    return .hang
                }
                return .respond(status: status, headers: headers, body: body, closeAfter: cut)
            }
            return FaultyHTTPServer.file(request, in: directory)
        }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        let error = await updateError(client)
        XCTAssertEqual(error, .truncated(expected: Int64(size), received: Int64(cut)))
        try fixture.assertCurrent(version: 1, source: .bundled)
        let check = try await client.check()
        XCTAssertEqual(check.downloadSize, Int64(size - cut))

        _ = try await client.update()
        try fixture.assertCurrent(version: 2, source: .installed)
        let ranges = server.requests.filter { $0.path.hasSuffix(".gz") }.map { $0.headers["range"] }
        XCTAssertEqual(ranges, [nil, "bytes=\(cut)-"])
    }

    func testResumeAgainstAServerIgnoringRangeStartsOver() async throws {
        let fixture = try Fixture()
        let manifest = try fixture.publish(version: 2)
        let directory = fixture.publishDirectory
        let cutOnce = Flag()
        let server = try FaultyHTTPServer { request in
            var plain = request
            plain.headers["range"] = nil  // this server knows nothing of ranges
            guard request.path.hasSuffix(".gz"),
                case let .respond(status, headers, body, _, _, _) = FaultyHTTPServer.file(plain, in: directory)
            else { return FaultyHTTPServer.file(request, in: directory) }
            return .respond(status: status, headers: headers, body: body, closeAfter: cutOnce.setOnce() ? 500 : nil)
        }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        let error = await updateError(client)
        XCTAssertEqual(error, .truncated(expected: manifest.file.compressed.size, received: 500))
        _ = try await client.update()
        try fixture.assertCurrent(version: 2, source: .installed)
        XCTAssertEqual(server.requests.filter { $0.path.hasSuffix(".gz") }.last?.headers["range"], "bytes=500-")
    }

    func testUserDataSurvivesUpdateAndRollback() async throws {
        let fixture = try Fixture()
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        let userPath = fixture.dataDirectory + "/user.sqlite"
        do {
            let user = try UserStore(path: userPath)
            XCTAssertTrue(try user.addFavorite(kind: .product, id: "p1"))
            XCTAssertTrue(try user.addFavorite(kind: .product, id: "p3"))
        }
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let client = try fixture.client(server.url)
        _ = try await client.update()
        try fixture.publish(version: 3)
        _ = try await client.update()
        _ = try client.rollback()
        try fixture.assertCurrent(version: 2, source: .installed)
        let user = try UserStore(path: userPath)
        XCTAssertEqual(Set(try user.favorites().map(\.id)), ["p1", "p3"])
        // Favorites name entities by stable id, which the new catalog still has.
        let catalog = try SQLiteCatalog(path: try fixture.store.select().path)
        XCTAssertEqual(try catalog.product(id: "p3", locale: "en")?.name, "Product 3 v2")
    }

    func testStartupFallsBackToBundledWhenInstalledIsMissingOrCorrupt() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        _ = try await fixture.client(server.url).update()
        let installed = try XCTUnwrap(fixture.store.installedPath)

        // Corrupt: cut the file in half.
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: installed))
        try handle.truncate(atOffset: UInt64((FileSystem.size(installed) ?? 0) / 2))
        try handle.close()
        let selection = try fixture.store.select()
        XCTAssertEqual(selection.source, .bundled)
        XCTAssertEqual(selection.info.version, 1)
        XCTAssertTrue(selection.warning?.contains("unusable") == true, selection.warning ?? "no warning")
        XCTAssertThrowsError(try fixture.store.verify())

        // Missing.
        try FileManager.default.removeItem(atPath: installed)
        let missing = try fixture.store.select()
        XCTAssertEqual(missing.source, .bundled)
        XCTAssertNotNil(missing.warning)
    }

    func testUpdateAfterInstalledFileWasDamagedInstallsAFreshCopy() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let client = try fixture.client(server.url)
        _ = try await client.update()
        let installed = try XCTUnwrap(fixture.store.installedPath)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: installed))
        try handle.truncate(atOffset: 4096)
        try handle.close()
        XCTAssertEqual(try fixture.store.select().source, .bundled)
        XCTAssertThrowsError(try client.verify())
        // The same version again, over the damaged file of the same name.
        _ = try await client.update()
        try fixture.assertCurrent(version: 2, source: .installed)
    }

    func testASecondUpdaterIsToldToWait() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let held = try fixture.store.lock()
        await assertThrows(.busy(path: fixture.store.catalogsDirectory)) { try await fixture.client(server.url).update() }
        try fixture.assertCurrent(version: 1, source: .bundled)
        held.unlock()
        _ = try await fixture.client(server.url).update()
        try fixture.assertCurrent(version: 2, source: .installed)
    }

    func testRollbackWithoutPreviousCatalog() async throws {
        let fixture = try Fixture()
        XCTAssertThrowsError(try fixture.store.rollback()) { XCTAssertEqual($0 as? UpdateError, .noPreviousCatalog) }
        try fixture.assertCurrent(version: 1, source: .bundled)
    }

    func testBundledNewerThanInstalledWinsButInstalledOtherIdentityWinsOverDemo() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2, identity: "kz.register")
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        // The bundled demo (test.agro v1) gives way to another identity from the server.
        _ = try await fixture.client(server.url).update()
        XCTAssertEqual(try fixture.store.select().info.identity, "kz.register")
        XCTAssertEqual(try fixture.store.select().source, .installed)

        // Same identity: the newer wins, wherever it is.
        let other = try Fixture.Store(fixture: fixture, bundledVersion: 5, identity: "kz.register")
        XCTAssertEqual(try other.store.select().source, .bundled)
        XCTAssertEqual(try other.store.select().info.version, 5)
    }

    /// The bundled catalog's version is read from its metadata alone; when it claims to be newer
    /// but fails the start-up checks, the installed catalog stays in use, opened.
    func testABundledCatalogNewerButCutShortLeavesTheInstalledOne() async throws {
        let fixture = try Fixture()
        try fixture.publish(version: 2, identity: "kz.register")
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        _ = try await fixture.client(server.url).update()
        let newer = try Fixture.Store(fixture: fixture, bundledVersion: 5, identity: "kz.register")
        let bundled = try XCTUnwrap(newer.store.bundledPath)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: bundled))
        try handle.truncate(atOffset: try handle.seekToEnd() - 512)
        try handle.close()
        let (catalog, selection) = try newer.store.open(maximumReaders: 1)
        XCTAssertEqual(selection.source, .installed)
        XCTAssertEqual(selection.info.version, 2)
        XCTAssertEqual(catalog.info.identity, "kz.register")
        XCTAssertNil(selection.warning)
    }

    func testCatalogServerHonoursETagRangeAndContentTypes() async throws {
        let fixture = try Fixture()
        let manifest = try fixture.publish(version: 2)
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let manifestURL = server.url.appendingPathComponent("manifest.json")
        let (body, response) = try await fetch(manifestURL)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json"), true)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "no-cache")
        XCTAssertEqual(body, try Data(contentsOf: URL(fileURLWithPath: fixture.publishDirectory + "/manifest.json")))
        let etag = try XCTUnwrap(response.value(forHTTPHeaderField: "ETag"))
        let (_, notModified) = try await fetch(manifestURL, headers: ["If-None-Match": etag])
        XCTAssertEqual(notModified.statusCode, 304)

        let fileURL = server.url.appendingPathComponent(manifest.file.path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture.publishDirectory + "/" + manifest.file.path))
        let (part, partial) = try await fetch(fileURL, headers: ["Range": "bytes=100-199"])
        XCTAssertEqual(partial.statusCode, 206)
        XCTAssertEqual(part, whole.subdata(in: 100..<200))
        XCTAssertEqual(partial.value(forHTTPHeaderField: "Content-Range"), "bytes 100-199/\(whole.count)")
        XCTAssertEqual(partial.value(forHTTPHeaderField: "Content-Type"), "application/gzip")
        XCTAssertEqual(partial.value(forHTTPHeaderField: "Cache-Control")?.contains("immutable"), true)
        let (_, missing) = try await fetch(server.url.appendingPathComponent("nothing.json"))
        XCTAssertEqual(missing.statusCode, 404)
        let log = server.log.access
        XCTAssertEqual(log.map { $0["status"] }, ["200", "304", "206", "404"])
        XCTAssertEqual(log[2]["range"], "bytes=100-199")
    }
}

extension Fixture {
    /// A second store over the same data directory with another bundled catalog.
    struct Store {
        let store: CatalogStore
        init(fixture: Fixture, bundledVersion: Int, identity: String) throws {
            let path = fixture.root + "/bundled-\(identity)-\(bundledVersion).sqlite"
            try TestCatalogs.make(at: path, identity: identity, version: bundledVersion)
            store = CatalogStore(dataDirectory: fixture.dataDirectory, bundledPath: path)
        }
    }
}

final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [UpdateProgress] = []
    func append(_ event: UpdateProgress) { lock.withLock { log.append(event) } }
    var events: [UpdateProgress] { lock.withLock { log } }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    /// True the first time only.
    func setOnce() -> Bool {
        lock.withLock {
            defer { set = true }; return !set
        }
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func fetch(_ url: URL, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
    var request = URLRequest(url: url)
    request.cachePolicy = .reloadIgnoringLocalCacheData
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return (data, response as! HTTPURLResponse)
}
