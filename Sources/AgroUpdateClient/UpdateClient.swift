import AgroDomain
import AgroStore
import AgroUpdate
import Crypto
import Foundation

/// What `agro db check` found.
public struct UpdateCheck: Sendable, Hashable {
    public enum Availability: Sendable, Hashable {
        /// The server has a newer catalog (or one of another identity than the bundled demo).
        case available
        /// The server's catalog is the one in use.
        case upToDate
    }

    /// The verified manifest.
    public var manifest: Manifest
    /// The server answered 304 Not Modified: the manifest is the one kept from the last check.
    public var notModified: Bool
    /// The catalog in use.
    public var active: CatalogSelection
    public var availability: Availability
    /// Bytes still to download for the update: the compressed size less any part already
    /// downloaded by an interrupted update.
    public var downloadSize: Int64
}

/// Where an update is, for a progress display.
public enum UpdateProgress: Sendable, Hashable {
    case fetchingManifest
    /// Bytes of the compressed catalog on disk so far, of `total`.
    case downloading(received: Int64, total: Int64)
    /// Decompressing and checking hashes, sizes and integrity.
    case verifying
    case installing(InstallStep)
}

/// What `agro db update` did.
public enum UpdateOutcome: Sendable, Hashable {
    case upToDate(CatalogInfo)
    case installed(from: CatalogInfo, to: CatalogInfo)
}

/// Checks, downloads, verifies and installs catalogs from an update server.
///
/// Nothing becomes current before every check has passed: the manifest's Ed25519 signature
/// by a trusted key and its expiry; a schema this build reads; a version greater than the
/// one in use (no replay of an old signed manifest); the compressed file's size and sha256,
/// never reading more bytes than declared; the uncompressed size and sha256; SQLite's
/// integrity check; and metadata agreeing with the manifest. Any failure leaves the current
/// catalog as it was.
public struct UpdateClient: Sendable {
    public let configuration: UpdateConfiguration
    public let store: CatalogStore
    private let now: @Sendable () -> Date
    private let fetcher: HTTPFetcher

    /// - Parameter now: the clock for expiry checks and the last-check time.
    public init(configuration: UpdateConfiguration, store: CatalogStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.store = store
        self.now = now
        fetcher = HTTPFetcher(configuration: configuration)
    }

    /// Fetches the manifest (conditionally: an unchanged one costs a 304), verifies it and
    /// says whether it offers an update.
    public func check() async throws -> UpdateCheck {
        let lock = try store.lock()
        defer { lock.unlock() }
        return try await checkLocked()
    }

    /// Installs the server's catalog if it is newer than the one in use.
    ///
    /// - Parameter progress: called as work proceeds, on the calling task or, while
    ///   downloading, on the download's own thread (often: once per chunk received); it must
    ///   return quickly, since the download waits for it.
    public func update(progress: @escaping @Sendable (UpdateProgress) -> Void = { _ in }) async throws -> UpdateOutcome {
        let lock = try store.lock()
        defer { lock.unlock() }
        store.removeUnreferencedFiles()
        progress(.fetchingManifest)
        let check = try await checkLocked()
        guard check.availability == .available else { return .upToDate(check.active.info) }
        let manifest = check.manifest
        let file = manifest.file

        let partial = store.partialDownloadPath(sha256: file.compressed.sha256)
        store.removeOtherDownloads(keeping: partial)
        let total = file.compressed.size
        try await fetcher.download(configuration.url(file.path), to: partial, size: total) { received in
            progress(.downloading(received: received, total: total))
        }

        progress(.verifying)
        let incoming = store.incomingPath()
        let info: CatalogInfo
        let digest: Manifest.Digest
        do {
            digest = try decompress(partial, to: incoming, file: file)
            info = try checkCatalog(incoming, against: manifest)
        } catch {
            try? FileManager.default.removeItem(atPath: incoming)
            throw error
        }
        try store.install(checkedFile: incoming, sha256: digest.sha256) { step in progress(.installing(step)) }
        try? FileManager.default.removeItem(atPath: partial)
        // Remembered after the install: an older manifest of this identity is refused from now on.
        var state = store.readState()
        var highest = state.highestInstalled ?? [:]
        highest[info.identity] = max(highest[info.identity] ?? info.version, info.version)
        state.highestInstalled = highest
        try? store.writeState(state)
        return .installed(from: check.active.info, to: info)
    }

    /// Returns to the previous installed catalog.
    public func rollback() throws -> RollbackResult { try store.rollback() }

    /// Re-checks the catalog in use.
    public func verify() throws -> VerificationReport { try store.verify() }

    // MARK: - Steps

    private func checkLocked() async throws -> UpdateCheck {
        var state = store.readState()
        let server = configuration.server.absoluteString
        let manifestURL = configuration.url("manifest.json")
        let cached = state.server == server ? store.readCachedManifest() : nil
        let etag = cached == nil ? nil : state.etag
        var notModified = false
        var data: Data
        var manifest: Manifest
        switch try await fetcher.fetchManifest(manifestURL, etag: etag) {
        case let .fetched(body, newTag):
            data = body
            state.etag = newTag
            manifest = try Manifest.verified(data, trustedKeys: configuration.trustedKeys, now: now())
        case .notModified:
            if let cached, let verified = try? Manifest.verified(cached, trustedKeys: configuration.trustedKeys, now: now()) {
                data = cached
                manifest = verified
                notModified = true
            } else {
                // A 304 with nothing usable kept to answer it (none, damaged, expired or signed by
                // a key no longer trusted): ask again without condition.
                guard case let .fetched(body, newTag) = try await fetcher.fetchManifest(manifestURL, etag: nil) else {
                    throw UpdateError.manifestInvalid("the server answered 304 to an unconditional request")
                }
                data = body
                state.etag = newTag
                manifest = try Manifest.verified(data, trustedKeys: configuration.trustedKeys, now: now())
            }
        }
        guard manifest.schemaVersion <= CatalogSchema.version else {
            throw UpdateError.schemaTooNew(found: manifest.schemaVersion, supported: CatalogSchema.version)
        }
        let active = try store.select()
        if active.source != .bundled {
            // Catalogs installed before this record existed count too.
            var highest = state.highestInstalled ?? [:]
            highest[active.info.identity] = max(highest[active.info.identity] ?? active.info.version, active.info.version)
            state.highestInstalled = highest
        }
        let availability = try compare(manifest, with: active, highest: state.highestInstalled?[manifest.identity])
        // Only a verified manifest is kept, with its ETag: a bad one must not earn 304s.
        if !notModified { try store.writeCachedManifest(data) }
        state.server = server
        state.lastCheck = now()
        try store.writeState(state)
        let partial = store.partialDownloadPath(sha256: manifest.file.compressed.sha256)
        let downloaded = min(FileSystem.size(partial) ?? 0, manifest.file.compressed.size)
        return UpdateCheck(
            manifest: manifest, notModified: notModified, active: active, availability: availability,
            downloadSize: availability == .available ? manifest.file.compressed.size - downloaded : 0)
    }

    /// Versions compare only within one identity. The bundled demo gives way to any catalog
    /// of the configured server (unless an identity is pinned); an installed catalog of another
    /// identity does not. `highest` is the highest version of the manifest's identity ever
    /// installed here: nothing older is installed again unless the user allows a downgrade.
    private func compare(_ manifest: Manifest, with active: CatalogSelection, highest: Int?) throws -> UpdateCheck.Availability {
        if let pinned = configuration.pinnedIdentity, manifest.identity != pinned {
            throw UpdateError.identityNotPinned(offered: manifest.identity, pinned: pinned)
        }
        let installed = manifest.identity == active.info.identity ? active.info.version : nil
        if let step = manifest.maxVersionStep, let base = [highest, installed].compactMap({ $0 }).max() {
            let (jump, overflow) = manifest.catalogVersion.subtractingReportingOverflow(base)
            if overflow || jump > step {
                throw UpdateError.versionJump(
                    identity: manifest.identity, offered: manifest.catalogVersion, highest: base, maxStep: step)
            }
        }
        if !configuration.allowDowngrade {
            if let installed, manifest.catalogVersion < installed {
                throw UpdateError.notNewer(identity: manifest.identity, offered: manifest.catalogVersion, installed: installed)
            }
            // Older than one installed before, though not than the one in use (after a rollback
            // or a fallback to the bundled catalog).
            if let highest, manifest.catalogVersion < highest, manifest.catalogVersion != installed {
                throw UpdateError.downgrade(identity: manifest.identity, offered: manifest.catalogVersion, highest: highest)
            }
        }
        guard let installed else {
            if active.source == .bundled { return .available }
            throw UpdateError.identityMismatch(offered: manifest.identity, installed: active.info.identity)
        }
        if manifest.catalogVersion > installed { return .available }
        if manifest.catalogVersion == installed { return .upToDate }
        // Older than the one in use: reached only with --allow-downgrade (refused above otherwise).
        return .available
    }

    /// One pass over the download: hashes the compressed bytes, inflates them into `incoming`
    /// (never more than the declared uncompressed size), hashes the output, fsyncs it.
    private func decompress(_ partial: String, to incoming: String, file: Manifest.CatalogFile) throws -> Manifest.Digest {
        guard let input = FileHandle(forReadingAtPath: partial) else {
            throw UpdateError.io(path: partial, reason: "cannot read the download")
        }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: incoming, contents: nil),
              let output = FileHandle(forWritingAtPath: incoming)
        else { throw UpdateError.io(path: incoming, reason: "cannot create") }
        defer { try? output.close() }
        var compressedHash = SHA256(), uncompressedHash = SHA256()
        var compressedSize: Int64 = 0
        let inflater = try GzipInflater(limit: file.uncompressed.size)
        var inflateError: (any Error)?
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw UpdateError.io(path: partial, reason: error.localizedDescription)
            }
            if chunk.isEmpty { break }
            compressedHash.update(data: chunk)
            compressedSize += Int64(chunk.count)
            // Keep hashing the whole download even once inflating has failed, so that a
            // corrupted download is reported as such rather than as a zlib error.
            if inflateError == nil {
                do {
                    try chunk.withUnsafeBytes { raw in
                        try inflater.feed(raw) { piece in
                            uncompressedHash.update(bufferPointer: piece)
                            try output.write(contentsOf: piece)
                        }
                    }
                } catch {
                    inflateError = error
                }
            }
        }
        let compressedDigest = compressedHash.finalize().hexString
        guard compressedSize == file.compressed.size else {
            try? FileManager.default.removeItem(atPath: partial)
            throw UpdateError.sizeMismatch(what: "downloaded file", expected: file.compressed.size, actual: compressedSize)
        }
        guard compressedDigest == file.compressed.sha256 else {
            // A bad download is not resumed: the next update starts it again.
            try? FileManager.default.removeItem(atPath: partial)
            throw UpdateError.checksumMismatch(what: "downloaded file", expected: file.compressed.sha256, actual: compressedDigest)
        }
        if let inflateError { throw inflateError }
        guard inflater.finished else { throw UpdateError.decompression("the gzip stream ends early") }
        let digest = Manifest.Digest(sha256: uncompressedHash.finalize().hexString, size: inflater.produced)
        guard digest.size == file.uncompressed.size else {
            throw UpdateError.sizeMismatch(what: "uncompressed catalog", expected: file.uncompressed.size, actual: digest.size)
        }
        guard digest.sha256 == file.uncompressed.sha256 else {
            throw UpdateError.checksumMismatch(what: "uncompressed catalog", expected: file.uncompressed.sha256, actual: digest.sha256)
        }
        try output.synchronize()
        return digest
    }

    /// SQLite's integrity check and the catalog's own metadata against the manifest.
    private func checkCatalog(_ path: String, against manifest: Manifest) throws -> CatalogInfo {
        let info: CatalogInfo
        do {
            info = try CatalogStore.inspect(path, full: true)
        } catch let CatalogError.schemaTooNew(_, found, supported) {
            throw UpdateError.schemaTooNew(found: found, supported: supported)
        } catch {
            throw UpdateError.catalogRejected(CatalogStore.describe(error))
        }
        guard info.identity == manifest.identity, info.version == manifest.catalogVersion,
              info.schemaVersion == manifest.schemaVersion
        else {
            throw UpdateError.catalogRejected(
                "it is \(info.identity) version \(info.version) schema \(info.schemaVersion), the manifest announces "
                    + "\(manifest.identity) version \(manifest.catalogVersion) schema \(manifest.schemaVersion)")
        }
        return info
    }
}
