import AgroDomain
import Foundation
import GRDB

/// Writes the use tables of a catalog being built (`uses` and the tables keyed by a use) on a
/// connection, and into a file, of their own: an importer stores the uses on one thread while
/// a `CatalogWriter` stores everything else on another, and `CatalogWriter.finish(mergingUses:)`
/// joins the two.
///
/// In a register import the use tables hold nearly nine rows in ten; with one connection the
/// writer stored them after the last product, alone on its core. The file,
/// `<catalog>.unfinished-uses`, holds the whole schema: `finish` copies the other writer's
/// records into it (in the 2026 register 52 000 rows, against 370 000 rows of uses the other
/// way round) and finishes the catalog from it. It is removed at the end, or by `discard()`.
///
/// ```swift
/// let uses = try CatalogUseWriter(catalogPath: "ch.sqlite")
/// try uses.add(use)
/// let written = try uses.close()
/// // ... and on the catalog writer's thread, once its own records are in:
/// try writer.finish(mergingUses: written)
/// ```
public final class CatalogUseWriter {
    /// Uses written and committed, ready for `CatalogWriter.finish(mergingUses:)`.
    public struct Written: Sendable {
        let path: String
    }

    private let queue: DatabaseQueue
    let path: String
    private let cache = InsertCache()
    private var batchDatabase: Database?
    private var closed = false

    /// The file of the uses of the catalog to be written at `catalogPath`.
    static func path(catalogPath: String) -> String { catalogPath + ".unfinished-uses" }

    /// Creates the file of the use tables of the catalog that will be written at `catalogPath`
    /// (replacing any left there).
    public init(catalogPath: String) throws {
        path = Self.path(catalogPath: catalogPath)
        try? FileManager.default.removeItem(atPath: path)
        queue = try CatalogWriter.openBuild(at: path, catalogPath: catalogPath)
        try queue.inDatabase { db in
            try db.execute(sql: "BEGIN")
            // Every table, as the catalog writer makes them and in the same order: the file
            // becomes the build file, and `VACUUM INTO` then writes the same bytes.
            for statement in CatalogSchema.tableStatements { try db.execute(sql: statement) }
        }
    }

    deinit {
        // As in CatalogWriter: no statement may outlive the connection.
        cache.removeStatements()
    }

    /// Adds a use with its cultures, pests and obligations; uses may come in any order.
    public func add(_ use: CatalogRecord.Use) throws {
        precondition(!closed, "CatalogUseWriter used after close()")
        if let batchDatabase {
            try CatalogWriter.insert(use, into: batchDatabase, cache: cache)
        } else {
            try queue.inDatabase { db in try CatalogWriter.insert(use, into: db, cache: cache) }
        }
    }

    /// Runs `body`, whose `add(_:)` calls share one entry into the database queue.
    public func batch(_ body: () throws -> Void) throws {
        precondition(!closed, "CatalogUseWriter used after close()")
        guard batchDatabase == nil else { return try body() }
        try queue.inDatabase { db in
            batchDatabase = db
            defer { batchDatabase = nil }
            try body()
        }
    }

    /// Commits the uses and closes the file, for the catalog writer to merge.
    public func close() throws -> Written {
        precondition(!closed, "CatalogUseWriter closed twice")
        try queue.inDatabase { db in try db.execute(sql: "COMMIT") }
        closed = true
        cache.removeStatements()
        try queue.close()
        return Written(path: path)
    }

    /// Abandons the uses and removes their file.
    public func discard() {
        closed = true
        cache.removeStatements()
        try? queue.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension CatalogWriter {
    /// Copies the records of the build file into the file of the uses written beside it, which
    /// becomes the build file: this connection is closed and its file removed. Runs between
    /// transactions.
    func moveRecords(into uses: CatalogUseWriter.Written) throws {
        let target = try Self.openBuild(at: uses.path, catalogPath: path)
        do {
            try target.inDatabase { db in
                // The reference check reads the file once this transaction is committed.
                try db.execute(sql: "PRAGMA locking_mode = NORMAL")
                try db.execute(sql: "ATTACH DATABASE ? AS records", arguments: [buildPath])
                try db.execute(sql: "BEGIN")
                // Whole tables into empty ones declared alike: SQLite copies the records as
                // they are, in key order, without decoding them. A table filled in both files
                // (uses added to this writer too) is copied row by row, as an insert does.
                for table in Self.storedTables {
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM records.\(table)")
                }
                try db.execute(sql: "COMMIT")
                try db.execute(sql: "DETACH DATABASE records")
            }
        } catch {
            try? target.close()
            throw error
        }
        cache.removeStatements()
        try queue.close()
        try? FileManager.default.removeItem(atPath: buildPath)
        queue = target
        buildPath = uses.path
    }

    /// The tables of the schema that hold rows (every `CREATE TABLE`, not the search index).
    static let storedTables: [String] = CatalogSchema.tableStatements.compactMap { statement in
        guard statement.hasPrefix("CREATE TABLE ") else { return nil }
        return statement.dropFirst("CREATE TABLE ".count).prefix { $0 != " " && $0 != "(" }.description
    }
}
