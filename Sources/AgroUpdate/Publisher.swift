import AgroDomain
import AgroStore
import Foundation

/// Publishes catalogs into a static directory that any web server, CDN or object store can
/// serve unchanged:
///
///     DIR/manifest.json                   signed; small; revalidated by clients (ETag)
///     DIR/catalogs/<sha256>.sqlite.gz     compressed catalogs named by the sha256 of their
///                                         compressed bytes: immutable, cacheable for ever
///
/// Earlier versions stay in the directory and in the manifest's `releases`.
public enum Publisher {
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
    /// - Throws: `UpdateError.notGreaterThanPublished` when the version is not greater than
    ///   the newest published one; `.publishIdentityMismatch` when the directory publishes
    ///   another identity; `CatalogError` when the file is not a usable catalog.
    @discardableResult
    public static func publish(
        catalog: String, to directory: String, key: KeyPair, expiry: TimeInterval = 30 * 24 * 3600, now: Date = Date(),
        maxVersionStep: Int? = nil
    ) throws -> Manifest {
        let info = try CatalogStore.inspect(catalog, full: true)
        let manifestPath = directory + "/manifest.json"
        var releases: [Manifest.Release] = []
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
            releases = [Manifest.Release(
                catalogVersion: existing.catalogVersion, schemaVersion: existing.schemaVersion,
                builtAt: existing.builtAt, publishedAt: existing.publishedAt, file: existing.file)] + existing.releases
        }

        let catalogsDirectory = directory + "/catalogs"
        do {
            try FileManager.default.createDirectory(atPath: catalogsDirectory, withIntermediateDirectories: true)
        } catch {
            throw UpdateError.io(path: catalogsDirectory, reason: error.localizedDescription)
        }
        let temporary = catalogsDirectory + "/.publishing-\(getpid()).gz"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        // One pass over the catalog after the integrity check: the digests come from the compression.
        let (uncompressed, compressed) = try Gzip.compress(file: catalog, to: temporary)
        let relativePath = "catalogs/\(compressed.sha256).sqlite.gz"
        try FileSystem.rename(temporary, to: directory + "/" + relativePath)
        try FileSystem.fsync(directory: catalogsDirectory)

        let unsigned = Manifest(
            identity: info.identity, title: info.title, catalogVersion: info.version, schemaVersion: info.schemaVersion,
            locales: info.locales.locales, builtAt: info.builtAt, publishedAt: Timestamp.format(now),
            expiresAt: Timestamp.format(now.addingTimeInterval(expiry)),
            file: Manifest.CatalogFile(path: relativePath, compressed: compressed, uncompressed: uncompressed),
            releases: releases, maxVersionStep: maxVersionStep)
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
}
