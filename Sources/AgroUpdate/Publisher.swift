import AgroDomain
import AgroStore
import Foundation

/// Publishes catalogs into a static directory that any web server, CDN or object store can
/// serve unchanged:
///
///     DIR/manifest.json                   signed; small; revalidated by clients (ETag)
///     DIR/catalogs/<sha256>.sqlite.gz     compressed catalogs named by the sha256 of their
///                                         compressed bytes: immutable, cacheable for ever
///     DIR/deltas/<sha256>.delta.gz        compressed deltas (`DeltaFile`) from earlier versions
///
/// Earlier versions stay in the directory and in the manifest's `releases`; they are the
/// history deltas are computed from.
///
///     let key = try KeyPair.read(privateKeyFile: "publisher.key")
///     let manifest = try Publisher.publish(catalog: "catalog.sqlite", to: "public", key: key, deltas: 3)
///     print(manifest.catalogVersion, manifest.deltas?.count ?? 0)
public enum Publisher {
    /// How many deltas a manifest lists at most (the newest first): older chains fall back to
    /// the full file, and the manifest stays far below its size limit.
    public static let maximumListedDeltas = 60
    /// Compresses and publishes a catalog file, then signs and writes the manifest.
    ///
    /// The catalog file is written before the manifest that names it, and the manifest is
    /// replaced by an atomic rename, so a client never sees a manifest without its file.
    ///
    /// - Parameters:
    ///   - catalog: the catalog file to publish; it must pass the integrity check.
    ///   - directory: the publishing directory, created if needed.
    ///   - key: the signing key pair.
    ///   - expiry: how long clients accept this manifest; publish again before it runs out.
    ///   - now: the signing time.
    ///   - maxVersionStep: the publisher's policy on version jumps (see `Manifest.maxVersionStep`).
    ///   - deltas: how many of the latest published versions get a delta to this one (0: none).
    ///     A delta is left out when the schemas differ or when it would not be smaller than the
    ///     full compressed file.
    /// - Throws: `UpdateError.notGreaterThanPublished` when the version is not greater than
    ///   the newest published one; `.publishIdentityMismatch` when the directory publishes
    ///   another identity; `CatalogError` when the file is not a usable catalog.
    @discardableResult
    public static func publish(
        catalog: String, to directory: String, key: KeyPair, expiry: TimeInterval = 30 * 24 * 3600, now: Date = Date(),
        maxVersionStep: Int? = nil, deltas deltaCount: Int = 3
    ) throws -> Manifest {
        let info = try CatalogStore.inspect(catalog, full: true)
        let manifestPath = directory + "/manifest.json"
        var releases: [Manifest.Release] = []
        var carriedDeltas: [Manifest.Delta] = []
        if let data = FileManager.default.contents(atPath: manifestPath) {
            // The publisher reads its own manifest; the signature is not what matters here.
            guard let existing = try? JSONDecoder().decode(Manifest.self, from: data) else {
                throw UpdateError.manifestInvalid("\(manifestPath) is not a manifest; move it away to publish here")
            }
            guard existing.identity == info.identity else {
                throw UpdateError.publishIdentityMismatch(catalog: info.identity, published: existing.identity)
            }
            let newest = max(existing.catalogVersion, existing.releases.map(\.catalogVersion).max() ?? 0)
            guard info.version > newest else {
                throw UpdateError.notGreaterThanPublished(version: info.version, newest: newest)
            }
            releases =
                [
                    Manifest.Release(
                        catalogVersion: existing.catalogVersion, schemaVersion: existing.schemaVersion,
                        builtAt: existing.builtAt, publishedAt: existing.publishedAt, file: existing.file,
                        contentHash: existing.contentHash)
                ] + existing.releases
            carriedDeltas = existing.deltas ?? []
        }

        let catalogsDirectory = directory + "/catalogs"
        try FileSystem.createDirectory(catalogsDirectory)
        let temporary = catalogsDirectory + "/.publishing-\(getpid()).gz"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        // One pass over the catalog after the integrity check: the digests come from the compression.
        let (uncompressed, compressed) = try Gzip.compress(file: catalog, to: temporary)
        let relativePath = "catalogs/\(compressed.sha256).sqlite.gz"
        try FileSystem.rename(temporary, to: directory + "/" + relativePath)
        try FileSystem.fsync(directory: catalogsDirectory)

        let contentHash = try ContentHash.of(catalog: catalog)
        var deltas: [Manifest.Delta] = []
        for release in releases.prefix(max(0, deltaCount)) {
            let header = DeltaHeader(
                identity: info.identity, fromVersion: release.catalogVersion, fromContentHash: "",
                toVersion: info.version, toContentHash: contentHash)
            if let delta = try publishDelta(
                from: release, to: catalog, header: header, directory: directory, fullSize: compressed.size)
            {
                deltas.append(delta)
            }
        }
        // Hashes recomputed now follow this build's definition (`ContentHash`); an earlier
        // manifest's may follow another. A release takes its recomputed hash, and a carried delta
        // that names another hash for a version recomputed here is dropped: no client could
        // reach or leave that version through it.
        var current = [info.version: contentHash]
        for delta in deltas { current[delta.fromVersion] = delta.fromContentHash }
        for index in releases.indices {
            if let hash = current[releases[index].catalogVersion] { releases[index].contentHash = hash }
        }
        let consistent = carriedDeltas.filter { delta in
            current[delta.fromVersion].map { $0 == delta.fromContentHash } ?? true
                && current[delta.toVersion].map { $0 == delta.toContentHash } ?? true
        }
        deltas = Array((deltas + consistent).prefix(maximumListedDeltas))

        let unsigned = Manifest(
            identity: info.identity, title: info.title, catalogVersion: info.version, schemaVersion: info.schemaVersion,
            locales: info.locales.locales, builtAt: info.builtAt, publishedAt: Timestamp.format(now),
            expiresAt: Timestamp.format(now.addingTimeInterval(expiry)),
            file: Manifest.CatalogFile(path: relativePath, compressed: compressed, uncompressed: uncompressed),
            releases: releases, maxVersionStep: maxVersionStep, contentHash: contentHash, deltas: deltas.isEmpty ? nil : deltas)
        let manifest = try key.sign(unsigned)
        let temporaryManifest = directory + "/.manifest-\(getpid()).json"
        guard FileManager.default.createFile(atPath: temporaryManifest, contents: manifest.fileBytes) else {
            throw UpdateError.io(path: temporaryManifest, reason: "cannot create")
        }
        try FileSystem.fsync(file: temporaryManifest)
        try FileSystem.rename(temporaryManifest, to: manifestPath)
        try FileSystem.fsync(directory: directory)
        return manifest
    }

    /// Writes the delta from a published release to `catalog` into `directory/deltas/`, named by
    /// its compressed sha256; nil when the release's file is gone or damaged, the schemas differ,
    /// or the delta is not smaller than the full file (`fullSize`).
    private static func publishDelta(
        from release: Manifest.Release, to catalog: String, header: DeltaHeader, directory: String, fullSize: Int64
    ) throws -> Manifest.Delta? {
        let published = directory + "/" + release.file.path
        guard Manifest.isSafeRelativePath(release.file.path), FileManager.default.fileExists(atPath: published) else {
            return nil
        }
        let deltasDirectory = directory + "/deltas"
        try FileSystem.createDirectory(deltasDirectory)
        let scratch = deltasDirectory + "/.publishing-\(getpid())"
        defer {
            for suffix in [".sqlite", ".delta", ".delta.gz"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        // The earlier version, decompressed from the directory (the publisher's history).
        guard FileManager.default.createFile(atPath: scratch + ".sqlite", contents: nil),
            let output = FileHandle(forWritingAtPath: scratch + ".sqlite")
        else { throw UpdateError.io(path: scratch + ".sqlite", reason: "cannot create") }
        let digests = try? Gzip.decompress(file: published, limit: release.file.uncompressed.size) { piece in
            try output.write(contentsOf: piece)
        }
        try? output.close()
        guard let digests, digests.uncompressed == release.file.uncompressed else { return nil }
        var header = header
        let sections = try ContentHash.measuredSections(of: scratch + ".sqlite")
        guard let fromContentHash = ContentHash.combine(sections.mapValues(\.digest)) else { return nil }
        header.fromContentHash = fromContentHash
        let listed = sections.filter { $0.key != ContentHash.schemaSection && $0.value.bytes >= DeltaFile.listedTableBytes }
        header.fromTableHashes = listed.isEmpty ? nil : listed.mapValues(\.digest)
        guard let changeset = try DeltaFile.changeset(from: scratch + ".sqlite", to: catalog) else { return nil }
        guard FileManager.default.createFile(atPath: scratch + ".delta", contents: DeltaFile.encode(header, changeset: changeset))
        else {
            throw UpdateError.io(path: scratch + ".delta", reason: "cannot create")
        }
        let (uncompressed, compressed) = try Gzip.compress(file: scratch + ".delta", to: scratch + ".delta.gz")
        guard compressed.size < fullSize else { return nil }
        let relativePath = "deltas/\(compressed.sha256).delta.gz"
        try FileSystem.rename(scratch + ".delta.gz", to: directory + "/" + relativePath)
        try FileSystem.fsync(directory: deltasDirectory)
        return Manifest.Delta(
            fromVersion: header.fromVersion, fromContentHash: header.fromContentHash, toVersion: header.toVersion,
            toContentHash: header.toContentHash,
            file: Manifest.CatalogFile(path: relativePath, compressed: compressed, uncompressed: uncompressed))
    }
}
