import AgroDomain
import CSQLiteConfig
import Foundation
import GRDB

/// What the user keeps between runs: favorites, and the field journal (`UserStore+Journal.swift`).
///
/// Lives in its own database file, apart from the catalog, and refers to catalog entities by
/// their stable ids only, so it survives every replacement of the catalog file.
///
/// ```swift
/// let store = try UserStore(path: dataDirectory + "/user.sqlite")
/// try store.addFavorite(kind: .product, id: "glyphosate-360-sl")
/// for favorite in try store.favorites() { print(favorite.kind, favorite.id) }
/// ```
public final class UserStore: FavoritesUseCase, Sendable {
    let queue: DatabaseQueue
    let path: String

    /// Opens (creating if needed) the user database at `path`.
    public init(path: String) throws {
        // Changing a favorite must not cost disk syncs on every command: WAL with normal sync
        // syncs only at checkpoints, and SQLite is told not to checkpoint (and delete the WAL)
        // when the connection closes, which a one-shot command does every time. Checkpoints
        // come every 100 pages of changes instead. After a power cut the last changes may be
        // lost; the file is never corrupt.
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 100")
            let status = agro_sqlite3_disable_checkpoint_on_close(db.sqliteConnection)
            guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
        }
        self.path = path
        queue = try Self.migrator.migrated(path) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "favorite") { t in
                t.column("kind", .text).notNull()
                t.column("entityId", .text).notNull()
                t.column("addedAt", .datetime).notNull()
                t.primaryKey(["kind", "entityId"])
            }
            try db.create(table: "recentSearch") { t in
                t.primaryKey("text", .text)
                t.column("searchedAt", .datetime).notNull()
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        // Recent searches were recorded on every search and never read; settings were never
        // read either: both tables go.
        migrator.registerMigration("v2") { db in
            try db.drop(table: "recentSearch")
            try db.drop(table: "setting")
        }
        migrator.registerMigration("v3-journal") { db in try SQLiteJournal.createTables(db, ofFarms: false) }
        migrator.registerMigration("v4-sync", migrate: Self.prepareSync)
        return migrator
    }

    // MARK: Favorites

    /// A favorite entity, by kind and stable id (AgroDomain's, as every front sees it).
    public typealias Favorite = AgroDomain.Favorite

    /// Adds a favorite; adding it twice keeps the first date. Returns whether it was new.
    @discardableResult
    public func addFavorite(kind: EntityKind, id: EntityID, at date: Date = Date()) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO favorite(kind, entityId, addedAt) VALUES (?, ?, ?)",
                arguments: [kind.rawValue, id, Self.storageText(date)])
            return db.changesCount > 0
        }
    }

    /// Removes a favorite. Returns whether there was one.
    @discardableResult
    public func removeFavorite(kind: EntityKind, id: EntityID) throws -> Bool {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM favorite WHERE kind = ? AND entityId = ?", arguments: [kind.rawValue, id])
            return db.changesCount > 0
        }
    }

    /// Favorites, most recently added first.
    public func favorites() throws -> [Favorite] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT kind, entityId, addedAt FROM favorite ORDER BY addedAt DESC, kind, entityId")
                .compactMap { row in
                    guard let kind = EntityKind(rawValue: row["kind"]) else { return nil }
                    return Favorite(kind: kind, id: row["entityId"], addedAt: row["addedAt"])
                }
        }
    }

    /// `date` as GRDB stores dates ("yyyy-MM-dd HH:mm:ss.SSS", UTC, to the nearest
    /// millisecond; text order is time order), formatted without a DateFormatter: setting one
    /// up costs more than the rest of adding a favorite.
    static func storageText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let fraction = Int32(milliseconds - Int64(seconds) * 1000)
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-" + digits(parts.tm_mday, 2) + " "
            + digits(parts.tm_hour, 2) + ":" + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "."
            + digits(fraction, 3)
    }
}

/// Failures of the user database.
public enum UserStoreError: DescribedError {
    /// The user database at `path` cannot be opened or migrated.
    case unusable(path: String, reason: String)
    /// The user database at `path` cannot take a write (read-only, disk full, locked).
    case cannotWrite(path: String, reason: String)

    /// One line naming the database and what failed.
    public var message: String {
        switch self {
        case let .unusable(path, reason):
            return "user data at \(path) cannot be opened (\(reason)); move the file away to start afresh"
        case let .cannotWrite(path, reason):
            return "nothing was written: user data at \(path) cannot be changed (\(reason))"
        }
    }

    /// This case as data, for the program to word (`error.UserStoreError.<name>`).
    public var errorCase: ErrorCase {
        switch self {
        case let .unusable(path, reason): return ErrorCase("UserStoreError", "unusable", [path, reason])
        case let .cannotWrite(path, reason): return ErrorCase("UserStoreError", "cannotWrite", [path, reason])
        }
    }
}

extension DatabaseMigrator {
    /// The database `open` opens at `path` (its folder created first), brought up to date; a
    /// SQLite error opening or migrating it is `UserStoreError.unusable`.
    func migrated<Writer: DatabaseWriter>(_ path: String, _ open: () throws -> Writer) throws -> Writer {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let writer = try open()
            try migrate(writer)
            return writer
        } catch let error as DatabaseError {
            throw UserStoreError.unusable(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}
