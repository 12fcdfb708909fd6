import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: ProductsUseCase {
    /// Products by name, filtered; a culture filter includes uses registered on its groups.
    public func products(_ filter: ProductFilter, page: PageRequest, locale: String) throws -> Page<ProductSummary> {
        try products(filter, page: page, locale: locale, fromMemory: true)
    }

    /// `products(_:page:locale:)`; `fromMemory`: a pest on a culture, with no other filter, is
    /// listed from the uses kept in memory (`UseIndex`) in the products' name order kept per
    /// locale (`productRanks`), without a statement, once the index is kept (`keepIndexes()`, a
    /// server's warm-up): a one-shot query would read every use to answer one pair. That
    /// statement was most of an uncached products request's SQL: each of the pest's uses probed
    /// for the culture's groups, then the name keys of every match read and sorted by the
    /// collation (Benchmarks/web/README.md). False lists by SQL (tests compare the two).
    func products(
        _ filter: ProductFilter, page: PageRequest, locale: String, fromMemory: Bool
    ) throws -> Page<ProductSummary> {
        // The SQL texts depend on the filter's shape and the length of the locale chain only:
        // built once with named parameters and kept (`SQLTexts`); the values are bound here.
        let texts = LocalizedSQL(chain: info.locales.chain(for: locale), named: true)
        let letter = filter.letter.flatMap(TextFolding.indexLetter(of:))?.lowercased()
        var named: [String: (any DatabaseValueConvertible)?] = texts.arguments
        named["pest"] = filter.pest
        named["culture"] = filter.culture
        named["substance"] = filter.substance
        named["category"] = filter.category?.rawValue
        named["company"] = filter.company
        named["letter"] = letter
        let arguments = StatementArguments(named)
        var shape = texts.chain.count
        for (bit, present) in [
            filter.pest != nil, filter.culture != nil, filter.substance != nil, filter.category != nil,
            filter.company != nil, letter != nil,
        ].enumerated() where present {
            shape |= 1 << (8 + bit)
        }
        // Read before the products' transaction (reads do not nest).
        var kept: [String]?
        if fromMemory, let pest = filter.pest, let culture = filter.culture, filter.substance == nil,
            filter.category == nil, filter.company == nil, letter == nil
        {
            kept = try orderedProducts(pest: pest, culture: culture, locale: locale)
        }
        // Where the uses are kept (a server), so are the products' and substances' names per
        // locale (`rankedNames`, as the uses page reads them): a page's rows then read neither,
        // a subquery per name and language of the chain fewer.
        var keptNames: (products: [String: RankedName], substances: [String: RankedName])?
        if useIndexOnce.keptValue != nil, let products = try namesKept("product", locale),
            let substances = try namesKept("substance", locale)
        {
            keptNames = (products, substances)
        }
        return try read { db in
            // The filter is evaluated once, for the ids of every match in order, which give
            // the total and the page; names and companies are read for the page's products
            // only. A count and a LIMIT query each evaluated the filter, and the page query
            // read the names of every match (twice the SQL time on the register).
            let listed = { self.productsQuery(filter, texts: texts, named: true) }
            let ordered =
                try kept
                ?? String.fetchAll(
                    db.cachedStatement(
                        sql: sqlTexts.text(.init(query: 0, shape: shape), db) {
                            "SELECT id FROM (" + listed() + ") ORDER BY name_key COLLATE agro_name, id"
                        }), arguments: arguments)
            let perPage = page.perPage ?? max(ordered.count, 1)
            let start = min(ordered.count, perPage * (page.page - 1))
            let pageIDs = Array(ordered[start..<min(ordered.count, start + perPage)])
            let statement: GRDB.Statement?
            let statementArguments: StatementArguments
            if pageIDs.isEmpty {
                (statement, statementArguments) = (nil, [])
            } else if pageIDs.count <= Self.pageByIDs {
                // The page's ids are in the list's order already: the statement reads neither
                // the name keys nor sorts by them (the rows are put in that order below).
                let named = keptNames == nil
                let text = try sqlTexts.text(
                    .init(query: 1, shape: texts.chain.count | pageIDs.count << 8 | (named ? 1 << 24 : 0)), db
                ) {
                    let name: SQL = named ? texts.name("product", owner: "p.id") : "NULL"
                    return """
                        SELECT p.id, p.category, p.formulation, p.registration_number, p.registration_expiry,
                          \(name) AS name, NULL AS name_key, \(texts.name("company", owner: "p.company_id")) AS company
                        FROM products p WHERE p.id IN (\(sql: Self.placeholders(pageIDs.count)))
                        """
                }
                (statement, statementArguments) = (try db.cachedStatement(sql: text), StatementArguments(pageIDs) + arguments)
            } else {
                let text = try sqlTexts.text(.init(query: 2, shape: shape), db) {
                    listed() + " ORDER BY name_key COLLATE agro_name, id LIMIT :limit OFFSET :offset"
                }
                (statement, statementArguments) = (
                    try db.cachedStatement(sql: text), arguments + ["limit": perPage, "offset": start]
                )
            }
            // Each row read as the statement steps (a cursor's row is the statement itself, not
            // a copy of its values), columns by position in the order of `productsQuery`'s
            // SELECT: a column found by name costs a case-insensitive search of the names for
            // every value read. The ingredients are added once every product is read.
            var items: [ProductSummary] = []
            items.reserveCapacity(pageIDs.count)
            if let statement {
                let rows = try Row.fetchCursor(statement, arguments: statementArguments)
                while let row = try rows.next() {
                    let id: String = row[0]
                    items.append(
                        ProductSummary(
                            id: id, name: keptNames?.products[id]?.name ?? row[5] ?? id,
                            category: ProductCategory(rawValue: row[1]) ?? .other,
                            formulation: row.text(at: 2), company: row.text(at: 7), registrationNumber: row.text(at: 3),
                            ingredients: [], registrationExpiry: row.text(at: 4)))
                }
            }
            if pageIDs.count <= Self.pageByIDs, items.count > 1 {
                let position = Dictionary(pageIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                var slots = [ProductSummary?](repeating: nil, count: pageIDs.count)
                for item in items { if let index = position[item.id] { slots[index] = item } }
                items = slots.compactMap { $0 }
            }
            let ingredients = try ingredientSummaries(
                db, productIDs: items.map(\.id), texts: texts, arguments: arguments, names: keptNames?.substances)
            for index in items.indices { items[index].ingredients = ingredients[items[index].id] ?? [] }
            return Page(items: items, page: page.page, perPage: perPage, total: ordered.count)
        }
    }

    /// `rankedNames(entity, locale)` unless every language's names kept are others (then nil:
    /// reading them all again per page would cost more than the page's subqueries).
    private func namesKept(_ entity: String, _ locale: String) throws -> [String: RankedName]? {
        try namesOnce.keptValue(entity + "/" + locale) { try rankedNames(entity, locale) }
    }

    /// The products with a use naming `pest` on `culture` or a group above it, in the order of
    /// `ORDER BY name_key COLLATE agro_name, id` in `locale` (their ranks were read so); nil if a
    /// product has no rank (then SQL lists them).
    private func orderedProducts(pest: String, culture: String, locale: String) throws -> [String]? {
        guard let index = useIndexOnce.keptValue else { return nil }
        let ranks = try productRanks(locale)
        let order = productOrderOnce.value(locale) { index.order(ranks) }
        return index.products(pest: pest, culture: culture, in: order)
    }

    /// `value` in a query: the named parameter `:name` when `named` (its value bound later), else bound here.
    static func value(_ name: String, named: Bool, _ value: String) -> SQL {
        named ? SQL(sql: ":" + name) : "\(value)"
    }

    /// `?, ?, ...`: `count` positional parameters.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Pages up to this many products are read by id (bound parameters); larger ones by
    /// running the list again with LIMIT and OFFSET.
    static let pageByIDs = 500

    /// The index letters of the names of the products matching `filter` (its letter ignored).
    public func productLetters(_ filter: ProductFilter, locale: String) throws -> [String] {
        var unlettered = filter
        unlettered.letter = nil
        let listed = productsQuery(unlettered, texts: texts(locale))
        return try read { db in
            let names = try db.column("SELECT name FROM (" + listed + ") WHERE name IS NOT NULL", as: String.self)
            return Set(names.compactMap(TextFolding.indexLetter(of:))).sorted(by: NameOrder.precedes)
        }
    }

    /// The products matching `filter`, with id, name, name_key, category, formulation,
    /// registration_number, registration_expiry and company columns.
    /// `named`: the values as named parameters (`:pest`, `:culture`, `:substance`, `:category`,
    /// `:company`, `:letter`, the folded index letter) rather than bound.
    private func productsQuery(_ filter: ProductFilter, texts: LocalizedSQL, named: Bool = false) -> SQL {
        var conditions: [SQL] = []
        if filter.pest != nil || filter.culture != nil {
            conditions.append(
                "p.id IN ("
                    + usesQuery(UseFilter(pest: filter.pest, culture: filter.culture), column: "u.product_id", named: named)
                    + ")")
        }
        if let substance = filter.substance {
            conditions.append(
                "p.id IN (SELECT product_id FROM product_ingredients WHERE substance_id = \(Self.value("substance", named: named, substance)))"
            )
        }
        if let category = filter.category {
            conditions.append("p.category = \(Self.value("category", named: named, category.rawValue))")
        }
        if let company = filter.company { conditions.append("p.company_id = \(Self.value("company", named: named, company))") }
        let whereClause: SQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var listed: SQL = """
            SELECT * FROM (
              SELECT p.id, p.category, p.formulation, p.registration_number, p.registration_expiry,
                \(texts.name("product", owner: "p.id")) AS name,
                \(texts.field("product", "name_key", owner: "p.id")) AS name_key,
                \(texts.name("company", owner: "p.company_id")) AS company
              FROM products p
            """ + whereClause + ")"
        if let letter = filter.letter, let folded = TextFolding.indexLetter(of: letter) {
            // Index letters are upper-case; name keys are folded lower-case.
            listed += " WHERE substr(name_key, 1, 1) = \(Self.value("letter", named: named, folded.lowercased()))"
        }
        return listed
    }

    /// Ids (in `column`) of the uses matching `filter`; a culture matches uses registered on
    /// it or on any group above it. `named`: the values as named parameters (`:pest`,
    /// `:culture`, `:product`) rather than bound.
    func usesQuery(_ filter: UseFilter, column: String = "u.id", named: Bool = false) -> SQL {
        var conditions: [SQL] = []
        var source: SQL = "uses u"
        if let pest = filter.pest {
            source = "use_pests up JOIN uses u ON u.id = up.use_id"
            conditions.append("up.pest_id = \(Self.value("pest", named: named, pest))")
        }
        if let culture = filter.culture, filter.pest != nil {
            // A pest's uses are few next to a culture group's (305 against 1,186 for the
            // register's largest pair): probing each of them for the culture's groups costs
            // half as much as listing every use of those groups first.
            conditions.append(
                """
                EXISTS (SELECT 1 FROM culture_ancestors ca
                        JOIN use_cultures uc ON uc.use_id = u.id AND uc.culture_id = ca.ancestor_id
                        WHERE ca.culture_id = \(Self.value("culture", named: named, culture)))
                """)
        } else if let culture = filter.culture {
            conditions.append(
                """
                u.id IN (SELECT uc.use_id FROM culture_ancestors ca
                         JOIN use_cultures uc ON uc.culture_id = ca.ancestor_id
                         WHERE ca.culture_id = \(Self.value("culture", named: named, culture)))
                """)
        }
        if let product = filter.product { conditions.append("u.product_id = \(Self.value("product", named: named, product))") }
        let whereClause: SQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return "SELECT \(sql: column) FROM " + source + whereClause
    }

    /// Active ingredients per product id, in label order; `texts` names its locales as
    /// parameters, whose values (and others, unused) are in `arguments`. `names`: the
    /// substances' names in the locale, kept (else read with the ingredients).
    private func ingredientSummaries(
        _ db: Database, productIDs: [String], texts: LocalizedSQL, arguments: StatementArguments,
        names: [String: RankedName]? = nil
    ) throws -> [String: [ActiveIngredient]] {
        guard !productIDs.isEmpty else { return [:] }
        let text = try sqlTexts.text(
            .init(query: 3, shape: texts.chain.count | productIDs.count << 8 | (names == nil ? 1 << 24 : 0)), db
        ) {
            let name: SQL = names == nil ? texts.name("substance", owner: "pi.substance_id") : "NULL"
            return """
                SELECT pi.product_id, pi.substance_id, pi.concentration, pi.unit, \(name) AS name
                FROM product_ingredients pi WHERE pi.product_id IN (\(sql: Self.placeholders(productIDs.count)))
                ORDER BY pi.product_id, pi.position
                """
        }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: text), arguments: StatementArguments(productIDs) + arguments)
        var summaries: [String: [ActiveIngredient]] = [:]
        while let row = try rows.next() {
            // Columns by position, as selected above.
            let substanceID: String = row[1]
            let substance = EntityRef(id: substanceID, name: names?[substanceID]?.name ?? row[4] ?? substanceID)
            summaries[row[0], default: []].append(
                ActiveIngredient(substance: substance, concentration: row[2], unit: row.text(at: 3), modeOfAction: nil))
        }
        return summaries
    }

    /// A product card; nil when unknown.
    public func product(id: EntityID, locale: String) throws -> Product? {
        try read { db in try product(id: id, locale: locale, in: db) }
    }

    /// A product card read on a connection the caller holds (`LiveCatalog.warm` prepares each
    /// connection's statements with it).
    func product(id: EntityID, locale: String, in db: Database) throws -> Product? {
        let texts = texts(locale)
        guard
            let row = try db.row(
                """
                SELECT p.*,
                  \(texts.name("product", owner: "p.id")) AS name,
                  \(texts.name("company", owner: "p.company_id")) AS company_name,
                  \(texts.name("product", owner: "p.original_product_id")) AS original_name,
                  \(texts.field("statement", "text", owner: "p.signal_word")) AS signal_word_text
                FROM products p WHERE p.id = \(id)
                """)
        else { return nil }
        let ingredients = try db.rows(
            """
            SELECT pi.substance_id, pi.concentration, pi.unit, s.moa_scheme, s.moa_group,
              \(texts.name("substance", owner: "pi.substance_id")) AS name
            FROM product_ingredients pi JOIN substances s ON s.id = pi.substance_id
            WHERE pi.product_id = \(id) ORDER BY pi.position
            """
        ).map { row in
            ActiveIngredient(
                substance: EntityRef(id: row["substance_id"], name: row["name"] ?? row["substance_id"]),
                concentration: row["concentration"], unit: row.text("unit"),
                modeOfAction: Self.modeOfAction(row))
        }
        let pictograms = try db.column(
            "SELECT code FROM product_pictograms WHERE product_id = \(id) ORDER BY position", as: String.self)
        let statements = try db.rows(
            """
            SELECT ps.statement_code AS code, \(texts.field("statement", "text", owner: "ps.statement_code")) AS text
            FROM product_statements ps WHERE ps.product_id = \(id) ORDER BY ps.position
            """
        ).map { Statement(code: $0["code"], text: $0["text"] ?? "") }
        let links = try db.rows(
            "SELECT kind, url FROM product_links WHERE product_id = \(id) ORDER BY position"
        ).map { Link(kind: Link.Kind(rawValue: $0["kind"]) ?? .website, url: $0["url"]) }
        let sections = try db.rows(
            """
            SELECT \(texts.field("product_section", "title", owner: "s.id")) AS title,
              \(texts.field("product_section", "body", owner: "s.id")) AS body
            FROM product_sections s WHERE s.product_id = \(id) ORDER BY s.position
            """
        ).map { TextSection(title: $0["title"] ?? "", body: $0["body"] ?? "") }
        // P (GHS), SP and S (Swiss and older EU safety phrases) are precautions; H, EUH, R are hazards.
        let isPrecaution = { (code: String) in code.hasPrefix("P") || code.hasPrefix("S") }
        let hazard = Hazard(
            pictograms: pictograms, signalWord: row.text("signal_word_text"),
            hazardStatements: statements.filter { !isPrecaution($0.code) },
            precautionaryStatements: statements.filter { isPrecaution($0.code) })
        let company = (row["company_id"] as String?).map { EntityRef(id: $0, name: row["company_name"] ?? $0) }
        let original = (row["original_product_id"] as String?).map { EntityRef(id: $0, name: row["original_name"] ?? $0) }
        return Product(
            id: id, name: row["name"] ?? id,
            category: ProductCategory(rawValue: row["category"]) ?? .other,
            formulation: row.text("formulation"), company: company,
            registrationNumber: row.text("registration_number"),
            registrationExpiry: row.text("registration_expiry"),
            origin: ProductOrigin(rawValue: row["origin"]) ?? .registered, originalProduct: original,
            soldOutDeadline: row.text("sold_out_deadline"), exhaustionDeadline: row.text("exhaustion_deadline"),
            ingredients: ingredients, hazard: hazard, links: links, sections: sections)
    }

    static func modeOfAction(_ row: Row) -> ModeOfAction? {
        guard let scheme = row.text("moa_scheme"), let group = row.text("moa_group") else { return nil }
        return ModeOfAction(scheme: scheme, group: group)
    }

    /// The uses matching `filter`, with their cultures, pests and obligations.
    public func uses(_ filter: UseFilter, locale: String) throws -> [Use] {
        let texts = texts(locale)
        return try read { db in
            let rows = try db.rows(
                """
                SELECT u.*,
                  \(texts.name("product", owner: "u.product_id")) AS product_name,
                  \(texts.field("product", "name_key", owner: "u.product_id")) AS product_key,
                  \(texts.field("use", "application_area", owner: "u.id")) AS application_area,
                  \(texts.field("use", "notes", owner: "u.id")) AS notes
                FROM uses u WHERE u.id IN (
                """ + usesQuery(filter) + ") ORDER BY product_key COLLATE agro_name, u.product_id, u.id")
            let ids: [String] = rows.map { $0["id"] }
            guard !ids.isEmpty else { return [] }
            var cultures: [String: [EntityRef]] = [:]
            for row in try db.rows(
                """
                SELECT uc.use_id, uc.culture_id, \(texts.name("culture", owner: "uc.culture_id")) AS name
                FROM use_cultures uc WHERE uc.use_id IN \(ids) ORDER BY uc.use_id, name COLLATE agro_name
                """)
            {
                cultures[row["use_id"], default: []].append(
                    EntityRef(id: row["culture_id"], name: row["name"] ?? row["culture_id"]))
            }
            var pests: [String: [UsePest]] = [:]
            for row in try db.rows(
                """
                SELECT up.use_id, up.pest_id, up.effect, \(texts.name("pest", owner: "up.pest_id")) AS name
                FROM use_pests up WHERE up.use_id IN \(ids) ORDER BY up.use_id, name COLLATE agro_name
                """)
            {
                pests[row["use_id"], default: []].append(
                    UsePest(
                        pest: EntityRef(id: row["pest_id"], name: row["name"] ?? row["pest_id"]),
                        effect: PestEffect(rawValue: row["effect"]) ?? .full))
            }
            var obligations: [String: [String]] = [:]
            for row in try db.rows(
                """
                SELECT uo.use_id, \(texts.field("obligation", "text", owner: "uo.obligation_id")) AS text
                FROM use_obligations uo WHERE uo.use_id IN \(ids) ORDER BY uo.use_id, uo.position
                """)
            {
                if let text = row.text("text") { obligations[row["use_id"], default: []].append(text) }
            }
            return rows.map { row in
                let id: String = row["id"]
                let bbch: BBCHRange? = {
                    guard let from: Int = row["bbch_from"] else { return nil }
                    return BBCHRange(from: from, to: row["bbch_to"] ?? from)
                }()
                return Use(
                    id: id,
                    product: EntityRef(id: row["product_id"], name: row["product_name"] ?? row["product_id"]),
                    cultures: cultures[id] ?? [], pests: pests[id] ?? [],
                    dose: Dose(from: row["dose_from"], to: row["dose_to"], unit: row.text("dose_unit")),
                    water: Dose(from: row["water_from"], to: row["water_to"], unit: row.text("water_unit")),
                    phiDays: row["phi_days"], maxApplications: row["max_applications"],
                    intervalDays: row["interval_days"], bbch: bbch,
                    applicationArea: row.text("application_area"), notes: row.text("notes"),
                    obligations: obligations[id] ?? [])
            }
        }
    }
}
