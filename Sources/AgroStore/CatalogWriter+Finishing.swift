import AgroDomain
import Foundation
import GRDB

// Finishing a catalog: what happens once every record is in (lookup tables, indexes, the
// reference check, compaction). The records themselves are written in CatalogWriter.swift.

extension CatalogWriter {
    /// Derives the culture closure, the name index and the search index, checks every
    /// reference and writes the finished catalog to `path`. The writer cannot be used
    /// afterwards.
    ///
    /// The catalog is a copy of the database built in memory made by `VACUUM INTO`, its pages
    /// packed in key order, so that the same records give the same bytes in whatever order
    /// they came (and the file a publisher ships is as small as it can be).
    ///
    /// The references of the use tables are looked up in memory (`UseReferences`) on a thread
    /// of their own while this one derives the lookup tables; those of the other tables, a
    /// few thousand rows, by `PRAGMA foreign_key_check` on this connection.
    public func finish() throws {
        // The search index is built apart, on a connection and thread of its own, while this
        // one makes the indexes and the other lookup tables, then copied in: on the last,
        // serial, steps of a register import, the other core was idle. Its rows are read
        // before any thread starts, so that a failure here leaves none running.
        let builder = SearchIndexBuilder()
        var rows: [SearchIndexBuilder.TextRow] = []
        try write { db in rows = try builder.textRows(db) }
        let check = WorkerThread(name: "agro.catalog.references") { [useReferences] in
            if let missing = useReferences.firstMissing() { throw missing }
        }
        // The check has its copy; this one would only hold memory through the copy below.
        useReferences = UseReferences()
        let searchIndex = WorkerThread(name: "agro.catalog.search") { [rows] in try builder.textIndexApart(rows) }
        let derived = Result {
            try write { db in
                for statement in CatalogSchema.indexStatements { try db.execute(sql: statement) }
                try self.deriveCultureAncestors(db)
                try builder.indexNames(db)
            }
        }
        // A fault in the derived tables (a culture cycle) is reported before a dangling
        // reference.
        let checked = Result { try check.join() }
        let searched = Result { try searchIndex.join() }
        try derived.get()
        try checked.get()
        let image = try searched.get()
        try write { db in
            try Self.checkReferences(db)
            try db.execute(sql: "COMMIT")
        }
        finished = true
        // Its statements would keep the connection from closing.
        cache.removeStatements()
        try queue.inDatabase { db in
            try builder.copyTextIndex(image, into: db)
            try db.execute(sql: "VACUUM INTO ?", arguments: [path])
        }
        try queue.close()
    }

    /// Abandons the build and removes any file it made.
    public func discard() {
        cache.removeStatements()
        try? queue.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Fails on the first reference to a missing row, as the foreign keys would have at commit:
    /// records may arrive in any order, so references are checked once everything is in.
    /// Skips the use tables, whose references the writer checks itself (`UseReferences`).
    private static func checkReferences(_ db: Database) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid")
        for table in tables where !UseReferences.checkedTables.contains(table) {
            guard
                let parent = try String.fetchOne(
                    db, sql: "SELECT parent FROM pragma_foreign_key_check(?) LIMIT 1", arguments: [table])
            else { continue }
            throw danglingReference(table: table, parent: parent)
        }
    }

    /// Fills `culture_ancestors` with every (culture, ancestor) pair, the culture itself at
    /// depth 0. A cycle in the parents is an error: the tree must be a DAG.
    private func deriveCultureAncestors(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO culture_ancestors(culture_id, ancestor_id, depth)
                WITH RECURSIVE ancestry(culture_id, ancestor_id, depth) AS (
                  SELECT id, id, 0 FROM cultures
                  UNION
                  SELECT a.culture_id, p.parent_id, a.depth + 1
                  FROM ancestry a JOIN culture_parents p ON p.culture_id = a.ancestor_id
                  WHERE a.depth < 64
                )
                SELECT culture_id, ancestor_id, MIN(depth) FROM ancestry GROUP BY culture_id, ancestor_id
                """)
        let cyclic = try String.fetchOne(
            db,
            sql: """
                WITH RECURSIVE ancestry(culture_id, ancestor_id, depth) AS (
                  SELECT culture_id, parent_id, 1 FROM culture_parents
                  UNION
                  SELECT a.culture_id, p.parent_id, a.depth + 1
                  FROM ancestry a JOIN culture_parents p ON p.culture_id = a.ancestor_id
                  WHERE a.depth < 64 AND a.culture_id <> a.ancestor_id
                )
                SELECT culture_id FROM ancestry WHERE culture_id = ancestor_id ORDER BY culture_id LIMIT 1
                """)
        if let cyclic { throw CatalogWriterError.cultureCycle(cultureID: cyclic) }
    }
}
