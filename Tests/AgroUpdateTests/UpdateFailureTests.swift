import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import GRDB
import XCTest

@testable import AgroUpdate
@testable import AgroUpdateClient

/// Every way an update can fail ends with the old catalog current and answering, and one
/// clear message. The baseline is test.agro v2 installed from the server; v3 is published
/// and then spoiled in one way per test.
final class UpdateFailureTests: UpdateBaselineTestCase {
    private func assertFails(
        _ expected: UpdateError, server url: URL, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let client = try fixture.client(url, timeout: timeout)
        let error = await updateError(client, file: file, line: line)
        XCTAssertEqual(error, expected, file: file, line: line)
        try fixture.assertCurrent(version: 2, source: .installed, file: file, line: line)
    }

    // MARK: - Manifest unreachable

    func testConnectionRefused() async throws {
        let closed = try FaultyHTTPServer { _ in .hang }
        let url = closed.url
        closed.stop()
        try await assertFails(.unreachable(url: url.absoluteString + "/manifest.json", reason: "connection refused"), server: url)
    }

    func testTimeout() async throws {
        let server = try server { _, _ in .hang }
        defer { server.stop() }
        let started = Date()
        try await assertFails(.timedOut(url: server.url.absoluteString + "/manifest.json"), server: server.url, timeout: 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testNotFound() async throws {
        let empty = fixture.root + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let server = try await RunningServer.start(directory: empty)
        defer { Task { await server.stop() } }
        try await assertFails(.httpStatus(url: server.url.absoluteString + "/manifest.json", status: 404), server: server.url)
    }

    func testServerError() async throws {
        let server = try server { _, _ in .respond(status: 500, body: Data("boom".utf8)) }
        defer { server.stop() }
        try await assertFails(.httpStatus(url: server.url.absoluteString + "/manifest.json", status: 500), server: server.url)
    }

    func testHugeManifestIsNotRead() async throws {
        let server = try server { request, _ in
            request.path == "/manifest.json" ? .respond(status: 200, body: Data(count: 3 << 20)) : nil
        }
        defer { server.stop() }
        try await assertFails(.manifestInvalid("larger than \(Manifest.maximumSize) bytes"), server: server.url)
    }

    func testCatalogFileMissingOnServer() async throws {
        try FileManager.default.removeItem(atPath: fixture.publishDirectory + "/" + v3.file.path)
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(.httpStatus(url: server.url.absoluteString + "/" + v3.file.path, status: 404), server: server.url)
    }

    // MARK: - Download

    func testTruncatedDownload() async throws {
        let size = Int(v3.file.compressed.size)
        let server = try server { request, directory in
            guard request.path.hasSuffix(".gz"),
                case let .respond(status, headers, body, _, _, _) = FaultyHTTPServer.file(request, in: directory)
            else { return nil }
            return .respond(status: status, headers: headers, body: body, closeAfter: 1000)
        }
        defer { server.stop() }
        try await assertFails(.truncated(expected: Int64(size), received: 1000), server: server.url)
    }

    func testOneFlippedBit() async throws {
        try fixture.mutatePublished(v3.file.path) { $0[$0.count / 2] ^= 0x10 }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        guard case let .checksumMismatch(what, expected, _)? = await updateError(client) else {
            return XCTFail("expected a checksum mismatch")
        }
        XCTAssertEqual(what, "downloaded file")
        XCTAssertEqual(expected, v3.file.compressed.sha256)
        try fixture.assertCurrent(version: 2, source: .installed)
        // The spoiled download is not kept for resuming.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fixture.store.catalogsDirectory + "/downloads"), [])
    }

    func testWrongSHA256InManifest() async throws {
        let wrong = String(repeating: "ab", count: 32)
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.file.compressed.sha256 = wrong }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(
            .checksumMismatch(what: "downloaded file", expected: wrong, actual: v3.file.compressed.sha256), server: server.url)
    }

    func testWrongUncompressedSHA256InManifest() async throws {
        let wrong = String(repeating: "cd", count: 32)
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.file.uncompressed.sha256 = wrong }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(
            .checksumMismatch(what: "uncompressed catalog", expected: wrong, actual: v3.file.uncompressed.sha256),
            server: server.url)
    }

    func testServerSendingMoreThanDeclaredWithContentLength() async throws {
        let server = try server { request, directory in
            guard request.path.hasSuffix(".gz"),
                case let .respond(_, _, body, _, _, _) = FaultyHTTPServer.file(request, in: directory)
            else { return nil }
            return .respond(status: 200, body: body + Data(count: 5_000_000))
        }
        defer { server.stop() }
        try await assertFails(.tooLarge(declared: v3.file.compressed.size), server: server.url)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.store.catalogsDirectory + "/downloads")
                .map { FileSystem.size(fixture.store.catalogsDirectory + "/downloads/" + $0) ?? 0 }.filter {
                    $0 > v3.file.compressed.size
                }, [])
    }

    func testServerSendingMoreThanDeclaredWithoutLengthStopsAtDeclaredSize() async throws {
        let declared = v3.file.compressed.size
        let written = ByteCounter()
        let server = try server { request, directory in
            guard request.path.hasSuffix(".gz"),
                case let .respond(_, _, body, _, _, _) = FaultyHTTPServer.file(request, in: directory)
            else { return nil }
            // 64 MB announced by nothing but the closing of the connection.
            return .respond(status: 200, body: body + Data(count: 64_000_000), contentLength: -1)
        }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        let error = await updateErrorTracking(client, written)
        XCTAssertEqual(error, .tooLarge(declared: declared))
        XCTAssertEqual(written.maximum, declared, "bytes on disk never pass the declared size")
        try fixture.assertCurrent(version: 2, source: .installed)
    }

    func testDecompressingBeyondDeclaredSizeStops() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.file.uncompressed.size = 4096 }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        guard case let .sizeMismatch(what, expected, _)? = await updateError(client) else {
            return XCTFail("expected a size error")
        }
        XCTAssertEqual(what, "uncompressed catalog")
        XCTAssertEqual(expected, 4096)
        try fixture.assertCurrent(version: 2, source: .installed)
    }

    // MARK: - Manifest

    func testUnsignedManifest() async throws {
        try fixture.rewriteManifest(signWith: nil) { _ in }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(.unsigned, server: server.url)
    }

    func testSignatureByUntrustedKey() async throws {
        let stranger = KeyPair.generate()
        try fixture.rewriteManifest(signWith: stranger) { _ in }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(.untrustedKey(keyID: stranger.publicKey.keyID), server: server.url)
    }

    func testAlteredManifest() async throws {
        let path = fixture.publishDirectory + "/manifest.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""catalogVersion":3"#, with: #""catalogVersion":4"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(.badSignature(keyID: fixture.keys.publicKey.keyID), server: server.url)
    }

    func testOlderVersionIsRefusedAndEqualIsUpToDate() async throws {
        // Replay: the server (or an attacker) serves the old, validly signed v2 manifest
        // after v3 was installed.
        let directory = fixture.publishDirectory
        let oldManifest = fixture.root + "/v2-manifest.json"
        // Rebuild a v2 manifest as it was: publish v2 into a second directory.
        let other = fixture.root + "/publish-old"
        try fixture.publish(version: 2, to: other)
        try FileManager.default.copyItem(atPath: other + "/manifest.json", toPath: oldManifest)
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        _ = try await client.update()
        try fixture.assertCurrent(version: 3, source: .installed)

        try FileManager.default.removeItem(atPath: directory + "/manifest.json")
        try FileManager.default.copyItem(atPath: oldManifest, toPath: directory + "/manifest.json")
        try FileManager.default.copyItem(atPath: other + "/catalogs", toPath: directory + "/old-catalogs")
        let error = await updateError(client)
        XCTAssertEqual(error, .notNewer(identity: "test.agro", offered: 2, installed: 3))
        try fixture.assertCurrent(version: 3, source: .installed)

        // Equal: nothing to install, not an error.
        try fixture.publish(version: 3, to: fixture.root + "/publish-equal")
        try FileManager.default.removeItem(atPath: directory + "/manifest.json")
        try FileManager.default.copyItem(
            atPath: fixture.root + "/publish-equal/manifest.json", toPath: directory + "/manifest.json")
        let outcome = try await client.update()
        guard case let .upToDate(info) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(info.identity, "test.agro")
        XCTAssertEqual(info.version, 3)
        try fixture.assertCurrent(version: 3, source: .installed)
    }

    func testExpiredManifest() async throws {
        let other = fixture.root + "/publish-expired"
        let manifest = try fixture.publish(version: 4, expiry: 3600, now: Date().addingTimeInterval(-7200), to: other)
        let server = try FaultyHTTPServer { FaultyHTTPServer.file($0, in: other) }
        defer { server.stop() }
        try await assertFails(.expired(expiresAt: manifest.expiresAt), server: server.url)
    }

    func testSchemaTooNewInManifest() async throws {
        try fixture.rewriteManifest(signWith: fixture.keys) { $0.schemaVersion = CatalogSchema.version + 1 }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(
            .schemaTooNew(found: CatalogSchema.version + 1, supported: CatalogSchema.version), server: server.url)
        let error = UpdateError.schemaTooNew(found: 2, supported: 1)
        XCTAssertTrue(error.message.contains("this catalog needs a newer agro"))
    }

    func testSchemaTooNewInsideTheFile() async throws {
        // A file whose own metadata says schema N+1, published by hand under a manifest that
        // claims the current schema: the file check catches it.
        let path = fixture.root + "/future.sqlite"
        try TestCatalogs.make(at: path, version: 4)
        let queue = try DatabaseQueue(path: path)
        try queue.inDatabase { db in
            try db.execute(
                sql: "UPDATE catalog_metadata SET value = ? WHERE key = 'schema_version'",
                arguments: ["\(CatalogSchema.version + 1)"])
        }
        try queue.close()
        let compressed = fixture.publishDirectory + "/catalogs/future.sqlite.gz"
        try Gzip.compress(file: path, to: compressed)
        try fixture.rewriteManifest(signWith: fixture.keys) {
            $0.catalogVersion = 4
            $0.file = Manifest.CatalogFile(
                path: "catalogs/future.sqlite.gz", compressed: try! FileSystem.digest(of: compressed),
                uncompressed: try! FileSystem.digest(of: path))
        }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        try await assertFails(
            .schemaTooNew(found: CatalogSchema.version + 1, supported: CatalogSchema.version), server: server.url)
    }

    func testCorruptCatalogWithMatchingHashesFailsIntegrityCheck() async throws {
        // The publisher's own file is damaged (hashes computed after the damage).
        let path = fixture.root + "/damaged.sqlite"
        try TestCatalogs.make(at: path, version: 4, products: 400)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for offset in stride(from: 4096 * 3, to: bytes.count - 4096, by: 4096) { bytes[offset + 100] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        let compressed = fixture.publishDirectory + "/catalogs/damaged.sqlite.gz"
        try Gzip.compress(file: path, to: compressed)
        try fixture.rewriteManifest(signWith: fixture.keys) {
            $0.catalogVersion = 4
            $0.file = Manifest.CatalogFile(
                path: "catalogs/damaged.sqlite.gz", compressed: try! FileSystem.digest(of: compressed),
                uncompressed: try! FileSystem.digest(of: path))
        }
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        guard case .catalogRejected? = await updateError(client) else { return XCTFail("expected the catalog to be rejected") }
        try fixture.assertCurrent(version: 2, source: .installed)
        // Nothing half-installed is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.store.catalogsDirectory).filter {
            $0.hasPrefix("incoming")
        }
        XCTAssertEqual(leftovers, [])
    }

    /// Runs an update while sampling the size of the download on disk.
    private func updateErrorTracking(_ client: UpdateClient, _ counter: ByteCounter) async -> UpdateError? {
        let downloads = fixture.store.catalogsDirectory + "/downloads"
        do {
            _ = try await client.update { event in
                if case .downloading = event {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? [] {
                        counter.record(FileSystem.size(downloads + "/" + name) ?? 0)
                    }
                }
            }
            return nil
        } catch {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? [] {
                counter.record(FileSystem.size(downloads + "/" + name) ?? 0)
            }
            return error as? UpdateError
        }
    }
}

final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    func record(_ size: Int64) { lock.withLock { value = max(value, size) } }
    var maximum: Int64 { lock.withLock { value } }
}
