import AgroDomain
import Foundation
import GRDB

/// Fills the derived lookup tables of a catalog being finished:
/// - `name_index`: every folded name, Latin name and registration number, for turning what the
///   user types into an id;
/// - `search_index`: folded texts per entity and locale, for ranked full-text search.
///
/// Texts are folded here with the same function the query side uses (`SearchQuery`), so
/// "Kartoffelkafer" finds "Kartoffelkäfer" and "еж" finds "ёж" whatever the tokenizer knows.
///
/// `CatalogWriter.finish()` builds the search index apart (SearchIndexBuilder+Apart.swift).
struct SearchIndexBuilder {
    func indexNames(_ db: Database) throws {
        // Names come with the key the writer already folded (`name_key`); the other texts are
        // folded here.
        let sources: [(kind: EntityKind, sql: String, folded: Bool)] = [
            (.product, "SELECT product_id, name_key FROM product_i18n WHERE name_key IS NOT NULL", true),
            (.product, "SELECT id, registration_number FROM products WHERE registration_number IS NOT NULL", false),
            (.substance, "SELECT substance_id, name_key FROM substance_i18n WHERE name_key IS NOT NULL", true),
            (.culture, "SELECT culture_id, name_key FROM culture_i18n WHERE name_key IS NOT NULL", true),
            (.culture, "SELECT id, latin_name FROM cultures WHERE latin_name IS NOT NULL", false),
            (.culture, "SELECT id, eppo_code FROM cultures WHERE eppo_code IS NOT NULL", false),
            (.pest, "SELECT pest_id, name_key FROM pest_i18n WHERE name_key IS NOT NULL", true),
            (.pest, "SELECT id, latin_name FROM pests WHERE latin_name IS NOT NULL", false),
            (.pest, "SELECT id, eppo_code FROM pests WHERE eppo_code IS NOT NULL", false),
            (.company, "SELECT company_id, name_key FROM company_i18n WHERE name_key IS NOT NULL", true),
            (.region, "SELECT region_id, name_key FROM region_i18n WHERE name_key IS NOT NULL", true),
            (.news, "SELECT news_id, title FROM news_i18n", false),
        ]
        for source in sources {
            let rows = try Row.fetchAll(db, sql: source.sql)
            for row in rows {
                guard let id: String = row[0], let text: String = row[1] else { continue }
                let key = source.folded ? text : NameKey.make(text)
                guard !key.isEmpty else { continue }
                try db.insert("INSERT OR IGNORE INTO name_index(kind, key, entity_id) VALUES (?, ?, ?)") { binder in
                    binder.add(source.kind.rawValue)
                    binder.add(key)
                    binder.add(id)
                }
            }
        }
    }

    /// The queries whose rows make up the search index, in the order a fresh build writes them:
    /// each yields id, locale, title, then the columns that make up the body, in a stable order.
    /// `eppo`: whether cultures and pests have EPPO codes (schema 3); a delta may bring an older
    /// catalog's tables up to date, whose index is then what that catalog's build wrote.
    static func textSources(eppo: Bool) -> [(kind: EntityKind, sql: String)] {
        let code = { (alias: String) in eppo ? "\(alias).eppo_code" : "NULL" }
        return [
            (
                .product,
                """
                SELECT p.id, i.locale, i.name,
                  p.registration_number, p.formulation, p.category,
                  (SELECT group_concat(si.name, ' ') FROM product_ingredients pi
                     JOIN substance_i18n si ON si.substance_id = pi.substance_id AND si.locale = i.locale
                     WHERE pi.product_id = p.id),
                  (SELECT ci.name FROM company_i18n ci WHERE ci.company_id = p.company_id AND ci.locale = i.locale)
                FROM products p JOIN product_i18n i ON i.product_id = p.id
                ORDER BY p.id, i.locale
                """
            ),
            (
                .substance,
                """
                SELECT s.id, i.locale, i.name,
                  s.iupac_name, s.cas_number, s.moa_scheme, s.moa_group, i.description
                FROM substances s JOIN substance_i18n i ON i.substance_id = s.id
                ORDER BY s.id, i.locale
                """
            ),
            (
                .culture,
                """
                SELECT c.id, i.locale, i.name, c.latin_name, \(code("c")), i.description
                FROM cultures c JOIN culture_i18n i ON i.culture_id = c.id
                ORDER BY c.id, i.locale
                """
            ),
            (
                .pest,
                """
                SELECT p.id, i.locale, i.name, p.latin_name, \(code("p")), i.description
                FROM pests p JOIN pest_i18n i ON i.pest_id = p.id
                ORDER BY p.id, i.locale
                """
            ),
            (
                .news,
                """
                SELECT n.id, i.locale, i.title, i.summary, i.body_html
                FROM news n JOIN news_i18n i ON i.news_id = n.id
                ORDER BY n.id, i.locale
                """
            ),
        ]
    }

    /// The search index's sources for the catalog open on `db`, with or without EPPO codes as
    /// its tables have them.
    static func textSources(_ db: Database) throws -> [(kind: EntityKind, sql: String)] {
        let eppo = try Bool.fetchOne(
            db, sql: "SELECT count(*) > 0 FROM pragma_table_info('cultures') WHERE name = 'eppo_code'")
        return textSources(eppo: eppo ?? false)
    }

    /// Which entity and locale a row of the search index is for.
    struct TextKey: Hashable, Sendable {
        var kind: String
        var id: String
        var locale: String
    }

    /// One row of the search index before folding: what the catalog's tables say.
    struct TextRow: Equatable, Sendable {
        var key: TextKey
        var title: String
        /// The body's columns joined by spaces (HTML still in for news).
        var body: String
    }

    /// The search index's rows as read from the tables, unfolded, in the order of a fresh build
    /// (the row at offset n gets rowid n + 1).
    func textRows(_ db: Database) throws -> [TextRow] {
        var rows: [TextRow] = []
        for source in try Self.textSources(db) {
            let cursor = try Row.fetchCursor(db, sql: source.sql)
            while let row = try cursor.next() {
                let body = (3..<row.count).compactMap { row[$0] as String? }.joined(separator: " ")
                rows.append(
                    TextRow(key: TextKey(kind: source.kind.rawValue, id: row[0], locale: row[1]), title: row[2] ?? "", body: body)
                )
            }
        }
        return rows
    }

    /// Folds a row's texts and writes it (at `rowid` when given, else at the next one).
    func insert(_ row: TextRow, rowid: Int64?, _ db: Database) throws {
        let body = row.key.kind == EntityKind.news.rawValue ? Self.plainText(fromHTML: row.body) : row.body
        try db.insert("INSERT INTO search_index(rowid, kind, entity_id, locale, title, body) VALUES (?, ?, ?, ?, ?, ?)") {
            binder in
            binder.add(rowid.map { Int($0) })
            binder.add(row.key.kind)
            binder.add(row.key.id)
            binder.add(row.key.locale)
            binder.add(SearchQuery.fold(row.title))
            binder.add(SearchQuery.fold(body))
        }
    }

    func indexTexts(_ db: Database) throws {
        for row in try textRows(db) { try insert(row, rowid: nil, db) }
        try db.execute(sql: "INSERT INTO search_index(search_index) VALUES ('optimize')")
    }

    /// Brings a carried search index up to date with the tables after they changed in place:
    /// rewrites only the rows whose texts (`previous`, the unfolded rows the index was built
    /// from) or whose position in a fresh build changed, so that the index ends with the rows
    /// and rowids a fresh build would write. Returns the rows of the index and how many of them
    /// it wrote or removed, or nil without touching the index when more than `share` of the
    /// rows would change (a fresh build is then cheaper).
    func refreshTexts(_ db: Database, previous: [TextRow], share: Double) throws -> (rows: Int, changed: Int)? {
        let rows = try textRows(db)
        var before: [TextKey: TextRow] = [:]
        before.reserveCapacity(previous.count)
        for row in previous { before[row.key] = row }
        var carried: [Int64: TextKey] = [:]
        carried.reserveCapacity(rows.count)
        let cursor = try Row.fetchCursor(db, sql: "SELECT rowid, kind, entity_id, locale FROM search_index")
        while let row = try cursor.next() {
            carried[row[0]] = TextKey(kind: row[1], id: row[2], locale: row[3])
        }
        let stale = rows.indices.filter { offset in
            let row = rows[offset]
            return carried[Int64(offset + 1)] != row.key || before[row.key] != row
        }
        let surplus = carried.keys.filter { $0 < 1 || $0 > Int64(rows.count) }
        guard Double(stale.count + surplus.count) <= Double(max(rows.count, carried.count)) * share else { return nil }
        for rowid in surplus + stale.map({ Int64($0 + 1) }) where carried[rowid] != nil {
            try db.execute(sql: "DELETE FROM search_index WHERE rowid = ?", arguments: [rowid])
        }
        for offset in stale { try insert(rows[offset], rowid: Int64(offset + 1), db) }
        return (rows.count, stale.count + surplus.count)
    }

    /// Text of an HTML fragment, good enough for indexing: tags dropped, a few entities decoded.
    static func plainText(fromHTML html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [
            "&nbsp;": " ", "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"",
            "&laquo;": "«", "&raquo;": "»", "&mdash;": "—", "&ndash;": "–",
        ] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }
}

/// Turns any text a user types into a safe FTS5 query.
///
/// The text is folded and cut into words at every character that is neither a letter nor a
/// digit; each word becomes a quoted prefix term (`"word"*`). Quotes, stars, parentheses and
/// operator words like AND, OR, NEAR are thus searched for as plain words, never interpreted.
public enum SearchQuery {
    /// Case-, diacritic- and width-folded text, as stored in the search index.
    public static func fold(_ text: String) -> String {
        TextFolding.fold(text)
    }

    /// The words of `text`, folded.
    /// At most this many words are searched: each becomes a prefix term that FTS5 expands over
    /// the whole index, so the cost grows with their number (5,000 one-letter words took
    /// minutes on the Swiss register).
    public static let maximumWords = 10
    /// At most this many characters of search text.
    public static let maximumLength = 200

    /// Refuses a search text over `maximumWords` words or `maximumLength` characters.
    public static func checkSize(_ text: String) throws {
        guard text.count <= maximumLength, words(text).count <= maximumWords else {
            throw SearchQueryError(maximumWords: maximumWords, maximumLength: maximumLength)
        }
    }

    /// The words of `text` as the index stores them: folded, split at everything but letters and digits.
    public static func words(_ text: String) -> [String] {
        fold(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// An FTS5 MATCH expression for the words, all required (`all`) or any (`!all`);
    /// nil when the text has no word.
    public static func match(_ text: String, all: Bool) -> String? {
        let terms = words(text).map { "\"\($0)\"*" }
        guard !terms.isEmpty else { return nil }
        return terms.joined(separator: all ? " " : " OR ")
    }
}

/// What `CatalogStore.refreshSearchIndex(at:previous:)` did.
public struct SearchIndexRefresh: Sendable, Hashable {
    /// Rows of the index after the refresh.
    public var rows: Int
    /// Rows written or removed; the others were carried as they were. All of them when rebuilt.
    public var changed: Int
    /// Whether the index was rebuilt from scratch rather than carried.
    public var rebuilt: Bool
}

extension CatalogStore {
    /// Above this share of changed index rows, `refreshSearchIndex` rebuilds the whole index:
    /// a rewritten row costs a delete and an insert, a rebuilt one an insert.
    public static let searchIndexRebuildShare = 0.5

    /// Brings the search index of the catalog at `path` up to date after its tables were changed
    /// in place (a delta applied to a copy of the catalog at `previous`, whose index the copy
    /// carries): only the rows of entities whose indexed texts changed, or whose position in a
    /// fresh build moved, are folded and written again; the rest stay. The index ends with the
    /// rows and rowids a fresh build would write, which the content hash checks. Rebuilds the
    /// whole index instead when more than `searchIndexRebuildShare` of its rows would change
    /// or `previous` cannot be read.
    ///
    /// For a file not yet in use: it is written without syncing (the caller fsyncs it before
    /// installing it; a crash leaves a scratch file that is thrown away).
    ///
    /// - Throws: `CatalogError` when a file cannot be opened or written.
    ///
    /// - Parameter changedTables: the tables whose rows changed (a changeset's, `DeltaFile.
    ///   tables(changedBy:)`), when known. If none of them is read by the search index's sources,
    ///   the carried index is already what a fresh build would write (same texts, same entities in
    ///   the same order): nothing is read from `previous` and nothing is written.
    public static func refreshSearchIndex(
        at path: String, previous: String, changedTables: Set<String>? = nil
    ) throws -> SearchIndexRefresh {
        if let changedTables, let rows = try indexRowsIfUntouched(at: path, changedTables: changedTables) {
            return SearchIndexRefresh(rows: rows, changed: 0, rebuilt: false)
        }
        let builder = SearchIndexBuilder()
        let before: [SearchIndexBuilder.TextRow]?
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: previous, configuration: configuration)
            defer { try? queue.close() }
            before = try queue.read { try builder.textRows($0) }
        } catch {
            before = nil
        }
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            var refresh = SearchIndexRefresh(rows: 0, changed: 0, rebuilt: false)
            try queue.inTransaction { db in
                if let before, let carried = try builder.refreshTexts(db, previous: before, share: searchIndexRebuildShare) {
                    refresh = SearchIndexRefresh(rows: carried.rows, changed: carried.changed, rebuilt: false)
                    return .commit
                }
                try rebuildSearchIndex(db)
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index") ?? 0
                refresh = SearchIndexRefresh(rows: rows, changed: rows, rebuilt: true)
                return .commit
            }
            return refresh
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The number of rows of the search index at `path` when none of `changedTables` is read by
    /// the queries the index is built from (as SQLite's authorizer reports them when each query
    /// is prepared, so that no table is forgotten by hand); nil when one is.
    private static func indexRowsIfUntouched(at path: String, changedTables: Set<String>) throws -> Int? {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                var region = DatabaseRegion()
                for source in try SearchIndexBuilder.textSources(db) {
                    region.formUnion(try db.makeStatement(sql: source.sql).databaseRegion)
                }
                let touched = changedTables.contains { table in
                    region.isModified(byEventsOfKind: .insert(tableName: table))
                        || region.isModified(byEventsOfKind: .delete(tableName: table))
                }
                return touched ? nil : try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index") ?? 0
            }
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Rebuilds the full-text search index of the catalog file at `path` from its tables, in
    /// one transaction: the index a fresh build would write (same rows, same rowids), for a
    /// catalog whose tables were changed in place (a delta update). The index is a virtual
    /// table that SQLite's changesets do not record.
    ///
    /// - Throws: `CatalogError` when the file cannot be opened or written.
    public static func rebuildSearchIndex(at path: String) throws {
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.inTransaction { db in
                try rebuildSearchIndex(db)
                return .commit
            }
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Drops and re-creates the search index and fills it from the tables. Dropping is much
    /// faster than deleting every row (each delete updates the index), and numbers the rows
    /// from 1 again as a fresh build does.
    private static func rebuildSearchIndex(_ db: Database) throws {
        guard
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'search_index'")
        else { return }
        try db.execute(sql: "DROP TABLE search_index")
        try db.execute(sql: sql)
        try SearchIndexBuilder().indexTexts(db)
    }
}
