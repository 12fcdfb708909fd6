import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroUpdate
@testable import AgroUpdateClient

/// Hostile servers and dangerous signed manifests (TUF's threat list): each ends with one
/// clear error, the old catalog current and answering, and the update lock free again.
/// The baseline is test.agro v2 installed from the server, v3 published.
final class HostileUpdateTests: UpdateBaselineTestCase {
    private func client(
        _ url: URL, timeout: TimeInterval = 5, deadline: TimeInterval = 30, rate: Double = 32 * 1024,
        _ adjust: (inout UpdateConfiguration) -> Void = { _ in }
    ) throws -> UpdateClient {
        var configuration = try UpdateConfiguration(
            server: url, trustedKeys: [try PublicSigningKey.read(file: fixture.trustFile)], timeout: timeout)
        configuration.manifestDeadline = deadline
        configuration.minimumDownloadRate = rate
        adjust(&configuration)
        return UpdateClient(configuration: configuration, store: fixture.store)
    }

    /// The error, the old catalog still current, and the lock free (another updater may run).
    private func assertFails(_ client: UpdateClient, file: StaticString = #filePath, line: UInt = #line) async throws
        -> UpdateError?
    {
        let error = await updateError(client, file: file, line: line)
        try fixture.assertCurrent(version: 2, source: .installed, file: file, line: line)
        let lock = try fixture.store.lock()
        lock.unlock()
        if let error { XCTAssertFalse(error.message.contains("\n"), file: file, line: line) }
        return error
    }

    // MARK: - Hostile servers

    func testHugeContentLengthOnTheManifest() async throws {
        let server = try server { request, _ in request.path == "/manifest.json" ? .hugeContentLength() : nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .manifestInvalid("larger than \(Manifest.maximumSize) bytes"))
    }

    func testHugeContentLengthOnTheCatalog() async throws {
        let server = try server { request, _ in request.path.hasSuffix(".gz") ? .hugeContentLength() : nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .tooLarge(declared: v3.file.compressed.size))
    }

    func testResumedAnswerWhoseLengthOverflows() async throws {
        // First attempt: 1,000 bytes, then the connection drops.
        let size = Int(v3.file.compressed.size)
        let spoiled = try server { request, directory in
            guard request.path.hasSuffix(".gz"),
                case let .respond(status, headers, body, _, _, _) = FaultyHTTPServer.file(request, in: directory)
            else { return nil }
            return .respond(status: status, headers: headers, body: body, closeAfter: 1000)
        }
        let first = try await assertFails(try client(spoiled.url))
        spoiled.stop()
        XCTAssertEqual(first, .truncated(expected: Int64(size), received: 1000))
        // Second: a 206 at the right place whose length overflows received + length.
        let server = try server { request, _ in
            guard request.path.hasSuffix(".gz") else { return nil }
            return .respond(
                status: 206, headers: ["Content-Range": "bytes 1000-\(Int.max - 1)/\(Int.max)"], body: Data(count: 10),
                contentLength: Int.max, closeAfter: 10)
        }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .tooLarge(declared: v3.file.compressed.size))
        XCTAssertEqual(server.requests.last?.headers["range"], "bytes=1000-")
    }

    func testEndlessManifest() async throws {
        let server = try server { request, _ in request.path == "/manifest.json" ? .endlessBody() : nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .manifestInvalid("larger than \(Manifest.maximumSize) bytes"))
    }

    func testGzipBombManifest() async throws {
        let server = try server { request, _ in request.path == "/manifest.json" ? .gzipBomb(decodedSize: 64 << 20) : nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .manifestInvalid("larger than \(Manifest.maximumSize) bytes"))
    }

    func testOneBytePerIntervalManifestMeetsTheDeadline() async throws {
        let server = try server { request, _ in request.path == "/manifest.json" ? .endlessTrickle(interval: 0.2) : nil }
        defer { server.stop() }
        let started = Date()
        let error = try await assertFails(try client(server.url, deadline: 1.5))
        XCTAssertEqual(error, .timedOut(url: server.url.absoluteString + "/manifest.json"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
    }

    func testSlowCatalogMeetsItsScaledDeadline() async throws {
        // The catalog at one byte per 50 ms; its deadline is 1 s + size / 1 MB/s.
        let server = try server { request, directory in
            guard request.path.hasSuffix(".gz") else { return nil }
            return FaultyHTTPServer.file(request, in: directory, pacing: .init(chunkSize: 1, delay: 0.05))
        }
        defer { server.stop() }
        let client = try client(server.url, deadline: 1, rate: 1_048_576)
        XCTAssertEqual(client.configuration.catalogDeadline(size: 1 << 20), 2, accuracy: 0.001)
        let started = Date()
        let error = try await assertFails(client)
        let elapsed = Date().timeIntervalSince(started)
        guard case .truncated? = error else {
            return XCTFail("expected an interrupted download, got \(String(describing: error))")
        }
        XCTAssertLessThan(elapsed, 6)
    }

    // MARK: - Signed but dangerous manifests

    func testHashThatWouldLeaveTheDataDirectory() async throws {
        let escape = "../../../../escaped"
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.file.compressed.sha256 = escape }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .manifestInvalid("a sha256 is not 64 lower-case hexadecimal digits"))
        let outside = (fixture.store.downloadsDirectory + "/" + escape + ".gz.partial" as NSString).standardizingPath
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside))
    }

    func testUpperCaseHashIsRefused() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) {
            $0.file.uncompressed.sha256 = $0.file.uncompressed.sha256.uppercased()
        }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .manifestInvalid("a sha256 is not 64 lower-case hexadecimal digits"))
    }

    func testReleasePathOutsideTheDirectoryIsRefused() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) { manifest in
            var release = Manifest.Release(
                catalogVersion: 1, schemaVersion: manifest.schemaVersion, builtAt: manifest.builtAt,
                publishedAt: manifest.publishedAt, file: manifest.file)
            release.file.path = "../secret.gz"
            manifest.releases = [release]
        }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        guard case .manifestInvalid? = try await assertFails(try client(server.url)) else { return XCTFail("expected a refusal") }
    }

    func testIdentityWithControlCharactersIsRefused() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.identity = "test.agro\u{1B}[2J\u{202E}" }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        guard case .manifestInvalid? = try await assertFails(try client(server.url)) else { return XCTFail("expected a refusal") }
    }

    func testPinnedIdentityRefusesAnotherEvenOnFirstInstall() async throws {
        let fresh = try Fixture()
        try fresh.publish(version: 5, identity: "other.agro")
        let directory = fresh.publishDirectory
        let server = try FaultyHTTPServer { FaultyHTTPServer.file($0, in: directory) }
        defer { server.stop() }
        var configuration = try UpdateConfiguration(
            server: server.url, trustedKeys: [try PublicSigningKey.read(file: fresh.trustFile)], timeout: 5)
        configuration.pinnedIdentity = "test.agro"
        let error = await updateError(UpdateClient(configuration: configuration, store: fresh.store))
        XCTAssertEqual(error, .identityNotPinned(offered: "other.agro", pinned: "test.agro"))
        try fresh.assertCurrent(version: 1, source: .bundled)
        // Unpinned, the same server's catalog replaces the bundled one.
        configuration.pinnedIdentity = nil
        _ = try await UpdateClient(configuration: configuration, store: fresh.store).update()
        try fresh.assertCurrent(version: 5, source: .installed)
    }

    func testPinningFromTheEnvironmentAndFlag() throws {
        let environment = [
            "AGRO_UPDATE_SERVER": "https://example.org/", "AGRO_TRUST": fixture.trustFile, "AGRO_UPDATE_IDENTITY": "env.agro",
        ]
        let fromEnvironment = try UpdateConfiguration.resolve(
            server: nil, trust: [], insecure: false, environment: environment, file: UpdateFileSettings(identity: "file.agro"))
        XCTAssertEqual(fromEnvironment.pinnedIdentity, "env.agro")
        let fromFlag = try UpdateConfiguration.resolve(
            server: nil, trust: [], insecure: false, environment: environment, identity: "flag.agro")
        XCTAssertEqual(fromFlag.pinnedIdentity, "flag.agro")
        let fromFile = try UpdateConfiguration.resolve(
            server: "https://example.org/", trust: [fixture.trustFile], insecure: false, environment: [:],
            file: UpdateFileSettings(identity: "file.agro", deadline: 12.5))
        XCTAssertEqual(fromFile.pinnedIdentity, "file.agro")
        XCTAssertEqual(fromFile.manifestDeadline, 12.5)
        XCTAssertThrowsError(
            try UpdateConfiguration.resolve(
                server: "https://example.org/", trust: [fixture.trustFile], insecure: false,
                environment: ["AGRO_UPDATE_DEADLINE": "1e400"])
        ) { error in
            guard case .invalidSetting? = error as? UpdateError else { return XCTFail("\(error)") }
        }
        // The file's number arrives as a number (not flattened into text and parsed back), and
        // is checked the same way.
        XCTAssertThrowsError(
            try UpdateConfiguration.resolve(
                server: "https://example.org/", trust: [fixture.trustFile], insecure: false, environment: [:],
                file: UpdateFileSettings(deadline: -1))
        ) { error in
            XCTAssertEqual(error as? UpdateError, .invalidSetting(name: "update.deadline", value: "-1.0"))
        }
        // Key files from the file are a list: a path may hold a comma.
        let comma = fixture.trustFile + ",copy.pub"
        try FileManager.default.copyItem(atPath: fixture.trustFile, toPath: comma)
        let listed = try UpdateConfiguration.resolve(
            server: "https://example.org/", trust: [], insecure: false, environment: [:], file: UpdateFileSettings(trust: [comma])
        )
        XCTAssertEqual(listed.trustedKeys.count, 1)
    }

    func testDowngradeAfterRollbackIsRefusedUnlessAllowed() async throws {
        // v3 installed, rolled back to v2; the server then offers an old signed v2... and,
        // after a fallback to the bundled catalog, v2 again: both older than v3.
        let directory = fixture.publishDirectory
        let good = try FaultyHTTPServer { FaultyHTTPServer.file($0, in: directory) }
        _ = try await client(good.url).update()
        good.stop()
        try fixture.assertCurrent(version: 3, source: .installed)
        XCTAssertEqual(fixture.store.readState().highestInstalled?["test.agro"], 3)
        _ = try fixture.store.rollback()
        try fixture.assertCurrent(version: 2, source: .installed)

        // An old v2 manifest replayed (re-signed, as a compromised mirror would hold it).
        let old = fixture.root + "/old"
        try fixture.publish(version: 2, to: old)
        let replay = try FaultyHTTPServer { FaultyHTTPServer.file($0, in: old) }
        defer { replay.stop() }
        // v2 is the one in use: up to date, nothing to refuse.
        let check = try await client(replay.url).check()
        XCTAssertEqual(check.availability, .upToDate)
        // With the installed catalogs gone, the bundled v1 is current: v2 is still refused.
        try FileManager.default.removeItem(atPath: fixture.store.currentLink)
        try fixture.assertCurrent(version: 1, source: .bundled)
        let error = await updateError(try client(replay.url))
        XCTAssertEqual(error, .downgrade(identity: "test.agro", offered: 2, highest: 3))
        try fixture.assertCurrent(version: 1, source: .bundled)
        // Asked for explicitly, it is installed.
        _ = try await client(replay.url) { $0.allowDowngrade = true }.update()
        try fixture.assertCurrent(version: 2, source: .installed)
    }

    func testVersionJumpOnlyWhenThePublisherSaysSo() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) {
            $0.catalogVersion = 3; $0.maxVersionStep = nil
        }
        // No policy: v3 from v2 is accepted (checked only, not installed).
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let availability = try await client(server.url).check().availability
        XCTAssertEqual(availability, .available)
        // The policy allows steps of 1 while the server jumps from 2 to 1,000,002.
        try fixture.rewriteManifest(signWith: fixture.keys) {
            $0.catalogVersion = 1_000_002; $0.maxVersionStep = 1
        }
        let error = try await assertFails(try client(server.url))
        XCTAssertEqual(error, .versionJump(identity: "test.agro", offered: 1_000_002, highest: 2, maxStep: 1))
    }

    func testDamagedCachedManifestIsFetchedAgain() async throws {
        let server = try await RunningServer.start(directory: fixture.publishDirectory)
        defer { Task { await server.stop() } }
        let first = try await client(server.url).check()
        XCTAssertFalse(first.notModified)
        XCTAssertNotNil(fixture.store.readState().etag)
        // The cached copy is damaged while state.json keeps its ETag: the server answers 304.
        let cached = fixture.store.catalogsDirectory + "/manifest.json"
        try Data("{\"damaged\":".utf8).write(to: URL(fileURLWithPath: cached))
        let second = try await client(server.url).check()
        XCTAssertEqual(second.manifest, v3)
        XCTAssertEqual(second.availability, .available)
        let requests = server.log.access.filter { $0["path"] == "/manifest.json" }
        XCTAssertEqual(requests.suffix(2).map { $0["status"] }, ["304", "200"], "a 304, then an unconditional request")
        // The good copy is cached again.
        XCTAssertEqual(
            try Manifest.verified(Data(contentsOf: URL(fileURLWithPath: cached)), trustedKeys: [fixture.keys.publicKey]), v3)
    }

    func testCompressingOntoAFullDiskThrows() throws {
        // /dev/full answers every write with ENOSPC (the legacy FileHandle.write trapped on it).
        // Reached through a link of our own: were the file ever replaced instead of written, the
        // link would go, never the device.
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        let full = fixture.root + "/full.gz"
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
        XCTAssertThrowsError(try Gzip.compress(file: fixture.bundled, to: full)) { error in
            guard case let .io(path, _)? = error as? UpdateError else { return XCTFail("got \(error)") }
            XCTAssertEqual(path, full)
        }
    }

    func testStateFileIsReplacedWhole() throws {
        var state = fixture.store.readState()
        state.etag = "\"e1\""
        state.highestInstalled = ["test.agro": 7]
        try fixture.store.writeState(state)
        XCTAssertEqual(fixture.store.readState(), state)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.store.catalogsDirectory).filter {
            $0.contains(".new-")
        }
        XCTAssertEqual(leftovers, [])
    }
}
