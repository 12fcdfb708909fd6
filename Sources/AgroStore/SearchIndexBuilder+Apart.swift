import Foundation
import GRDB
import GRDBSQLite

// The search index of a catalog being finished, built on a thread and connection of its own
// while the writer's connection derives the other tables, then copied in.

extension SearchIndexBuilder {
    /// The tables behind the `search_index` virtual table, which hold all of its content.
    static let shadowTables = ["data", "idx", "content", "docsize", "config"].map { "search_index_\($0)" }

    /// An SQLite database image (`sqlite3_serialize`), owned until it is handed to
    /// `copyTextIndex(_:into:)` or freed.
    final class DatabaseImage: @unchecked Sendable {
        // Written once at creation and taken once by `take()`: one thread at a time.
        private var bytes: UnsafeMutablePointer<UInt8>?
        let size: Int64

        init(bytes: UnsafeMutablePointer<UInt8>, size: Int64) {
            self.bytes = bytes
            self.size = size
        }

        func take() -> UnsafeMutablePointer<UInt8>? {
            defer { bytes = nil }
            return bytes
        }

        deinit { sqlite3_free(bytes) }
    }

    /// Builds the search index of `rows` (read by `textRows(_:)`), as `indexTexts(_:)` does on
    /// a catalog, in a database in memory that holds only the index; returns that database.
    func textIndexApart(_ rows: [TextRow]) throws -> DatabaseImage {
        let queue = try DatabaseQueue()
        return try queue.inDatabase { db in
            try db.execute(sql: CatalogSchema.searchIndexStatement)
            try db.inTransaction {
                for row in rows { try insert(row, rowid: nil, db) }
                try db.execute(sql: "INSERT INTO search_index(search_index) VALUES ('optimize')")
                return .commit
            }
            var size: Int64 = 0
            guard let bytes = sqlite3_serialize(db.sqliteConnection, "main", &size, 0) else {
                throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "could not copy the search index out of memory")
            }
            return DatabaseImage(bytes: bytes, size: size)
        }
    }

    /// Replaces the content of the catalog's empty search index with that of `image` (made by
    /// `textIndexApart(_:)`), row for row: the index then holds what `indexTexts(_:)` would
    /// have written. Outside a transaction (it attaches a database).
    func copyTextIndex(_ image: DatabaseImage, into db: Database) throws {
        let schema = "search_index_apart"
        try db.execute(sql: "ATTACH DATABASE ':memory:' AS \(schema)")
        defer { try? db.execute(sql: "DETACH DATABASE \(schema)") }
        // SQLite owns the bytes from here, and frees them even when this fails.
        // Not read-only: the transaction below takes a write lock on every attached database.
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE)
        let status = sqlite3_deserialize(db.sqliteConnection, schema, image.take(), image.size, image.size, flags)
        guard status == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: "could not attach the search index")
        }
        try db.inTransaction {
            for table in Self.shadowTables {
                try db.execute(sql: "DELETE FROM main.\(table)")
                try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM \(schema).\(table)")
            }
            return .commit
        }
    }
}
