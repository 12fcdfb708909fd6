import AgroDomain
import Foundation

extension CatalogQueries {
    // MARK: - Search

    /// Full-text search over names and descriptions in every locale, best matches first: every
    /// word must match; if that finds nothing, any word may.
    static func search(
        _ text: String, kinds: Set<EntityKind>?, page: PageRequest, chain: [String], reader: some CatalogReading
    ) throws -> Page<SearchHit> {
        try SearchQuery.checkSize(text)
        for all in [true, false] {
            guard let match = SearchQuery.match(text, all: all) else { break }
            let found = try hits(match: match, kinds: kinds, page: page, chain: chain, reader: reader)
            if found.total > 0 || SearchQuery.words(text).count < 2 { return found }
        }
        return Page(items: [], page: page.page, perPage: page.perPage ?? 1, total: 0)
    }

    private static func hits(
        match: String, kinds: Set<EntityKind>?, page: PageRequest, chain: [String], reader: some CatalogReading
    ) throws -> Page<SearchHit> {
        var arguments = SQLArguments(positional: [match])
        var kindFilter = ""
        if let kinds {
            kindFilter = " AND kind IN (\(placeholders(kinds.count)))"
            arguments.positional += kinds.map(\.rawValue).sorted().map { .text($0) }
        }
        // Titles weigh ten times the body; an entity matching in several locales counts once,
        // with its best rank. bm25() only works in a plain query of the FTS table, hence the
        // materialized CTE. Every hit is ranked anyway; names are read only for the page shown.
        let matches = """
            WITH scored AS MATERIALIZED (
              SELECT kind, entity_id, bm25(search_index, 0, 0, 0, 10.0, 1.0) AS score
              FROM search_index WHERE search_index MATCH ?\(kindFilter)
            )
            SELECT kind, entity_id, MIN(score) AS rank FROM scored GROUP BY kind, entity_id
            ORDER BY rank, kind, entity_id
            """
        var ranked: [(kind: EntityKind, id: String, rank: Double)] = []
        try reader.each(matches, arguments) { row in
            ranked.append(
                (EntityKind(rawValue: row.string(at: 0) ?? "") ?? .product, row.string(at: 1) ?? "", row.double(at: 2) ?? 0))
        }
        return try Page(slicing: ranked, page).map { hit -> SearchHit in
            let (name, detail) = try describe(kind: hit.kind, id: hit.id, chain: chain, reader: reader)
            return SearchHit(kind: hit.kind, id: hit.id, name: name ?? hit.id, detail: detail, rank: hit.rank)
        }
    }

    /// Name and a line of context for a hit.
    private static func describe(
        kind: EntityKind, id: String, chain: [String], reader: some CatalogReading
    ) throws -> (String?, String?) {
        let name = { (entity: String, field: String) in Self.field(entity, field, owner: "id", locales: chain.count) }
        let sql: String
        switch kind {
        case .product: sql = "SELECT \(name("product", "name")), category FROM products WHERE id = ?"
        case .substance:
            sql =
                "SELECT \(name("substance", "name")), trim(coalesce(moa_scheme || ' ' || moa_group, '')) FROM substances WHERE id = ?"
        case .culture: sql = "SELECT \(name("culture", "name")), latin_name FROM cultures WHERE id = ?"
        case .pest: sql = "SELECT \(name("pest", "name")), latin_name FROM pests WHERE id = ?"
        case .news: sql = "SELECT \(name("news", "title")), date FROM news WHERE id = ?"
        case .region: sql = "SELECT \(name("region", "name")), NULL FROM regions WHERE id = ?"
        case .company: sql = "SELECT \(name("company", "name")), NULL FROM companies WHERE id = ?"
        }
        var arguments = SQLArguments(positional: [id])
        arguments.named = localeArguments(chain)
        var found: (String?, String?)?
        try reader.each(sql, arguments) { row in
            guard found == nil else { return }
            let detail = row.string(at: 1)
            found = (row.string(at: 0), detail?.isEmpty == false ? detail : nil)
        }
        return found ?? (nil, nil)
    }

    // MARK: - Looking up names

    /// `text` without the white space around it. White_Space is what `.whitespacesAndNewlines`
    /// holds; Foundation's trimming bridges through NSString, which costs a query 1% of its
    /// instructions in the runtime's conformance look-ups (Benchmarks/startup/README.md).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars[start...].lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        return String(scalars[start..<end])
    }

    /// The entities of `kind` that `trimmed` (an id or a name, trimmed) names: the id, else the
    /// exact name, then names starting with the text, then names containing it, then names
    /// holding its words in any order.
    static func lookup(_ trimmed: String, kind: EntityKind, chain: [String], reader: some CatalogReading) throws -> [EntityRef] {
        guard !trimmed.isEmpty else { return [] }
        if try !reader.strings("SELECT id FROM \(table(kind)) WHERE id = ?", SQLArguments(positional: [trimmed])).isEmpty {
            return try names(ids: [trimmed], kind: kind, chain: chain, reader: reader)
        }
        let key = NameKey.make(trimmed)
        guard !key.isEmpty else { return [] }
        let pattern = likeEscaped(key)
        let words = SearchQuery.words(key)
        let anyOrder = words.map { _ in "(' ' || key) LIKE ? ESCAPE '\\'" }
        let tiers: [(condition: String, values: [String])] = [
            ("key = ?", [key]),
            ("key LIKE ? ESCAPE '\\'", [pattern + "%"]),
            ("instr(key, ?) > 0", [key]),
            (anyOrder.isEmpty ? "0" : joined(anyOrder, " AND "), words.map { "% " + likeEscaped($0) + "%" }),
        ]
        for tier in tiers {
            let ids = try reader.strings(
                "SELECT DISTINCT entity_id FROM name_index WHERE kind = ? AND \(tier.condition) ORDER BY entity_id LIMIT 50",
                SQLArguments(positional: [kind.rawValue] + tier.values))
            if !ids.isEmpty { return try names(ids: ids, kind: kind, chain: chain, reader: reader) }
        }
        return []
    }

    /// Names of `kind` closest to `text`, for "did you mean" messages.
    static func closestNames(
        to text: String, kind: EntityKind, chain: [String], limit: Int, reader: some CatalogReading
    ) throws -> [EntityRef] {
        let key = NameKey.make(text)
        var best: [String: Int] = [:]
        let length = key.count
        let threshold = max(2, length / 2)
        try reader.each("SELECT key, entity_id FROM name_index WHERE kind = ?", SQLArguments(positional: [kind.rawValue])) {
            row in
            let candidate = row.string(at: 0) ?? ""
            // An input longer than a name by more than the threshold is never close to it (the
            // length difference bounds the distance from below): a 17,000-character argument
            // costs one count per name, not a quadratic comparison.
            if length - candidate.count > threshold { return }
            // Compare with the candidate's prefix too, so a short typed name is close to a long one.
            let distance = min(
                TextFolding.editDistance(key, candidate),
                TextFolding.editDistance(key, String(candidate.prefix(key.count))) + 1)
            let id = row.string(at: 1) ?? ""
            best[id] = min(best[id] ?? .max, distance)
        }
        let ids = best.filter { $0.value <= threshold }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .prefix(limit).map(\.key)
        let matches = try names(ids: Array(ids), kind: kind, chain: chain, reader: reader)
        return ids.compactMap { id in matches.first { $0.id == id } }
    }

    /// Display names of entities, in the chain's first locale that has them, sorted by name.
    private static func names(ids: [String], kind: EntityKind, chain: [String], reader: some CatalogReading) throws
        -> [EntityRef]
    {
        guard !ids.isEmpty else { return [] }
        let name = field(kind.rawValue, kind == .news ? "title" : "name", owner: "id", locales: chain.count)
        var arguments = SQLArguments(positional: ids)
        arguments.named = localeArguments(chain)
        var matches: [EntityRef] = []
        try reader.each(
            "SELECT id, \(name) AS name FROM \(table(kind)) WHERE id IN (\(placeholders(ids.count))) ORDER BY name COLLATE agro_name, id",
            arguments
        ) { row in
            let id = row.string(at: 0) ?? ""
            matches.append(EntityRef(id: id, name: row.string(at: 1) ?? id))
        }
        return matches
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
