import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import GRDB
import XCTest

@testable import AgroUpdate
@testable import AgroUpdateClient

/// What the progress events say about the path an update took.
extension ProgressLog {
    /// The reasons of every fallback to the full download.
    var fallbacks: [String] {
        events.compactMap { if case let .fallingBack(error, _) = $0 { error.message } else { nil } }
    }
    /// The largest `total` of a download event.
    var downloadTotal: Int64? {
        events.compactMap { if case let .downloading(_, total) = $0 { total } else { nil } }.max()
    }
}

/// Publishing deltas, taking the cheapest path, and falling back to the full file on every kind
/// of delta failure, each time ending with the new catalog installed and answering.
final class DeltaUpdateTests: XCTestCase {
    private var fixture: Fixture!

    override func setUp() async throws {
        fixture = try Fixture()
    }

    override func tearDown() {
        fixture = nil
    }

    /// test.agro v2 installed from the server (full), then v3 published with deltas.
    private func installV2PublishV3() async throws -> Manifest {
        try fixture.publish(version: 2, deltas: 3)
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        _ = try await fixture.client(server.url).update()
        try fixture.assertCurrent(version: 2, source: .installed)
        return try fixture.publish(version: 3, deltas: 3)
    }

    /// The catalog in use answers a full-text search with the new version's words (the search
    /// index was rebuilt, not left as it was).
    private func assertSearchFinds(version: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let catalog = try SQLiteCatalog(path: try fixture.store.select().path)
        defer { try? catalog.close() }
        let hits = try catalog.search("Product 7 v\(version)", kinds: nil, page: PageRequest(perPage: 5), locale: "en")
        XCTAssertEqual(hits.items.first?.id, "p7", file: file, line: line)
        let stale = try catalog.search("v\(version - 1)", kinds: nil, page: PageRequest(perPage: 5), locale: "en")
        XCTAssertEqual(stale.items.count, 0, "no hit on the previous version's words", file: file, line: line)
    }

    func testPublisherListsSignedDeltasFromTheLastVersions() throws {
        for version in 1...5 { try fixture.publish(version: version, deltas: 3) }
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.publishDirectory + "/manifest.json"))
        let manifest = try Manifest.verified(data, trustedKeys: [try PublicSigningKey.read(file: fixture.trustFile)])
        // v5 from 4, 3, 2 (three), then those published with v4 (from 3, 2, 1), v3 (2, 1), v2 (1).
        let pairs = (manifest.deltas ?? []).map { "\($0.fromVersion)>\($0.toVersion)" }
        XCTAssertEqual(pairs, ["4>5", "3>5", "2>5", "3>4", "2>4", "1>4", "2>3", "1>3", "1>2"])
        for delta in manifest.deltas ?? [] {
            let path = fixture.publishDirectory + "/" + delta.file.path
            XCTAssertEqual(try FileSystem.digest(of: path), delta.file.compressed)
            XCTAssertEqual(delta.fromContentHash, try ContentHash.of(catalog: fixture.builtPath(version: delta.fromVersion)))
            XCTAssertEqual(delta.toContentHash, try ContentHash.of(catalog: fixture.builtPath(version: delta.toVersion)))
            XCTAssertLessThan(delta.file.compressed.size, manifest.file.compressed.size)
        }
        XCTAssertEqual(manifest.contentHash, try ContentHash.of(catalog: fixture.builtPath(version: 5)))
        // The signature covers the deltas: a changed size no longer verifies.
        var value = try JSONValue.parse(data)
        if case var .object(members) = value, case var .array(deltas)? = members["deltas"],
            case var .object(first) = deltas[0], case var .object(file)? = first["file"],
            case var .object(compressed)? = file["compressed"]
        {
            compressed["size"] = .integer(1)
            file["compressed"] = .object(compressed)
            first["file"] = .object(file)
            deltas[0] = .object(first)
            members["deltas"] = .array(deltas)
            value = .object(members)
        } else {
            XCTFail("no delta in the manifest's JSON")
        }
        XCTAssertThrowsError(
            try Manifest.verified(value.canonicalBytes, trustedKeys: [try PublicSigningKey.read(file: fixture.trustFile)])
        ) {
            guard case .badSignature? = $0 as? UpdateError else { return XCTFail("expected a bad signature, got \($0)") }
        }
        // --deltas 0 writes none to the new version.
        XCTAssertNil(try fixture.publish(version: 6, deltas: 0).deltas?.filter { $0.toVersion == 6 }.first)
    }

    func testPublisherDropsDeltasNamingHashesOfAnotherDefinition() throws {
        for version in 1...2 { try fixture.publish(version: version, deltas: 1) }
        // As an earlier definition of the content hash would have written them: other hashes
        // for v1 and v2 in the delta 1>2 and in the releases.
        let earlier = String(repeating: "ab", count: 32)
        try fixture.rewriteManifest(signWith: fixture.keys) { manifest in
            manifest.contentHash = earlier
            manifest.deltas = manifest.deltas?.map { delta in
                var delta = delta
                delta.toContentHash = earlier
                return delta
            }
        }
        let v3 = try fixture.publish(version: 3, deltas: 1)
        // v2's hash is computed again for the delta 2>3: the delta 1>2, ending at the earlier
        // hash of v2, could join no chain and is dropped; v2's release takes the new hash.
        XCTAssertEqual((v3.deltas ?? []).map { "\($0.fromVersion)>\($0.toVersion)" }, ["2>3"])
        let v2 = try XCTUnwrap(v3.releases.first { $0.catalogVersion == 2 })
        XCTAssertEqual(v2.contentHash, try ContentHash.of(catalog: fixture.builtPath(version: 2)))
    }

    func testUpdateDownloadsOnlyTheDeltaAndRebuildsTheSearchIndex() async throws {
        let v3 = try await installV2PublishV3()
        let delta = try XCTUnwrap(v3.deltas?.first { $0.fromVersion == 2 })
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        let check = try await client.check()
        XCTAssertEqual(check.deltaChain, [delta])
        XCTAssertEqual(check.downloadSize, delta.file.compressed.size)
        XCTAssertEqual(check.fullDownloadSize, v3.file.compressed.size)

        let log = ProgressLog()
        let outcome = try await client.update { log.append($0) }
        guard case .installed = outcome else { return XCTFail("not installed: \(outcome)") }
        try fixture.assertCurrent(version: 3, source: .installed)
        try assertSearchFinds(version: 3)
        XCTAssertEqual(log.fallbacks, [])
        XCTAssertEqual(log.downloadTotal, delta.file.compressed.size)
        let paths = server.requests.map(\.path)
        XCTAssertTrue(paths.contains("/" + delta.file.path))
        XCTAssertFalse(paths.contains("/" + v3.file.path), "the full catalog was not fetched")
        XCTAssertEqual(
            try ContentHash.of(catalog: try fixture.store.select().path),
            try ContentHash.of(catalog: fixture.builtPath(version: 3)))
        XCTAssertEqual(try fixture.store.verify().info.version, 3)
    }

    func testChainOfDeltasFromTheBundledCatalog() async throws {
        // The bundled catalog is test.agro v1 with the same content as the published v1.
        try fixture.publish(version: 1, deltas: 1)
        try fixture.publish(version: 2, deltas: 1)
        let v3 = try fixture.publish(version: 3, deltas: 1)
        XCTAssertEqual((v3.deltas ?? []).map { "\($0.fromVersion)>\($0.toVersion)" }, ["2>3", "1>2"])
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        let client = try fixture.client(server.url)
        let check = try await client.check()
        XCTAssertEqual(check.deltaChain.map(\.fromVersion), [1, 2])
        XCTAssertEqual(check.downloadSize, (v3.deltas ?? []).map(\.file.compressed.size).reduce(0, +))
        let log = ProgressLog()
        _ = try await client.update { log.append($0) }
        try fixture.assertCurrent(version: 3, source: .installed)
        try assertSearchFinds(version: 3)
        XCTAssertEqual(log.fallbacks, [])
        XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/deltas/") }.count, 2)
        XCTAssertFalse(server.requests.contains { $0.path.hasPrefix("/catalogs/") })
    }

    func testFullFileWhenTheDeltasCostMoreBytes() async throws {
        let v3 = try await installV2PublishV3()
        try fixture.rewriteManifest(signWith: fixture.keys) { manifest in
            manifest.deltas = manifest.deltas?.map { delta in
                var delta = delta
                delta.file.compressed.size = v3.file.compressed.size
                return delta
            }
        }
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        let check = try await fixture.client(server.url).check()
        XCTAssertEqual(check.deltaChain, [])
        XCTAssertEqual(check.downloadSize, v3.file.compressed.size)
    }

    // MARK: - Verifying only the tables a delta changes

    /// v2 (label texts long enough for `product_section_i18n` to be listed in a delta's header)
    /// installed from the server (full), then v3 published as a copy of v2 in which only the dose
    /// of its one use and the version differ (no indexed text: the search index stays as it is, and
    /// the listed tables are not hashed again). `dose` is v3's dose.
    private func installV2PublishDoseChange(dose: Double = 42.5) async throws -> Manifest {
        try TestCatalogs.make(at: fixture.builtPath(version: 2), version: 2, padding: 4000, pickers: true)
        try Publisher.publish(catalog: fixture.builtPath(version: 2), to: fixture.publishDirectory, key: fixture.keys, deltas: 3)
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        _ = try await fixture.client(server.url).update()
        try buildDoseChange(dose: dose, at: fixture.builtPath(version: 3))
        return try Publisher.publish(
            catalog: fixture.builtPath(version: 3), to: fixture.publishDirectory, key: fixture.keys, expiry: 3600, now: Date(),
            deltas: 3)
    }

    private func buildDoseChange(dose: Double, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: fixture.builtPath(version: 2), toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE uses SET dose_from = ? WHERE id = (SELECT min(id) FROM uses)", arguments: [dose])
            try db.execute(sql: "UPDATE catalog_metadata SET value = '3' WHERE key = 'version'")
        }
        try queue.close()
    }

    /// The catalog in use is v3 with v3's content, and its first use has `dose`.
    private func assertDoseChangeInstalled(dose: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let current = try fixture.store.select()
        XCTAssertEqual(current.info.version, 3, file: file, line: line)
        XCTAssertEqual(
            try ContentHash.of(catalog: current.path), try ContentHash.of(catalog: fixture.builtPath(version: 3)),
            file: file, line: line)
        let queue = try DatabaseQueue(path: current.path)
        defer { try? queue.close() }
        let found = try queue.read { try Double.fetchOne($0, sql: "SELECT dose_from FROM uses ORDER BY id LIMIT 1") }
        XCTAssertEqual(found, dose, file: file, line: line)
        XCTAssertEqual(try fixture.store.verify().info.version, 3, file: file, line: line)
    }

    func testDeltaHeaderListsTheHashesOfTheLargeTablesOfItsStartingPoint() async throws {
        let v3 = try await installV2PublishDoseChange()
        let delta = try XCTUnwrap(v3.deltas?.first)
        var bytes = Data()
        _ = try Gzip.decompress(file: fixture.publishDirectory + "/" + delta.file.path, limit: delta.file.uncompressed.size) {
            bytes.append(contentsOf: $0)
        }
        let listed = try XCTUnwrap(try DeltaFile.decode(bytes).header.fromTableHashes)
        let all = try ContentHash.sections(of: fixture.builtPath(version: 2))
        // 20 products with two 4,000-byte label texts each: more than 64 KiB; the version's
        // table and the schema are a few hundred bytes.
        XCTAssertTrue(listed.keys.contains("product_section_i18n"), "\(listed.keys.sorted())")
        XCTAssertFalse(listed.keys.contains("catalog_metadata"))
        XCTAssertFalse(listed.keys.contains(ContentHash.schemaSection))
        XCTAssertEqual(listed, all.filter { listed.keys.contains($0.key) })
    }

    func testDoseChangeInstallsFromTheDelta() async throws {
        let v3 = try await installV2PublishDoseChange()
        let delta = try XCTUnwrap(v3.deltas?.first { $0.fromVersion == 2 && $0.toVersion == 3 })
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        let log = ProgressLog()
        _ = try await fixture.client(server.url).update { log.append($0) }
        XCTAssertEqual(log.fallbacks, [])
        XCTAssertEqual(log.downloadTotal, delta.file.compressed.size)
        try assertDoseChangeInstalled(dose: 42.5)
    }

    func testWrongDoseFromADeltaFallsBack() async throws {
        let v3 = try await installV2PublishDoseChange()
        // A changeset to another dose, listed with v3's content hash: only `uses` is hashed
        // again, and its hash is not v3's.
        let other = fixture.root + "/other-3.sqlite"
        try buildDoseChange(dose: 7, at: other)
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: fixture.builtPath(version: 2), to: other))
        try replaceDelta(of: v3, from: 2) { header, _ in (header, changeset) }
        try await assertContentHashFallsBack()
    }

    func testWrongListedTableHashFallsBack() async throws {
        let v3 = try await installV2PublishDoseChange()
        // The header gives another hash for a table the delta leaves alone: the copy's content
        // hash made with it is not the manifest's.
        try replaceDelta(of: v3, from: 2) { header, changeset in
            var header = header
            header.fromTableHashes?["product_section_i18n"] = String(repeating: "0", count: 64)
            return (header, changeset)
        }
        try await assertContentHashFallsBack()
    }

    /// Updates from the published site: exactly one fallback, for the content hash, and the
    /// dose change installed by the full download.
    private func assertContentHashFallsBack() async throws {
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        let log = ProgressLog()
        _ = try await fixture.client(server.url).update { log.append($0) }
        XCTAssertEqual(log.fallbacks.count, 1)
        XCTAssertTrue(log.fallbacks.first?.contains("content hash") ?? false, "\(log.fallbacks)")
        try assertDoseChangeInstalled(dose: 42.5)
    }

    // MARK: - Falling back to the full download

    /// Updates with the server's answers changed by `change`: v3 ends installed and answering,
    /// after exactly one fallback whose reason contains `reason`, and the full file was fetched.
    private func assertFallsBack(
        _ reason: String, file: StaticString = #filePath, line: UInt = #line,
        server change: @escaping @Sendable (FaultyHTTPServer.Request, String) -> FaultyHTTPServer.Reply? = { _, _ in nil }
    ) async throws {
        let v3 = try fixture.readManifest()
        let server = try fixture.server(change)
        defer { server.stop() }
        let log = ProgressLog()
        _ = try await fixture.client(server.url).update { log.append($0) }
        try fixture.assertCurrent(version: 3, source: .installed, file: file, line: line)
        try assertSearchFinds(version: 3, file: file, line: line)
        XCTAssertEqual(log.fallbacks.count, 1, "one fallback line", file: file, line: line)
        let said = log.fallbacks.first ?? ""
        XCTAssertTrue(said.contains(reason), "\"\(said)\" should say \"\(reason)\"", file: file, line: line)
        XCTAssertFalse(said.contains("\n"), file: file, line: line)
        XCTAssertTrue(server.requests.contains { $0.path == "/" + v3.file.path }, "full file fetched", file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.store.downloadsDirectory), [], file: file, line: line)
    }

    func testMissingDeltaFallsBack() async throws {
        _ = try await installV2PublishV3()
        try await assertFallsBack("HTTP 404") { request, _ in
            request.path.hasPrefix("/deltas/") ? .respond(status: 404, body: Data("gone".utf8)) : nil
        }
    }

    func testDamagedDeltaFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        let delta = try XCTUnwrap(v3.deltas?.first)
        try fixture.mutatePublished(delta.file.path) { $0[$0.count / 2] ^= 0xFF }
        try await assertFallsBack("delta")
    }

    func testInstalledCatalogChangedSinceItsInstallFallsBack() async throws {
        _ = try await installV2PublishV3()
        let installed = try XCTUnwrap(fixture.store.installedPath)
        let queue = try DatabaseQueue(path: installed)
        try await queue.write {
            try $0.execute(sql: "UPDATE product_i18n SET name = 'Changed' WHERE product_id = 'p1' AND locale = 'en'")
        }
        try queue.close()
        try await assertFallsBack("the installed catalog no longer matches its recorded hash")
    }

    func testConflictingDeltaFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        // A delta computed from another v2 (one name changed) but labelled as from the real v2:
        // the change to that row finds the installed row different and the transaction aborts.
        let other = fixture.root + "/other-2.sqlite"
        try FileManager.default.copyItem(atPath: fixture.builtPath(version: 2), toPath: other)
        let queue = try DatabaseQueue(path: other)
        try await queue.write {
            try $0.execute(sql: "UPDATE product_i18n SET name = 'Other' WHERE product_id = 'p1' AND locale = 'en'")
        }
        try queue.close()
        let changeset = try XCTUnwrap(try DeltaFile.changeset(from: other, to: fixture.builtPath(version: 3)))
        try replaceDelta(of: v3, from: 2) { header, _ in (header, changeset) }
        try await assertFallsBack("does not fit the installed catalog")
    }

    func testDeltaProducingAnotherContentHashFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        let wrong = String(repeating: "ab", count: 32)
        // Header and manifest agree on a content hash the applied delta does not produce.
        try replaceDelta(of: v3, from: 2) { header, changeset in
            var header = header
            header.toContentHash = wrong
            return (header, changeset)
        } manifest: { manifest in
            manifest.contentHash = wrong
        }
        try await assertFallsBack("content hash")
    }

    func testDeltaForAnotherIdentityIsRefused() async throws {
        let v3 = try await installV2PublishV3()
        try replaceDelta(of: v3, from: 2) { header, changeset in
            var header = header
            header.identity = "other.agro"
            return (header, changeset)
        }
        try await assertFallsBack("is for other.agro version 2 to 3")
    }

    func testDeltaForAnotherVersionIsRefused() async throws {
        let v3 = try await installV2PublishV3()
        try replaceDelta(of: v3, from: 2) { header, changeset in
            var header = header
            header.fromVersion = 1
            return (header, changeset)
        }
        try await assertFallsBack("is for test.agro version 1 to 3")
    }

    // MARK: - Hostile servers on delta files

    func testHugeContentLengthOnADeltaFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        let size = try XCTUnwrap(v3.deltas?.first).file.compressed.size
        try await assertFallsBack("the server sent more than the \(size) bytes the manifest declares") { request, _ in
            request.path.hasPrefix("/deltas/") ? .hugeContentLength() : nil
        }
    }

    func testEndlessDeltaFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        let size = try XCTUnwrap(v3.deltas?.first).file.compressed.size
        try await assertFallsBack("the server sent more than the \(size) bytes the manifest declares") { request, _ in
            request.path.hasPrefix("/deltas/") ? .endlessBody() : nil
        }
    }

    func testTruncatedDeltaFallsBack() async throws {
        _ = try await installV2PublishV3()
        try await assertFallsBack("download ended after 10 of") { request, directory in
            guard request.path.hasPrefix("/deltas/"),
                case let .respond(status, headers, body, _, _, _) = FaultyHTTPServer.file(request, in: directory)
            else { return nil }
            return .respond(status: status, headers: headers, body: body, closeAfter: 10)
        }
    }

    func testDeltaThatInflatesBeyondItsDeclaredSizeFallsBack() async throws {
        let v3 = try await installV2PublishV3()
        // A gzip bomb in place of the delta, signed with its true compressed digest but the
        // delta's small uncompressed size: inflating stops at that size.
        let bomb = HostileBodies.gzipOfSpaces(count: 2 << 20)  // about 2 KB: still cheaper than the full file
        let delta = try XCTUnwrap(v3.deltas?.first)
        try bomb.write(to: URL(fileURLWithPath: fixture.publishDirectory + "/" + delta.file.path))
        let digest = try FileSystem.digest(of: fixture.publishDirectory + "/" + delta.file.path)
        XCTAssertLessThan(digest.size, v3.file.compressed.size, "the client must prefer the bomb to the full file")
        try fixture.rewriteManifest(signWith: fixture.keys) { manifest in
            manifest.deltas = manifest.deltas?.map { entry in
                var entry = entry
                if entry == delta { entry.file.compressed = digest }
                return entry
            }
        }
        try await assertFallsBack("a delta file is damaged: the uncompressed catalog is") { _, _ in nil }
    }

    /// Replaces the published delta from `version` to the manifest's version by one built from
    /// `change(header, changeset)`, and re-signs the manifest listing it (`manifest` may change
    /// more), so that only the delta's content is wrong.
    private func replaceDelta(
        of manifest: Manifest, from version: Int, _ change: (DeltaHeader, Data) -> (DeltaHeader, Data),
        manifest adjust: (inout Manifest) -> Void = { _ in }
    ) throws {
        let delta = try XCTUnwrap(manifest.deltas?.first { $0.fromVersion == version && $0.toVersion == manifest.catalogVersion })
        let published = fixture.publishDirectory + "/" + delta.file.path
        var bytes = Data()
        _ = try Gzip.decompress(file: published, limit: delta.file.uncompressed.size) { bytes.append(contentsOf: $0) }
        let (header, changeset) = try DeltaFile.decode(bytes)
        let (newHeader, newChangeset) = change(header, changeset)
        let plain = fixture.root + "/replaced.delta"
        try DeltaFile.encode(newHeader, changeset: newChangeset).write(to: URL(fileURLWithPath: plain))
        let (uncompressed, compressed) = try Gzip.compress(file: plain, to: published)
        try fixture.rewriteManifest(signWith: fixture.keys) { manifest in
            manifest.deltas = manifest.deltas?.map { entry in
                var entry = entry
                if entry == delta {
                    entry.file.compressed = compressed
                    entry.file.uncompressed = uncompressed
                    if newHeader.toContentHash != delta.toContentHash { entry.toContentHash = newHeader.toContentHash }
                }
                return entry
            }
            adjust(&manifest)
        }
    }
}

extension Fixture {
    /// The published manifest, as written.
    func readManifest() throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: publishDirectory + "/manifest.json")))
    }
}
