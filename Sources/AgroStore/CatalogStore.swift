import AgroDomain
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
    /// Bundled or installed.
    public var source: CatalogSource
    /// The catalog's identity, version and schema, read from the file.
    public var info: CatalogInfo
    /// Set when the installed catalog exists but could not be used.
    public var warning: String?
}

/// What `agro db status` shows.
public struct CatalogStatus: Sendable, Hashable {
    /// The catalog in use.
    public var active: CatalogSelection
    /// Size of the active catalog file in bytes.
    public var size: Int64
    /// The installed catalog kept for `agro db rollback`, if any.
    public var previous: CatalogInfo?
    /// Last time a manifest was fetched and verified.
    public var lastCheck: Date?
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
    /// The content hash (AgroUpdate's `ContentHash`) of installed catalogs, by file name: what a
    /// delta must apply to. Recorded at install; absent for catalogs installed before deltas.
    public var contentHashes: [String: String]?
    /// Creates a state; every field starts empty.
    public init(lastCheck: Date? = nil, server: String? = nil, etag: String? = nil, highestInstalled: [String: Int]? = nil) {
        self.lastCheck = lastCheck
        self.server = server
        self.etag = etag
        self.highestInstalled = highestInstalled
    }

    private enum CodingKeys: String, CodingKey {
        case lastCheck, server, etag, highestInstalled
        // Hashes of the content hash's second definition (`agro-content-2`): those recorded under
        // the first (key `contentHashes`) match no published delta, so they are left behind and
        // the hash is computed again once.
        case contentHashes = "contentHashes2"
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
/// catalog that was checked before it was linked. User data (favorites) lives in another file
/// of the data directory, which nothing here touches.
///
/// Here: the layout, choosing and opening the catalog, checking a file, reading the state.
/// Changing what is current (install, rollback, verify with its sha256, the lock, writing the
/// state) is AgroUpdate's, in an extension of this type (`CatalogStore+Installing.swift`), so
/// that a program that only reads catalogs links neither swift-crypto nor zlib.
public struct CatalogStore: Sendable {
    /// The program's data directory; installed catalogs live in its `catalogs/`.
    public let dataDirectory: String
    /// The catalog shipped with the program; nil when there is none.
    public let bundledPath: String?

    /// A store over `dataDirectory`, falling back to the catalog at `bundledPath`.
    public init(dataDirectory: String, bundledPath: String?) {
        self.dataDirectory = dataDirectory
        self.bundledPath = bundledPath
    }

    /// The `catalogs/` directory of the layout above.
    public var catalogsDirectory: String { dataDirectory + "/catalogs" }
    /// The link to the catalog in use.
    public var currentLink: String { catalogsDirectory + "/current.sqlite" }
    /// The link to the catalog before it, for `agro db rollback`.
    public var previousLink: String { catalogsDirectory + "/previous.sqlite" }
    package var statePath: String { catalogsDirectory + "/state.json" }
    package var manifestPath: String { catalogsDirectory + "/manifest.json" }
    package var downloadsDirectory: String { catalogsDirectory + "/downloads" }

    /// Where the download of the compressed catalog with this sha256 is kept, so that an
    /// interrupted download resumes.
    package func partialDownloadPath(sha256: String) -> String {
        // Manifest.verified refuses any other form; this keeps a bad name out of the path even so.
        downloadsDirectory + "/\(Self.isSHA256(sha256) ? sha256 : "invalid").gz.partial"
    }

    /// 64 lower-case hexadecimal digits: the only form of a sha256 that may name a file here.
    package static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
    package var lockPath: String { catalogsDirectory + "/.lock" }

    /// The real file `current.sqlite` points at; nil when nothing is installed.
    public var installedPath: String? { resolve(currentLink) }
    /// The real file `previous.sqlite` points at.
    public var previousPath: String? { resolve(previousLink) }

    private func resolve(_ link: String) -> String? {
        guard let target = FileInfo.symlinkTarget(link) else { return nil }
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

    /// Opens the catalog `select()` selects as a `DirectCatalog`, passing it the same checks.
    public func openDirect() throws -> (catalog: DirectCatalog, selection: CatalogSelection) {
        let (selection, catalog) = try select { path in
            let catalog = try DirectCatalog(path: path)
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
                warning =
                    "the installed catalog at \(currentLink) is unusable (\(Self.describe(error))); using the bundled catalog"
            }
        } else if FileInfo.symlinkTarget(currentLink) == nil, FileManager.default.fileExists(atPath: currentLink) {
            warning = "\(currentLink) is not a link made by agro; using the bundled catalog"
        }
        // The installed catalog wins unless the bundled one is a newer version of it.
        func isNewer(_ bundled: (identity: String, version: Int)?) -> Bool {
            guard let bundled, let installed else { return false }
            return bundled.identity == installed.info.identity && bundled.version > installed.info.version
        }
        func useInstalled(_ installed: (path: String, opened: Opened, info: CatalogInfo)) -> (CatalogSelection, Opened) {
            (CatalogSelection(path: installed.path, source: .installed, info: installed.info, warning: nil), installed.opened)
        }
        // Only the bundled catalog's identity and version decide that: read them alone, instead
        // of opening and checking a catalog that is then dropped (a query would pay for it).
        if let installed, !isNewer(bundledPath.flatMap(Self.identityAndVersion)) { return useInstalled(installed) }
        var bundled: (path: String, opened: Opened, info: CatalogInfo)?
        var bundledError: (any Error)?
        if let bundledPath {
            do {
                let (opened, info) = try open(bundledPath)
                bundled = (bundledPath, opened, info)
            } catch { bundledError = error }
        }
        // A bundled catalog that looked newer but fails the checks leaves the installed one.
        if let installed, !isNewer(bundled.map { ($0.info.identity, $0.info.version) }) { return useInstalled(installed) }
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
        throw CatalogSelectionError.noCatalog(reasons.joined(separator: "; "))
    }

    /// What `agro db status` shows.
    public func status() throws -> CatalogStatus {
        let active = try select()
        var previous: CatalogInfo?
        if let path = previousPath { previous = try? Self.inspect(path, full: false) }
        return CatalogStatus(
            active: active, size: FileInfo.size(active.path) ?? 0, previous: previous, lastCheck: readState().lastCheck)
    }

    // MARK: - Checking a file

    /// Opens a catalog file and checks it: metadata, supported schema, file size against the
    /// page count and, when `full`, `PRAGMA integrity_check`: of the tables `integrityOf` names
    /// and their indexes only, when given (for a copy of a checked catalog changed in those
    /// tables alone; the whole file when auto-vacuum may have moved other pages).
    public static func inspect(_ path: String, full: Bool, integrityOf: Set<String>? = nil) throws -> CatalogInfo {
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
                // Without auto-vacuum a write never moves the pages of a table it does not touch.
                if full, let integrityOf, try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 0 {
                    for table in integrityOf.sorted() {
                        let problems = try String.fetchAll(db, sql: "SELECT * FROM pragma_integrity_check(?)", arguments: [table])
                        guard problems == ["ok"] else {
                            let report = problems.prefix(5).joined(separator: "; ").split(whereSeparator: \.isNewline)
                                .joined(separator: " ")
                            throw CatalogError.corrupt(path: path, reason: "integrity check of \(table): " + report)
                        }
                    }
                } else if full {
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

    /// The identity and version in a catalog file's metadata, read through SQLite alone; nil
    /// when the file cannot be read as a catalog. Used only to compare versions: whatever is
    /// then opened passes the full start-up checks.
    static func identityAndVersion(_ path: String) -> (identity: String, version: Int)? {
        var identity: String?, version: Int?
        let sql = "SELECT key, value FROM catalog_metadata WHERE key IN ('identity', 'version')"
        guard let connection = try? DirectConnection(path: path),
            (try? connection.each(sql, SQLArguments()) { row in
                switch row.string(at: 0) {
                case "identity": identity = row.string(at: 1)
                case "version": version = row.string(at: 1).flatMap { Int($0) }
                default: break
                }
            }) != nil
        else { return nil }
        guard let identity, let version else { return nil }
        return (identity, version)
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

    // MARK: - State

    /// The update bookkeeping; an empty state when the file is missing or unreadable.
    public func readState() -> UpdateState {
        guard let data = FileManager.default.contents(atPath: statePath) else { return UpdateState() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(UpdateState.self, from: data)) ?? UpdateState()
    }
}
