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
struct SearchIndexBuilder {
    func build(_ db: Database) throws {
        try indexNames(db)
        try indexTexts(db)
    }

    private func indexNames(_ db: Database) throws {
        // Names come with the key the writer already folded (`name_key`); the other texts are
        // folded here.
        let sources: [(kind: EntityKind, sql: String, folded: Bool)] = [
            (.product, "SELECT product_id, name_key FROM product_i18n WHERE name_key IS NOT NULL", true),
            (.product, "SELECT id, registration_number FROM products WHERE registration_number IS NOT NULL", false),
            (.substance, "SELECT substance_id, name_key FROM substance_i18n WHERE name_key IS NOT NULL", true),
            (.culture, "SELECT culture_id, name_key FROM culture_i18n WHERE name_key IS NOT NULL", true),
            (.culture, "SELECT id, latin_name FROM cultures WHERE latin_name IS NOT NULL", false),
            (.pest, "SELECT pest_id, name_key FROM pest_i18n WHERE name_key IS NOT NULL", true),
            (.pest, "SELECT id, latin_name FROM pests WHERE latin_name IS NOT NULL", false),
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

    func indexTexts(_ db: Database) throws {
        // One query per kind; each yields id, locale, title, then the columns that make up the
        // body, in a stable order.
        let sources: [(kind: EntityKind, sql: String)] = [
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
                SELECT c.id, i.locale, i.name, c.latin_name, i.description
                FROM cultures c JOIN culture_i18n i ON i.culture_id = c.id
                ORDER BY c.id, i.locale
                """
            ),
            (
                .pest,
                """
                SELECT p.id, i.locale, i.name, p.latin_name, i.description
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
        for source in sources {
            let rows = try Row.fetchAll(db, sql: source.sql)
            for row in rows {
                let id: String = row[0]
                let locale: String = row[1]
                let title: String = row[2] ?? ""
                var body = (3..<row.count).compactMap { row[$0] as String? }.joined(separator: " ")
                if source.kind == .news { body = Self.plainText(fromHTML: body) }
                try db.insert("INSERT INTO search_index(kind, entity_id, locale, title, body) VALUES (?, ?, ?, ?, ?)") { binder in
                    binder.add(source.kind.rawValue)
                    binder.add(id)
                    binder.add(locale)
                    binder.add(SearchQuery.fold(title))
                    binder.add(SearchQuery.fold(body))
                }
            }
        }
        try db.execute(sql: "INSERT INTO search_index(search_index) VALUES ('optimize')")
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

extension CatalogStore {
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
                // Dropping and re-creating is much faster than deleting every row (each delete
                // updates the index), and numbers the rows from 1 again as a fresh build does.
                guard
                    let sql = try String.fetchOne(
                        db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'search_index'")
                else { return .commit }
                try db.execute(sql: "DROP TABLE search_index")
                try db.execute(sql: sql)
                try SearchIndexBuilder().indexTexts(db)
                return .commit
            }
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}
