import AgroDomain
import AgroStore
import Foundation

/// What `agro db verify` found.
public struct VerificationReport: Sendable, Hashable {
    /// The catalog file checked.
    public var path: String
    /// Bundled or installed.
    public var source: CatalogSource
    /// Its metadata.
    public var info: CatalogInfo
    /// The sha256 of its bytes.
    public var sha256: String
    /// Its size in bytes.
    public var size: Int64
}

/// What `agro db rollback` did.
public struct RollbackResult: Sendable, Hashable {
    /// The catalog current before the rollback.
    public var from: CatalogInfo
    /// The catalog current after it.
    public var to: CatalogInfo
}

/// Changing which catalog is current: installing a checked file, rolling back, verifying,
/// and the bookkeeping of updates. Choosing and opening the catalog (`CatalogStore.select()`)
/// is the store's; this is what only updating needs (hashing, locking, renaming links).
extension CatalogStore {
    /// Re-checks the catalog in use: the full integrity check, the metadata, and for an
    /// installed catalog that its bytes still hash to the name it was installed under.
    public func verify() throws -> VerificationReport {
        let active = try select()
        if let warning = active.warning, let installedPath {
            throw UpdateError.verificationFailed(path: installedPath, reason: warning)
        }
        let info: CatalogInfo
        do {
            info = try Self.inspect(active.path, full: true)
        } catch {
            throw UpdateError.verificationFailed(path: active.path, reason: Self.describe(error))
        }
        let digest = try FileSystem.digest(of: active.path)
        if active.source == .installed {
            let name = URL(fileURLWithPath: active.path).deletingPathExtension().lastPathComponent
            guard name == digest.sha256 else {
                throw UpdateError.verificationFailed(
                    path: active.path,
                    reason: "its sha256 is \(digest.sha256.prefix(16))…, it was installed as \(name.prefix(16))…")
            }
        }
        return VerificationReport(path: active.path, source: active.source, info: info, sha256: digest.sha256, size: digest.size)
    }

    // MARK: - Changing what is current

    /// Takes the data directory's update lock (another process updating makes this throw
    /// `UpdateError.busy`), creating the directories on first use.
    package func lock() throws -> FileLock {
        try FileSystem.createDirectory(downloadsDirectory)
        return try FileLock(path: lockPath, directory: catalogsDirectory)
    }

    /// A new name for a file being checked, in the catalogs directory so that installing it
    /// is a rename within one file system.
    package func incomingPath() -> String {
        catalogsDirectory + "/incoming-\(UUID().uuidString.lowercased()).sqlite"
    }

    /// Makes a checked, fsynced file the current catalog; the catalog current until now
    /// becomes the previous one. Call with the lock held.
    ///
    /// Steps, each leaving a valid `current.sqlite`: rename the file to its final name and
    /// fsync the directory; point `previous.sqlite` at the old current; point `current.sqlite`
    /// at the new file (one atomic rename); fsync the directory; remove files no link names.
    package func install(checkedFile: String, sha256: String, events: (InstallStep) -> Void = { _ in }) throws {
        let name = sha256 + ".sqlite"
        let final = catalogsDirectory + "/" + name
        // Renamed over a file of the same name too: that one may have been damaged since it
        // was installed, and processes reading it keep their open copy.
        try FileSystem.rename(checkedFile, to: final)
        try FileSystem.fsync(directory: catalogsDirectory)
        events(.fileInPlace)
        let oldCurrent = FileSystem.readSymlink(currentLink)
        if let oldCurrent, oldCurrent != name {
            try FileSystem.replaceSymlink(previousLink, target: oldCurrent)
            events(.previousLinked)
        }
        try FileSystem.replaceSymlink(currentLink, target: name)
        try FileSystem.fsync(directory: catalogsDirectory)
        events(.currentLinked)
        removeUnreferencedFiles()
    }

    /// Swaps `current.sqlite` and `previous.sqlite`.
    ///
    /// - Throws: `UpdateError.noPreviousCatalog` when there is none or it is unusable.
    public func rollback() throws -> RollbackResult {
        let lock = try lock()
        defer { lock.unlock() }
        guard let previousName = FileSystem.readSymlink(previousLink), let previousPath,
            let currentName = FileSystem.readSymlink(currentLink), let installedPath, previousName != currentName
        else { throw UpdateError.noPreviousCatalog }
        let to: CatalogInfo
        do { to = try Self.inspect(previousPath, full: true) } catch {
            throw UpdateError.verificationFailed(path: previousPath, reason: Self.describe(error))
        }
        let from = (try? Self.inspect(installedPath, full: false)) ?? to
        // previous first: if killed in between, both links name the catalog that was current.
        try FileSystem.replaceSymlink(previousLink, target: currentName)
        try FileSystem.replaceSymlink(currentLink, target: previousName)
        try FileSystem.fsync(directory: catalogsDirectory)
        return RollbackResult(from: from, to: to)
    }

    /// Removes installed catalogs that neither link names, and stale temporary files.
    /// An open catalog that is removed stays readable by the processes that have it open.
    package func removeUnreferencedFiles() {
        let keep = Set([FileSystem.readSymlink(currentLink), FileSystem.readSymlink(previousLink)].compactMap { $0 })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: catalogsDirectory)) ?? []
        for name in names where !keep.contains(name) {
            let stale =
                (name.hasSuffix(".sqlite") && name != "current.sqlite" && name != "previous.sqlite")
                || name.contains(".sqlite.new-")
            if stale { try? FileManager.default.removeItem(atPath: catalogsDirectory + "/" + name) }
        }
    }

    /// Whether `current.sqlite` or `previous.sqlite` names the installed file `name`.
    package func isLinked(fileName name: String) -> Bool {
        FileSystem.readSymlink(currentLink) == name || FileSystem.readSymlink(previousLink) == name
    }

    /// Removes every download but `partials`: only the files the manifest names can resume.
    package func removeOtherDownloads(keeping partials: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloadsDirectory)) ?? []
        where !partials.contains(downloadsDirectory + "/" + name) {
            try? FileManager.default.removeItem(atPath: downloadsDirectory + "/" + name)
        }
    }

    // MARK: - State

    package func writeState(_ state: UpdateState) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writeAtomically(try encoder.encode(state), to: statePath)
    }

    /// The last verified manifest's bytes, kept to answer a 304.
    package func readCachedManifest() -> Data? { FileManager.default.contents(atPath: manifestPath) }

    package func writeCachedManifest(_ data: Data) throws { try writeAtomically(data, to: manifestPath) }

    /// Temporary file, fsync, rename, fsync of the directory: like a catalog, a state file is
    /// either the old one or the new one after a crash, never empty.
    private func writeAtomically(_ data: Data, to path: String) throws {
        let temporary = path + ".new-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: catalogsDirectory, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: temporary))
            try FileSystem.fsync(file: temporary)
            try FileSystem.rename(temporary, to: path)
            try FileSystem.fsync(directory: catalogsDirectory)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let error = error as? UpdateError { throw error }
            throw UpdateError.io(path: path, reason: error.localizedDescription)
        }
    }
}

/// Steps of an installation, reported as they complete (progress display, tests).
public enum InstallStep: String, Sendable, Hashable {
    /// The checked file has its final name.
    case fileInPlace
    /// `previous.sqlite` names the catalog that was current.
    case previousLinked
    /// `current.sqlite` names the new catalog.
    case currentLinked
}
