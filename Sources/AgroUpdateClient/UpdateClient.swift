import AgroDomain
import AgroStore
import AgroUpdate
import Crypto
import Foundation

/// What `agro db check` found.
public struct UpdateCheck: Sendable, Hashable {
    /// Whether the server offers something to install.
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
    /// Whether there is something to install.
    public var availability: Availability
    /// Bytes still to download for the update, as planned (the deltas of `deltaChain`, else the
    /// compressed catalog), less any part already downloaded by an interrupted update.
    public var downloadSize: Int64
    /// The deltas the update will download and apply, in order; empty when it downloads the full
    /// catalog (no delta from the installed version, or deltas costing more bytes than the file).
    public var deltaChain: [Manifest.Delta]
    /// Bytes still to download for the full catalog, to compare with `downloadSize`.
    public var fullDownloadSize: Int64
}

/// Where an update is, for a progress display.
public enum UpdateProgress: Sendable, Hashable {
    /// Fetching and verifying the manifest.
    case fetchingManifest
    /// Bytes on disk so far of what this update downloads (the compressed catalog, or all the
    /// deltas of the chain together), of `total`.
    case downloading(received: Int64, total: Int64)
    /// Applying the downloaded deltas to a copy of the installed catalog.
    case applyingDeltas(count: Int)
    /// The delta update failed (always `UpdateError.deltaFailed`, saying why in one line); the
    /// full catalog, `size` bytes, is downloaded instead.
    case fallingBack(UpdateError, size: Int64)
    /// Decompressing and checking hashes, sizes and integrity.
    case verifying
    /// Making the checked catalog current.
    case installing(InstallStep)
}

/// What `agro db update` did.
public enum UpdateOutcome: Sendable, Hashable {
    /// Nothing newer: the catalog in use.
    case upToDate(CatalogInfo)
    /// A new catalog is current.
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
///
/// When the manifest offers deltas from the installed version costing fewer bytes than the
/// catalog, the client downloads those instead, applies them to a copy in one transaction,
/// updates the search index rows they touch and checks the copy's content hash against the manifest; any
/// failure on that path falls back to the full download (`UpdateProgress.fallingBack`).
public struct UpdateClient: Sendable {
    /// Server, trusted keys, limits.
    public let configuration: UpdateConfiguration
    /// The data directory's catalogs.
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
        if !check.deltaChain.isEmpty {
            do {
                let (incoming, sha256, info) = try await applyDeltas(check, progress: progress)
                try store.install(checkedFile: incoming, sha256: sha256) { step in progress(.installing(step)) }
                for delta in check.deltaChain {
                    try? FileManager.default.removeItem(atPath: store.partialDownloadPath(sha256: delta.file.compressed.sha256))
                }
                recordInstalled(info, file: sha256, contentHash: manifest.contentHash)
                return .installed(from: check.active.info, to: info)
            } catch {
                progress(.fallingBack(Self.deltaFailure(error), size: check.fullDownloadSize))
            }
        }

        let partial = store.partialDownloadPath(sha256: file.compressed.sha256)
        store.removeOtherDownloads(keeping: [partial])
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
        // The full file was checked by its sha256, which the signed manifest gives together with
        // the content hash the publisher computed from the same file.
        recordInstalled(info, file: digest.sha256, contentHash: manifest.contentHash)
        return .installed(from: check.active.info, to: info)
    }

    /// Any failure on the delta path as `deltaFailed`, without the "nothing was changed" endings
    /// that do not hold once the full download follows.
    static func deltaFailure(_ error: any Error) -> UpdateError {
        if case .deltaFailed? = error as? UpdateError { return error as! UpdateError }
        var reason = (error as? any UserFacingError)?.message ?? "\(error)"
        for ending in ["; the current catalog stays in use", "; nothing was changed"] where reason.hasSuffix(ending) {
            reason = String(reason.dropLast(ending.count))
        }
        return .deltaFailed(reason)
    }

    /// Remembered after an install: an older manifest of this identity is refused from now on,
    /// and the installed file's content hash is what the next delta must apply to.
    private func recordInstalled(_ info: CatalogInfo, file sha256: String, contentHash: String?) {
        var state = store.readState()
        var highest = state.highestInstalled ?? [:]
        highest[info.identity] = max(highest[info.identity] ?? info.version, info.version)
        state.highestInstalled = highest
        var hashes = (state.contentHashes ?? [:]).filter { store.isLinked(fileName: $0.key) }
        if let contentHash { hashes[sha256 + ".sqlite"] = contentHash }
        state.contentHashes = hashes
        try? store.writeState(state)
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
        let full = remaining(manifest.file)
        var chain: [Manifest.Delta] = []
        if availability == .available, let installedHash = contentHash(of: active, manifest: manifest, state: &state),
            let found = manifest.deltaChain(fromContentHash: installedHash, version: active.info.version),
            found.map(remaining).reduce(0, +) < full
        {
            chain = found
        }
        state.server = server
        state.lastCheck = now()
        try store.writeState(state)
        return UpdateCheck(
            manifest: manifest, notModified: notModified, active: active, availability: availability,
            downloadSize: availability == .available ? (chain.isEmpty ? full : chain.map(remaining).reduce(0, +)) : 0,
            deltaChain: chain, fullDownloadSize: availability == .available ? full : 0)
    }

    /// Bytes of a file still to download: its compressed size less what an interrupted update left.
    private func remaining(_ file: Manifest.CatalogFile) -> Int64 {
        let partial = store.partialDownloadPath(sha256: file.compressed.sha256)
        return file.compressed.size - min(FileSystem.size(partial) ?? 0, file.compressed.size)
    }

    private func remaining(_ delta: Manifest.Delta) -> Int64 { remaining(delta.file) }

    /// The content hash of the catalog in use when a delta could apply to it (same identity as
    /// the manifest, deltas offered): recorded at install, else computed once and recorded.
    private func contentHash(of active: CatalogSelection, manifest: Manifest, state: inout UpdateState) -> String? {
        guard let deltas = manifest.deltas, !deltas.isEmpty, active.info.identity == manifest.identity else { return nil }
        let name = URL(fileURLWithPath: active.path).lastPathComponent
        if active.source == .installed, let known = state.contentHashes?[name] { return known }
        guard let computed = try? ContentHash.of(catalog: active.path) else { return nil }
        if active.source == .installed { state.contentHashes = (state.contentHashes ?? [:]).merging([name: computed]) { $1 } }
        return computed
    }

    /// Downloads the deltas of the check's chain, checks each against the manifest, applies them
    /// to a copy of the catalog in use (one transaction), brings the copy's search index up to
    /// date (`CatalogStore.refreshSearchIndex`) and checks the result's content hash and
    /// metadata. Returns the checked, fsynced copy and its sha256.
    private func applyDeltas(
        _ check: UpdateCheck, progress: @escaping @Sendable (UpdateProgress) -> Void
    ) async throws -> (path: String, sha256: String, info: CatalogInfo) {
        let manifest = check.manifest, chain = check.deltaChain
        let partials = chain.map { store.partialDownloadPath(sha256: $0.file.compressed.sha256) }
        store.removeOtherDownloads(keeping: Set(partials))
        let total = chain.map(\.file.compressed.size).reduce(0, +)
        var done: Int64 = 0
        var changesets: [Data] = []
        var headers: [DeltaHeader] = []
        for (delta, partial) in zip(chain, partials) {
            let before = done
            try await fetcher.download(configuration.url(delta.file.path), to: partial, size: delta.file.compressed.size) {
                received in
                progress(.downloading(received: before + received, total: total))
            }
            done += delta.file.compressed.size
            var bytes = Data()
            let digests: (compressed: Manifest.Digest, uncompressed: Manifest.Digest)
            do {
                digests = try Gzip.decompress(file: partial, limit: delta.file.uncompressed.size) { bytes.append(contentsOf: $0) }
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw UpdateError.deltaFailed("a delta file is damaged: \((error as? UpdateError)?.message ?? "\(error)")")
            }
            guard digests.compressed == delta.file.compressed, digests.uncompressed == delta.file.uncompressed else {
                try? FileManager.default.removeItem(atPath: partial)
                throw UpdateError.deltaFailed("a delta file's sha256 or size differs from the manifest")
            }
            let (header, changeset) = try DeltaFile.decode(bytes)
            guard header.describes(delta, identity: manifest.identity) else {
                throw UpdateError.deltaFailed(
                    "a delta file is for \(header.identity) version \(header.fromVersion) to \(header.toVersion), not what the manifest lists"
                )
            }
            changesets.append(changeset)
            headers.append(header)
        }
        progress(.applyingDeltas(count: chain.count))
        let incoming = store.incomingPath()
        do {
            let active = check.active
            try FileSystem.copy(active.path, to: incoming)
            // The installed file is checked against its name on a second thread while the copy
            // is changed; each join below comes before any throw, so that no thread still reads
            // the copy when a failure removes it.
            let installed =
                active.source == .installed
                ? WorkerThread(name: "agro.update.installed") { try FileSystem.digest(of: active.path) } : nil
            let changedTables = Result { try DeltaFile.tables(changedBy: changesets) }
            let applied = Result {
                try DeltaFile.apply(changesets, to: incoming)
                return try CatalogStore.refreshSearchIndex(
                    at: incoming, previous: active.path, changedTables: try changedTables.get())
            }
            if let installed, URL(fileURLWithPath: active.path).lastPathComponent != (try installed.join().sha256) + ".sqlite" {
                throw UpdateError.deltaFailed("the installed catalog no longer matches its recorded hash")
            }
            let refresh = try applied.get()
            progress(.verifying)
            // The tables the changesets left alone are the installed catalog's: its bytes were
            // just checked against the sha256 it was installed under, and its content hash is the
            // one the first delta starts from. That delta's header gives the hashes of its large
            // tables; those the changesets leave alone are taken from there and every other
            // section of the copy is hashed, and only the changed tables are integrity-checked.
            // A wrong listed hash gives another content hash (the full download follows). When
            // the search index was rewritten, or nothing is listed, the whole copy is hashed and
            // checked.
            let changed = try changedTables.get()
            let listed = (headers.first?.fromTableHashes ?? [:]).filter {
                !changed.contains($0.key) && $0.key != ContentHash.schemaSection
            }
            let partial = !listed.isEmpty && refresh.changed == 0 && !refresh.rebuilt
            // Three independent reads of the finished copy, side by side: its content hash, its
            // file sha256 (its installed name) and SQLite's integrity check.
            let hashing = WorkerThread(name: "agro.update.content") { () throws -> String in
                guard partial else { return try ContentHash.of(catalog: incoming) }
                let rehashed = try ContentHash.sections(of: incoming, except: Set(listed.keys))
                guard let combined = ContentHash.combine(listed.merging(rehashed) { $1 }) else {
                    throw UpdateError.deltaFailed("the catalog built from the deltas has no schema")
                }
                return combined
            }
            let digesting = WorkerThread(name: "agro.update.sha256") { try FileSystem.digest(of: incoming) }
            let checked = Result { try checkCatalog(incoming, against: manifest, tables: partial ? changed : nil) }
            let contentHash = Result { try hashing.join() }, digest = Result { try digesting.join() }
            guard try contentHash.get() == manifest.contentHash else {
                throw UpdateError.deltaFailed(
                    "the catalog built from the deltas has content hash \(try contentHash.get().prefix(16))…, the manifest says "
                        + "\((manifest.contentHash ?? "none").prefix(16))…")
            }
            let info = try checked.get()
            try FileSystem.fsync(file: incoming)
            return (incoming, try digest.get().sha256, info)
        } catch {
            try? FileManager.default.removeItem(atPath: incoming)
            throw error
        }
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
        var uncompressedHash = SHA256()
        let inflater = try GzipInflater(limit: file.uncompressed.size)
        var inflateError: (any Error)?
        let compressed = try FileSystem.digest(reading: input, path: partial) { chunk in
            // Keep hashing the whole download even once inflating has failed, so that a
            // corrupted download is reported as such rather than as a zlib error.
            guard inflateError == nil else { return }
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
        guard compressed.size == file.compressed.size else {
            try? FileManager.default.removeItem(atPath: partial)
            throw UpdateError.sizeMismatch(what: "downloaded file", expected: file.compressed.size, actual: compressed.size)
        }
        guard compressed.sha256 == file.compressed.sha256 else {
            // A bad download is not resumed: the next update starts it again.
            try? FileManager.default.removeItem(atPath: partial)
            throw UpdateError.checksumMismatch(
                what: "downloaded file", expected: file.compressed.sha256, actual: compressed.sha256)
        }
        if let inflateError { throw inflateError }
        guard inflater.finished else { throw UpdateError.decompression("the gzip stream ends early") }
        let digest = Manifest.Digest(sha256: uncompressedHash.finalize().hexString, size: inflater.produced)
        guard digest.size == file.uncompressed.size else {
            throw UpdateError.sizeMismatch(what: "uncompressed catalog", expected: file.uncompressed.size, actual: digest.size)
        }
        guard digest.sha256 == file.uncompressed.sha256 else {
            throw UpdateError.checksumMismatch(
                what: "uncompressed catalog", expected: file.uncompressed.sha256, actual: digest.sha256)
        }
        try output.synchronize()
        return digest
    }

    /// SQLite's integrity check (of `tables` and their indexes only, when given) and the
    /// catalog's own metadata against the manifest.
    private func checkCatalog(_ path: String, against manifest: Manifest, tables: Set<String>? = nil) throws -> CatalogInfo {
        let info: CatalogInfo
        do {
            info = try CatalogStore.inspect(path, full: true, integrityOf: tables)
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
