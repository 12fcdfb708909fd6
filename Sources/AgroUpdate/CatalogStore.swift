import AgroDomain
import AgroStore
import Foundation
import GRDB

/// Where a catalog in use comes from.
public enum CatalogSource: String, Sendable, Hashable, Codable {
    /// Shipped with the program.
    case bundled
    /// Downloaded from an update server and installed in the data directory.
    case installed
}

/// The catalog chosen at start-up.
public struct CatalogSelection: Sendable, Hashable {
    /// The file to open: the real file, never the `current.sqlite` link, so that every
    /// connection of one open catalog reads the same file even while an update replaces the link.
    public var path: String
    public var source: CatalogSource
    public var info: CatalogInfo
    /// Set when the installed catalog exists but could not be used.
    public var warning: String?
}

/// What `agro db status` shows.
public struct CatalogStatus: Sendable, Hashable {
    public var active: CatalogSelection
    /// Size of the active catalog file in bytes.
    public var size: Int64
    /// The installed catalog kept for `agro db rollback`, if any.
    public var previous: CatalogInfo?
    /// Last time a manifest was fetched and verified.
    public var lastCheck: Date?
}

/// What `agro db verify` found.
public struct VerificationReport: Sendable, Hashable {
    public var path: String
    public var source: CatalogSource
    public var info: CatalogInfo
    public var sha256: String
    public var size: Int64
}

/// What `agro db rollback` did.
public struct RollbackResult: Sendable, Hashable {
    public var from: CatalogInfo
    public var to: CatalogInfo
}

/// Update bookkeeping kept in `catalogs/state.json`.
public struct UpdateState: Sendable, Hashable, Codable {
    /// Last time a manifest was fetched (or found unchanged) and verified.
    public var lastCheck: Date?
    /// The server the ETag belongs to.
    public var server: String?
    /// ETag of the last manifest, sent as If-None-Match.
    public var etag: String?
    /// The highest catalog version ever installed, per identity: an older signed manifest is
    /// refused after a rollback or a fallback to the bundled catalog (absent in older files).
    public var highestInstalled: [String: Int]?
    public init(lastCheck: Date? = nil, server: String? = nil, etag: String? = nil, highestInstalled: [String: Int]? = nil) {
        self.lastCheck = lastCheck
        self.server = server
        self.etag = etag
        self.highestInstalled = highestInstalled
    }
}

/// The installed catalogs in the data directory, and the choice between them and the
/// bundled one.
///
/// Layout (the data directory is `$XDG_DATA_HOME/agro`, by default `~/.local/share/agro`):
///
///     catalogs/
///       <sha256>.sqlite          installed catalogs, named by the sha256 of their bytes; never modified
///       current.sqlite           symbolic link to the catalog in use
///       previous.sqlite          symbolic link to the catalog before it, for `agro db rollback`
///       state.json               last check time, server and ETag of its manifest
///       manifest.json            the last manifest fetched and verified (answers a 304)
///       downloads/<sha256>.gz.partial   a download in progress, resumed by the next update
///       incoming-*.sqlite        a catalog being checked; removed when found stale
///       .lock                    held (flock) while an update, rollback or cleanup runs
///
/// Switching catalogs is one `rename(2)` of a fresh symbolic link over `current.sqlite`, so
/// at every instant, even after kill -9 or a power cut, `current.sqlite` names a complete
/// catalog that was checked before it was linked. User data (favorites, history) lives in
/// another file of the data directory, which nothing here touches.
public struct CatalogStore: Sendable {
    public let dataDirectory: String
    /// The catalog shipped with the program; nil when there is none.
    public let bundledPath: String?

    public init(dataDirectory: String, bundledPath: String?) {
        self.dataDirectory = dataDirectory
        self.bundledPath = bundledPath
    }

    public var catalogsDirectory: String { dataDirectory + "/catalogs" }
    public var currentLink: String { catalogsDirectory + "/current.sqlite" }
    public var previousLink: String { catalogsDirectory + "/previous.sqlite" }
    var statePath: String { catalogsDirectory + "/state.json" }
    var manifestPath: String { catalogsDirectory + "/manifest.json" }
    package var downloadsDirectory: String { catalogsDirectory + "/downloads" }

    /// Where the download of the compressed catalog with this sha256 is kept, so that an
    /// interrupted download resumes.
    package func partialDownloadPath(sha256: String) -> String {
        // Manifest.verified refuses any other form; this keeps a bad name out of the path even so.
        downloadsDirectory + "/\(Manifest.isSHA256(sha256) ? sha256 : "invalid").gz.partial"
    }
    var lockPath: String { catalogsDirectory + "/.lock" }

    /// The real file `current.sqlite` points at; nil when nothing is installed.
    public var installedPath: String? { resolve(currentLink) }
    /// The real file `previous.sqlite` points at.
    public var previousPath: String? { resolve(previousLink) }

    private func resolve(_ link: String) -> String? {
        guard let target = FileSystem.readSymlink(link) else { return nil }
        return target.hasPrefix("/") ? target : catalogsDirectory + "/" + target
    }

    // MARK: - Start-up

    /// The catalog to use: the newest valid one among the bundled and the installed.
    ///
    /// Versions compare only within one identity; an installed catalog of another identity
    /// than the bundled one wins, because the user installed it from a server they configured.
    /// A missing or unusable installed catalog falls back to the bundled one, with a warning.
    /// Start-up checks are cheap (metadata, schema, size against the page count); the full
    /// integrity check ran before installing and runs again with `verify()`.
    public func select() throws -> CatalogSelection {
        try select { path in ((), try Self.inspect(path, full: false)) }.selection
    }

    /// Opens the catalog `select()` selects, as `SQLiteCatalog(path:maximumReaders:)` opens
    /// it, passing it the same checks; the selected file is opened only once.
    public func open(maximumReaders: Int = 4) throws -> (catalog: SQLiteCatalog, selection: CatalogSelection) {
        let (selection, catalog) = try select { path in
            let catalog = try SQLiteCatalog(path: path, maximumReaders: maximumReaders)
            try catalog.checkPages()
            return (catalog, catalog.info)
        }
        return (catalog, selection)
    }

    /// The selection, made on what `open` gives for each candidate file (which may throw
    /// when the file is unusable), and what it gave for the selected one.
    private func select<Opened>(
        _ open: (String) throws -> (Opened, CatalogInfo)
    ) throws -> (selection: CatalogSelection, opened: Opened) {
        var warning: String?
        var installed: (path: String, opened: Opened, info: CatalogInfo)?
        if let path = installedPath {
            do {
                let (opened, info) = try open(path)
                installed = (path, opened, info)
            } catch {
                warning = "the installed catalog at \(currentLink) is unusable (\(Self.describe(error))); using the bundled catalog"
            }
        } else if FileSystem.readSymlink(currentLink) == nil, FileManager.default.fileExists(atPath: currentLink) {
            warning = "\(currentLink) is not a link made by agro; using the bundled catalog"
        }
        var bundled: (path: String, opened: Opened, info: CatalogInfo)?
        var bundledError: (any Error)?
        if let bundledPath {
            do {
                let (opened, info) = try open(bundledPath)
                bundled = (bundledPath, opened, info)
            } catch { bundledError = error }
        }
        if let installed {
            // The installed catalog wins unless the bundled one is a newer version of it.
            let bundledIsNewer = bundled.map {
                $0.info.identity == installed.info.identity && $0.info.version > installed.info.version
            } ?? false
            if !bundledIsNewer {
                return (CatalogSelection(path: installed.path, source: .installed, info: installed.info, warning: nil), installed.opened)
            }
        }
        if let bundled {
            // `warning` is set only when there is no usable installed catalog.
            return (CatalogSelection(path: bundled.path, source: .bundled, info: bundled.info, warning: warning), bundled.opened)
        }
        if let error = bundledError as? CatalogError, case .schemaTooNew = error { throw error }
        var reasons: [String] = []
        if let warning { reasons.append(warning) }
        if let bundledPath {
            reasons.append("bundled catalog at \(bundledPath): \(bundledError.map(Self.describe) ?? "missing")")
        } else {
            reasons.append("no bundled catalog")
        }
        throw UpdateError.noCatalog(reasons.joined(separator: "; "))
    }

    /// What `agro db status` shows.
    public func status() throws -> CatalogStatus {
        let active = try select()
        var previous: CatalogInfo?
        if let path = previousPath { previous = try? Self.inspect(path, full: false) }
        return CatalogStatus(
            active: active, size: FileSystem.size(active.path) ?? 0, previous: previous, lastCheck: readState().lastCheck)
    }

    // MARK: - Checking a file

    /// Opens a catalog file and checks it: metadata, supported schema, file size against the
    /// page count and, when `full`, `PRAGMA integrity_check`.
    public static func inspect(_ path: String, full: Bool) throws -> CatalogInfo {
        guard FileManager.default.fileExists(atPath: path) else { throw CatalogError.missing(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            // One connection for the metadata and the checks: this runs at every start-up.
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let info = try SQLiteCatalog.readInfo(db, path: path)
                try SQLiteCatalog.checkPages(db, path: path)
                if full {
                    let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check(5)")
                    guard problems == ["ok"] else {
                        // One line: SQLite's report may span several.
                        let report = problems.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
                        throw CatalogError.corrupt(path: path, reason: "integrity check: " + report)
                    }
                }
                return info
            }
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    package static func describe(_ error: any Error) -> String {
        switch error {
        case let error as CatalogError:
            switch error {
            case .missing: return "file missing"
            case let .corrupt(_, reason): return reason
            case let .schemaTooNew(_, found, supported): return "schema \(found), this agro reads up to \(supported)"
            default: return error.message
            }
        case let error as any UserFacingError: return error.message
        default: return "\(error)"
        }
    }

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
                    path: active.path, reason: "its sha256 is \(digest.sha256.prefix(16))…, it was installed as \(name.prefix(16))…")
            }
        }
        return VerificationReport(path: active.path, source: active.source, info: info, sha256: digest.sha256, size: digest.size)
    }

    // MARK: - Changing what is current

    /// Takes the data directory's update lock (another process updating makes this throw
    /// `UpdateError.busy`), creating the directories on first use.
    package func lock() throws -> FileLock {
        do {
            try FileManager.default.createDirectory(atPath: downloadsDirectory, withIntermediateDirectories: true)
        } catch {
            throw UpdateError.io(path: downloadsDirectory, reason: error.localizedDescription)
        }
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
            let stale = (name.hasSuffix(".sqlite") && name != "current.sqlite" && name != "previous.sqlite")
                || name.contains(".sqlite.new-")
            if stale { try? FileManager.default.removeItem(atPath: catalogsDirectory + "/" + name) }
        }
    }

    /// Removes every download but `partial`: only the file the manifest names can resume.
    package func removeOtherDownloads(keeping partial: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloadsDirectory)) ?? []
        where downloadsDirectory + "/" + name != partial {
            try? FileManager.default.removeItem(atPath: downloadsDirectory + "/" + name)
        }
    }

    // MARK: - State

    public func readState() -> UpdateState {
        guard let data = FileManager.default.contents(atPath: statePath) else { return UpdateState() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(UpdateState.self, from: data)) ?? UpdateState()
    }

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
