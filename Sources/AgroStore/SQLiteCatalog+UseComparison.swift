import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: UseComparisonUseCase {
    /// One row per use matching `query`, a culture matching through its groups and its members
    /// (the cultures below it: those rows name their member and come after the culture's own,
    /// grouped by member); expired and out-of-stage uses are marked, not left out.
    ///
    /// Two implementations, chosen here: where the uses are kept in memory (`keepIndexes()`, a
    /// server's warm-up) the rows are made from them, else read by SQL (a one-shot query, which
    /// would read every use to answer one question). The same rows either way (`UseComparisonTests`).
    public func compareUses(_ query: UseQuery, page: PageRequest, locale: String) throws -> Page<UseRow> {
        // Kept: the uses page's p99 58 ms with it, 1,340 ms by SQL (Benchmarks/web/README.md).
        if let index = useIndexOnce.keptValue { return try keptComparison(query, page: page, locale: locale, index: index) }
        let texts = texts(locale)
        let whereClause = comparisonFilter(query)
        return try read { db in
            try db.page(
                count: "SELECT COUNT(*) FROM uses u" + whereClause,
                ordered: listedUses(texts) + memberColumns(query.culture, texts)
                    + " FROM uses u JOIN products p ON p.id = u.product_id"
                    + whereClause + Self.comparisonOrder(query.sort, byMember: query.culture != nil), page
            ) { rows in
                try useRows(db, rows, query: query, texts: texts)
            }
        }
    }

    /// The mode-of-action groups (labels) of every use matching `query` without its group
    /// filter: what the uses page offers as the filter's choices.
    public func groupsOffered(for query: UseQuery) throws -> Set<String> {
        let groupsOfProducts = try productGroups()
        let products: Set<String>
        if let index = useIndexOnce.keptValue, let pest = query.pest, let culture = query.culture, query.substance == nil {
            products = index.productIDs(pest: pest, culture: culture)
        } else {
            var unfiltered = query
            unfiltered.group = nil
            products = Set(
                try read { db in
                    try db.column(
                        "SELECT DISTINCT u.product_id FROM uses u JOIN products p ON p.id = u.product_id"
                            + comparisonFilter(unfiltered), as: String.self)
                })
        }
        return products.reduce(into: Set<String>()) { $0.formUnion(groupsOfProducts[$1] ?? []) }
    }

    /// `compareUses` from the uses kept in memory (`index`): every matching use's id in the
    /// page's order from one statement, or for a pest on a culture sorted by name from `index`
    /// and the products' name order kept per locale; the page's rows from what `index` keeps of
    /// every use and the names kept per locale (no statement).
    private func keptComparison(_ query: UseQuery, page: PageRequest, locale: String, index: UseIndex) throws -> Page<UseRow> {
        // Read before the comparison's transaction (reads do not nest).
        let kept = KeptNames(
            cultures: try rankedNames("culture", locale), pests: try rankedNames("pest", locale),
            products: try rankedNames("product", locale), substances: try rankedNames("substance", locale),
            uses: index, areas: try applicationAreas(locale, index))
        let ordered: [String]
        if query.substance == nil, query.group == nil, query.sort == .name, let pest = query.pest,
            let culture = query.culture
        {
            let order = try productOrder(locale, index)
            ordered = index.uses(pest: pest, culture: culture, in: order, cultureRanks: kept.cultures).map(\.id)
        } else {
            let texts = texts(locale)
            ordered = try read { db in
                try db.rows(
                    "SELECT u.id, \(texts.field("product", "name_key", owner: "u.product_id")) AS product_key"
                        + memberColumns(query.culture, texts) + " FROM uses u JOIN products p ON p.id = u.product_id"
                        + comparisonFilter(query) + Self.comparisonOrder(query.sort, byMember: query.culture != nil)
                ).map { $0[0] }
            }
        }
        let ids = Page(slicing: ordered, page)
        return Page(
            items: keptRows(ids.items, query: query, kept: kept), page: ids.page, perPage: ids.perPage, total: ids.total)
    }

    /// Each use's application area in `locale` (falling back along the chain, as the
    /// comparison's statement reads it) by the use's number in `index`, nil where it has none:
    /// read once per locale. Kept by number, each distinct text once (a few texts for 25,876
    /// uses on the Swiss register), rather than in a table by id: that held about 3 MB per locale.
    func applicationAreas(_ locale: String, _ index: UseIndex) throws -> [String?] {
        try index.applicationAreas.value(locale) {
            let texts = texts(locale)
            return try read { db in
                var areas = [String?](repeating: nil, count: index.useCount), distinct: [String: String] = [:]
                let rows = try Row.fetchCursor(
                    db,
                    SQLRequest<Row>(literal: "SELECT u.id, \(texts.field("use", "application_area", owner: "u.id")) FROM uses u"))
                while let row = try rows.next() {
                    guard let area = row.text(at: 1), let number = index.number(of: row[0]) else { continue }
                    let kept = distinct[area] ?? area
                    distinct[area] = kept
                    areas[number] = kept
                }
                return areas
            }
        }
    }

    /// The mode-of-action groups (labels) of each product's ingredients, read once per catalog.
    func productGroups() throws -> [String: Set<String>] {
        try productGroupsOnce.value {
            try read { db in
                var groups: [String: Set<String>] = [:]
                for row in try db.rows(
                    """
                    SELECT pi.product_id, s.moa_scheme, s.moa_group
                    FROM product_ingredients pi JOIN substances s ON s.id = pi.substance_id
                    """)
                {
                    if let group = Self.modeOfAction(row)?.label { groups[row["product_id"], default: []].insert(group) }
                }
                return groups
            }
        }
    }

    /// Reads and keeps the catalog's uses in memory (`UseIndex`) now, for a process that answers
    /// many queries (the web server, through `LiveCatalog.warm`): `compareUses` and the products
    /// of a pest on a culture then answer from memory. A one-shot query does without it.
    public func keepIndexes() throws {
        _ = try useIndexOnce.value { try read { db in try UseIndex(db) } }
    }

    /// The order of `index`'s products by name in `locale`, made once per locale.
    func productOrder(_ locale: String, _ index: UseIndex) throws -> UseIndex.ProductOrder {
        try productOrderOnce.value(locale) { index.order(try productRanks(locale)) }
    }

    /// Each product's place in the comparison's name order in `locale` (its name key, then its
    /// id), read once per catalog and locale.
    func productRanks(_ locale: String) throws -> [String: Int] {
        try productRanksOnce.value(locale) {
            let texts = texts(locale)
            return try read { db in
                let ids = try db.column(
                    "SELECT p.id FROM products p ORDER BY \(texts.field("product", "name_key", owner: "p.id")) COLLATE agro_name, p.id",
                    as: String.self)
                return Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }
    }

    /// Each culture's, pest's, product's or substance's (`entity`'s) name in `locale` and place
    /// in the name order (ties by id, as the uses' own rows come), read once per catalog and
    /// locale.
    func rankedNames(_ entity: String, _ locale: String) throws -> [String: RankedName] {
        try namesOnce.value(entity + "/" + locale) {
            let texts = texts(locale)
            return try read { db in
                var names: [String: RankedName] = [:]
                for (rank, row) in try db.rows(
                    """
                    SELECT id, name FROM (SELECT e.id, \(texts.name(entity, owner: "e.id")) AS name FROM \(sql: entity)s e)
                    ORDER BY name COLLATE agro_name, id
                    """
                ).enumerated() {
                    let id: String = row["id"]
                    names[id] = RankedName(name: row["name"] ?? id, rank: rank)
                }
                return names
            }
        }
    }

    /// The columns of a compared use (`u`) and its product (`p`), before the FROM clause.
    private func listedUses(_ texts: LocalizedSQL) -> SQL {
        """
        SELECT u.*, p.registration_number, p.registration_expiry,
          \(texts.name("product", owner: "u.product_id")) AS product_name,
          \(texts.field("product", "name_key", owner: "u.product_id")) AS product_key,
          \(texts.field("use", "application_area", owner: "u.id")) AS application_area
        """
    }

    /// With a culture asked, the columns `member_id` and `member_name` of a compared use (`u`):
    /// the member of `culture` (a culture below it) the use is registered on when it names
    /// neither `culture` nor a group above it, the first of them by name then id (as
    /// `UseIndex.member(of:under:ranks:)` picks it); NULL otherwise. Nothing without a culture.
    private func memberColumns(_ culture: EntityID?, _ texts: LocalizedSQL) -> SQL {
        guard let culture else { return "" }
        let own: SQL = """
            EXISTS (SELECT 1 FROM use_cultures uc JOIN culture_ancestors ca
                    ON ca.culture_id = \(culture) AND ca.ancestor_id = uc.culture_id WHERE uc.use_id = u.id)
            """
        let name = texts.name("culture", owner: "uc.culture_id")
        func first(_ column: SQL) -> SQL {
            """
            (SELECT \(column) FROM use_cultures uc JOIN culture_ancestors ca
               ON ca.culture_id = uc.culture_id AND ca.ancestor_id = \(culture)
             WHERE uc.use_id = u.id ORDER BY \(name) COLLATE agro_name, uc.culture_id LIMIT 1)
            """
        }
        return ", CASE WHEN " + own + " THEN NULL ELSE " + first("uc.culture_id") + " END AS member_id, CASE WHEN "
            + own + " THEN NULL ELSE " + first(name) + " END AS member_name"
    }

    /// The ORDER BY clause of `sort` (`product_key` is the product's name key); `byMember`, the
    /// culture's own uses first, then its members' by the member's name (`memberColumns`).
    private static func comparisonOrder(_ sort: UseSort, byMember: Bool) -> SQL {
        let members: SQL = byMember ? " member_id IS NOT NULL, member_name COLLATE agro_name, member_id," : ""
        switch sort {
        case .name: return " ORDER BY" + members + " product_key COLLATE agro_name, u.product_id, u.id"
        case .dose:
            return " ORDER BY" + members
                + " u.dose_unit IS NULL, u.dose_unit, COALESCE(u.dose_to, u.dose_from) IS NULL, COALESCE(u.dose_to, u.dose_from), product_key COLLATE agro_name, u.id"
        case .phi: return " ORDER BY" + members + " u.phi_days IS NULL, u.phi_days, product_key COLLATE agro_name, u.id"
        }
    }

    /// The WHERE clause of the uses matching `query` (`u` is the use, `p` its product).
    private func comparisonFilter(_ query: UseQuery) -> SQL {
        var conditions: [SQL]
        if let pest = query.pest, let culture = query.culture {
            // Driven by the pest's uses, each checked against the culture's ancestry: about
            // twice as fast on the Swiss register as listing every use of a large culture group.
            // A member's uses (a culture below it) count too.
            conditions = [
                "u.id IN (SELECT use_id FROM use_pests WHERE pest_id = \(pest))",
                """
                (EXISTS (SELECT 1 FROM use_cultures uc JOIN culture_ancestors ca
                         ON ca.culture_id = \(culture) AND ca.ancestor_id = uc.culture_id WHERE uc.use_id = u.id)
                 OR EXISTS (SELECT 1 FROM use_cultures uc JOIN culture_ancestors ca
                            ON ca.culture_id = uc.culture_id AND ca.ancestor_id = \(culture) WHERE uc.use_id = u.id))
                """,
            ]
        } else if let culture = query.culture {
            conditions = [
                "(u.id IN (" + usesQuery(UseFilter(culture: culture)) + ")"
                    + """
                     OR u.id IN (SELECT uc.use_id FROM culture_ancestors ca JOIN use_cultures uc ON uc.culture_id = ca.culture_id
                                 WHERE ca.ancestor_id = \(culture)))
                    """
            ]
        } else {
            conditions = ["u.id IN (" + usesQuery(UseFilter(pest: query.pest, culture: query.culture)) + ")"]
        }
        if let substance = query.substance {
            conditions.append("u.product_id IN (SELECT product_id FROM product_ingredients WHERE substance_id = \(substance))")
        }
        if let group = query.group {
            var match: SQL = "upper(s.moa_group) = \(group.group.uppercased())"
            if let scheme = group.scheme { match += " AND upper(s.moa_scheme) = \(scheme.uppercased())" }
            conditions.append(
                """
                u.product_id IN (SELECT pi.product_id FROM product_ingredients pi
                                 JOIN substances s ON s.id = pi.substance_id WHERE
                """ + " " + match + ")")
        }
        return " WHERE " + conditions.joined(separator: " AND ")
    }

    /// The compared uses of `rows` (of `listedUses`), in their order, with their ingredients,
    /// cultures and pests read in one statement each.
    private func useRows(_ db: Database, _ rows: [Row], query: UseQuery, texts: LocalizedSQL) throws -> [UseRow] {
        let useIDs: [String] = rows.map { $0["id"] }
        let productIDs = Array(Set(rows.map { $0["product_id"] as String }))
        let ingredients = try useIngredients(db, productIDs: productIDs, texts: texts)
        let cultures = try useRefs(
            db, table: "use_cultures", column: "culture_id", entity: "culture", useIDs: useIDs, texts: texts)
        let pests = try useRefs(db, table: "use_pests", column: "pest_id", entity: "pest", useIDs: useIDs, texts: texts)
        return rows.map { row in
            let id: String = row["id"], productID: String = row["product_id"]
            let expiry = row.text("registration_expiry")
            let bbch: BBCHRange? = (row["bbch_from"] as Int?).map { BBCHRange(from: $0, to: row["bbch_to"] ?? $0) }
            let water = Dose(from: row["water_from"], to: row["water_to"], unit: row.text("water_unit"))
            let productIngredients = ingredients[productID] ?? []
            let member = row.text("member_id").map { member in
                cultures[id]?.first { $0.id == member } ?? EntityRef(id: member, name: row.text("member_name") ?? member)
            }
            return UseRow(
                id: id, name: row["product_name"] ?? productID, productID: productID,
                registrationNumber: row.text("registration_number"), registrationExpiry: expiry,
                ingredients: productIngredients, groups: Self.groups(productIngredients),
                dose: Dose(from: row["dose_from"], to: row["dose_to"], unit: row.text("dose_unit")).closed,
                water: water.isEmpty ? nil : water.closed, phiDays: row["phi_days"],
                maxApplications: row["max_applications"], intervalDays: row["interval_days"], bbch: bbch,
                applicationArea: row.text("application_area"), cultures: cultures[id] ?? [], pests: pests[id] ?? [],
                expired: expiry.map { $0 < query.asOf } ?? false,
                outsideStage: query.stage.map { stage in bbch.map { !$0.contains(stage) } ?? false } ?? false,
                member: member)
        }
    }

    /// The compared uses `ids`, in their order, made from what is kept in memory (`kept`): the
    /// same rows as `useRows` reads. A use whose product is not in the catalog is left out, as
    /// the statement's join leaves it.
    private func keptRows(_ ids: [String], query: UseQuery, kept: KeptNames) -> [UseRow] {
        let details = kept.uses.details
        return ids.compactMap { id -> UseRow? in
            guard let use = details.uses[id], let product = details.products[use.productID] else { return nil }
            let ingredients = product.ingredients.map {
                UseIngredient(
                    substanceID: $0.substanceID, name: kept.substances[$0.substanceID]?.name ?? $0.substanceID,
                    concentration: $0.concentration, unit: $0.unit, group: $0.group)
            }
            let refs = kept.uses.refs(of: id)
            let member = query.culture.flatMap { kept.uses.member(of: id, under: $0, ranks: kept.cultures) }
            return UseRow(
                id: id, name: kept.products[use.productID]?.name ?? use.productID, productID: use.productID,
                registrationNumber: product.registrationNumber, registrationExpiry: product.registrationExpiry,
                ingredients: ingredients, groups: Self.groups(ingredients), dose: use.dose, water: use.water,
                phiDays: use.phiDays, maxApplications: use.maxApplications, intervalDays: use.intervalDays, bbch: use.bbch,
                applicationArea: kept.uses.number(of: id).flatMap { kept.areas[$0] },
                cultures: Self.ordered(refs.cultures, kept.cultures),
                pests: Self.ordered(refs.pests, kept.pests),
                expired: product.registrationExpiry.map { $0 < query.asOf } ?? false,
                outsideStage: query.stage.map { stage in use.bbch.map { !$0.contains(stage) } ?? false } ?? false,
                member: member.map { EntityRef(id: $0, name: kept.cultures[$0]?.name ?? $0) })
        }
    }

    /// Distinct group codes of `ingredients`, in label order.
    static func groups(_ ingredients: [UseIngredient]) -> [String] {
        var seen: [String] = []
        for case let group? in ingredients.map(\.group) where !seen.contains(group) { seen.append(group) }
        return seen
    }

    /// Active ingredients with their mode-of-action group, per product id, in label order.
    func useIngredients(_ db: Database, productIDs: [String], texts: LocalizedSQL) throws -> [String: [UseIngredient]] {
        try activeIngredients(db, productIDs: productIDs, texts: texts).mapValues { ingredients in
            ingredients.map {
                UseIngredient(
                    substanceID: $0.substance.id, name: $0.substance.name, concentration: $0.concentration, unit: $0.unit,
                    group: $0.modeOfAction?.label)
            }
        }
    }

    /// Active ingredients with their mode of action, per product id, in label order: one
    /// statement for all the products (the use comparison and the plan check read them so).
    func activeIngredients(
        _ db: Database, productIDs: [String], texts: LocalizedSQL
    ) throws -> [String: [ActiveIngredient]] {
        guard !productIDs.isEmpty else { return [:] }
        var result: [String: [ActiveIngredient]] = [:]
        for row in try db.rows(
            """
            SELECT pi.product_id, pi.substance_id, pi.concentration, pi.unit, s.moa_scheme, s.moa_group,
              \(texts.name("substance", owner: "pi.substance_id")) AS name
            FROM product_ingredients pi JOIN substances s ON s.id = pi.substance_id
            WHERE pi.product_id IN \(productIDs) ORDER BY pi.product_id, pi.position
            """)
        {
            let substance: String = row["substance_id"]
            result[row["product_id"], default: []].append(
                ActiveIngredient(
                    substance: EntityRef(id: substance, name: row["name"] ?? substance),
                    concentration: row["concentration"], unit: row.text("unit"), modeOfAction: Self.modeOfAction(row)))
        }
        return result
    }

    /// Cultures or pests (`ids`) named from `names`, in their name order, ties by id.
    private static func ordered(_ ids: [String], _ names: [String: RankedName]) -> [EntityRef] {
        // Each id's name looked up once, not twice per comparison (a use may name dozens of
        // cultures: hashing their ids was most of a page's rows).
        ids.map { (id: $0, name: names[$0]) }
            .sorted { a, b in
                let left = a.name?.rank ?? -1, right = b.name?.rank ?? -1
                return left != right ? left < right : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }.map { EntityRef(id: $0.id, name: $0.name?.name ?? $0.id) }
    }

    /// Cultures or pests of each use, by name.
    private func useRefs(
        _ db: Database, table: String, column: String, entity: String, useIDs: [String], texts: LocalizedSQL
    ) throws -> [String: [EntityRef]] {
        guard !useIDs.isEmpty else { return [:] }
        var result: [String: [EntityRef]] = [:]
        for row in try db.rows(
            """
            SELECT t.use_id, t.\(sql: column) AS ref_id, \(texts.name(entity, owner: "t.\(column)")) AS name
            FROM \(sql: table) t WHERE t.use_id IN \(useIDs) ORDER BY t.use_id, name COLLATE agro_name
            """)
        {
            result[row["use_id"], default: []].append(EntityRef(id: row["ref_id"], name: row["name"] ?? row["ref_id"]))
        }
        return result
    }
}

/// What a page's rows take from memory rather than from statements: names per catalog and
/// locale (`rankedNames`), each use's cultures, pests and details per catalog (`useIndex`),
/// the uses' application areas per catalog and locale.
struct KeptNames {
    let cultures: [String: RankedName]
    let pests: [String: RankedName]
    let products: [String: RankedName]
    let substances: [String: RankedName]
    let uses: UseIndex
    /// By the use's number in `uses`.
    let areas: [String?]
}

/// An entity's name in one locale and its place in that locale's name order.
struct RankedName: Sendable {
    let name: String
    let rank: Int
}
