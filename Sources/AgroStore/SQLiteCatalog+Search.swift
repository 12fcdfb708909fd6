import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: SearchUseCase {
    /// Full-text search over names and descriptions in every locale, best matches first.
    public func search(_ text: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit> {
        let perPage = page.perPage
        try SearchQuery.checkSize(text)
        // Every word must match; if that finds nothing, any word may.
        for all in [true, false] {
            guard let match = SearchQuery.match(text, all: all) else { break }
            let found = try hits(match: match, kinds: kinds, page: page, locale: locale)
            if found.total > 0 || SearchQuery.words(text).count < 2 { return found }
        }
        return Page(items: [], page: page.page, perPage: perPage ?? 1, total: 0)
    }

    private func hits(match: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit> {
        let texts = texts(locale)
        var kindFilter: SQL = ""
        if let kinds { kindFilter = " AND kind IN \(kinds.map(\.rawValue).sorted())" }
        // Titles weigh ten times the body; an entity matching in several locales counts once,
        // with its best rank.
        // bm25() only works in a plain query of the FTS table, hence the materialized CTE.
        let matches: SQL = """
            WITH scored AS MATERIALIZED (
              SELECT kind, entity_id, bm25(search_index, 0, 0, 0, 10.0, 1.0) AS score
              FROM search_index WHERE search_index MATCH \(match)
            """ + kindFilter + """
                )
                SELECT kind, entity_id, MIN(score) AS rank FROM scored GROUP BY kind, entity_id
                """
        return try read { db in
            // Every hit is ranked anyway; names are read only for the page shown.
            let ranked = try db.rows(matches + " ORDER BY rank, kind, entity_id").map { row in
                (kind: EntityKind(rawValue: row["kind"]) ?? .product, id: row["entity_id"] as String, rank: row["rank"] as Double)
            }
            return try Page(slicing: ranked, page).map { hit -> SearchHit in
                let (name, detail) = try describe(db, kind: hit.kind, id: hit.id, texts: texts)
                return SearchHit(kind: hit.kind, id: hit.id, name: name ?? hit.id, detail: detail, rank: hit.rank)
            }
        }
    }

    /// Name and a line of context for a hit.
    private func describe(_ db: Database, kind: EntityKind, id: String, texts: LocalizedSQL) throws -> (String?, String?) {
        let sql: SQL
        switch kind {
        case .product:
            sql = "SELECT \(texts.name("product", owner: "id")), category FROM products WHERE id = \(id)"
        case .substance:
            sql =
                "SELECT \(texts.name("substance", owner: "id")), trim(coalesce(moa_scheme || ' ' || moa_group, '')) FROM substances WHERE id = \(id)"
        case .culture:
            sql = "SELECT \(texts.name("culture", owner: "id")), latin_name FROM cultures WHERE id = \(id)"
        case .pest:
            sql = "SELECT \(texts.name("pest", owner: "id")), latin_name FROM pests WHERE id = \(id)"
        case .news:
            sql = "SELECT \(texts.field("news", "title", owner: "id")), date FROM news WHERE id = \(id)"
        case .region:
            sql = "SELECT \(texts.name("region", owner: "id")), NULL FROM regions WHERE id = \(id)"
        case .company:
            sql = "SELECT \(texts.name("company", owner: "id")), NULL FROM companies WHERE id = \(id)"
        }
        guard let row = try db.row(sql) else { return (nil, nil) }
        let detail: String? = row[1]
        return (row[0], detail?.isEmpty == false ? detail : nil)
    }
}

extension SQLiteCatalog: LookupUseCase {
    /// Resolves an id, registration number or name typed by a user to one entity.
    public func lookup(_ text: String, kind: EntityKind, locale: String) throws -> [NameMatch] {
        // White_Space is what `.whitespacesAndNewlines` holds; Foundation's trimming bridges
        // through NSString, which costs a query 1% of its instructions in the runtime's
        // conformance look-ups (Benchmarks/README.md, issue 20).
        let scalars = text.unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars[start...].lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        let trimmed = String(scalars[start..<end])
        guard !trimmed.isEmpty else { return [] }
        // Ids and names are short; a long text is looked up each time rather than kept.
        guard trimmed.utf8.count <= LookupCache.longestText else {
            return try lookupUncached(trimmed, kind: kind, locale: locale)
        }
        return try lookups.value(LookupKey(text: trimmed, kind: kind, locale: locale)) {
            try lookupUncached(trimmed, kind: kind, locale: locale)
        }
    }

    private func lookupUncached(_ trimmed: String, kind: EntityKind, locale: String) throws -> [NameMatch] {
        let key = NameKey.make(trimmed)
        return try read { db in
            if try db.value("SELECT 1 FROM \(sql: Self.table(kind)) WHERE id = \(trimmed)", as: Int.self) != nil {
                return try names(db, ids: [trimmed], kind: kind, locale: locale)
            }
            guard !key.isEmpty else { return [] }
            // Exact name, then names starting with the text, then names containing it.
            let kindValue = kind.rawValue
            let pattern = Self.likeEscaped(key)
            let tiers: [SQL] = [
                "SELECT DISTINCT entity_id FROM name_index WHERE kind = \(kindValue) AND key = \(key)",
                "SELECT DISTINCT entity_id FROM name_index WHERE kind = \(kindValue) AND key LIKE \(pattern + "%") ESCAPE '\\'",
                "SELECT DISTINCT entity_id FROM name_index WHERE kind = \(kindValue) AND instr(key, \(key)) > 0",
                wordsInAnyOrder(key, kind: kindValue),
            ]
            for tier in tiers {
                let ids = try db.column(tier + " ORDER BY entity_id LIMIT 50", as: String.self)
                if !ids.isEmpty { return try names(db, ids: ids, kind: kind, locale: locale) }
            }
            return []
        }
    }

    /// Names of `kind` closest to `text`, for "did you mean" messages.
    public func closestNames(to text: String, kind: EntityKind, locale: String, limit: Int) throws -> [NameMatch] {
        let key = NameKey.make(text)
        return try read { db in
            let rows = try db.rows("SELECT key, entity_id FROM name_index WHERE kind = \(kind.rawValue)")
            var best: [String: Int] = [:]
            let length = key.count
            let threshold = max(2, length / 2)
            for row in rows {
                let candidate: String = row["key"]
                // An input longer than a name by more than the threshold is never close to it (the
                // length difference bounds the distance from below): a 17,000-character argument
                // costs one count per name, not a quadratic comparison.
                if length - candidate.count > threshold { continue }
                // Compare with the candidate's prefix too, so a short typed name is close to a long one.
                let distance = min(
                    TextFolding.editDistance(key, candidate),
                    TextFolding.editDistance(key, String(candidate.prefix(key.count))) + 1)
                let id: String = row["entity_id"]
                best[id] = min(best[id] ?? .max, distance)
            }
            let ids = best.filter { $0.value <= threshold }
                .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                .prefix(limit).map(\.key)
            let matches = try names(db, ids: Array(ids), kind: kind, locale: locale)
            return ids.compactMap { id in matches.first { $0.id == id } }
        }
    }

    /// Names holding every typed word as the start of one of theirs, in any order:
    /// "озимая пшеница" finds "Пшеница озимая".
    private func wordsInAnyOrder(_ key: String, kind: String) -> SQL {
        let words = SearchQuery.words(key)
        let conditions = words.map { word -> SQL in
            "(' ' || key) LIKE \("% " + Self.likeEscaped(word) + "%") ESCAPE '\\'"
        }
        return "SELECT DISTINCT entity_id FROM name_index WHERE kind = \(kind) AND "
            + (conditions.isEmpty ? "0" : conditions.joined(separator: " AND "))
    }

    /// Display names of entities, in `locale` with fallback, sorted by name.
    private func names(_ db: Database, ids: [String], kind: EntityKind, locale: String) throws -> [NameMatch] {
        let texts = texts(locale)
        let field = kind == .news ? "title" : "name"
        return try db.rows(
            """
            SELECT id, \(texts.field(kind.rawValue, field, owner: "id")) AS name FROM \(sql: Self.table(kind))
            WHERE id IN \(ids) ORDER BY name COLLATE agro_name, id
            """
        ).map { NameMatch(id: $0["id"], name: $0["name"] ?? $0["id"]) }
    }

    static func table(_ kind: EntityKind) -> String {
        switch kind {
        case .product: return "products"
        case .substance: return "substances"
        case .culture: return "cultures"
        case .pest: return "pests"
        case .news: return "news"
        case .region: return "regions"
        case .company: return "companies"
        }
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
