import AgroDomain
import Foundation

/// The SQL texts and row reading of the products list, the search and the name look-up, shared
/// by the server's catalog (`SQLiteCatalog`, through GRDB) and the quick command line's
/// (`DirectCatalog`, through the SQLite C API): one text and one reading of each answer,
/// whichever connection runs it.
///
/// The texts take every value as a parameter (`:pest`, `:locale0`, `?`), so a text depends on
/// the query's shape alone and a server keeps it (`SQLiteCatalog.sqlTexts`).
enum CatalogQueries {
    /// `field` of `<entity>_i18n` for the entity whose id is the SQL expression `owner`, in the
    /// first locale of the chain that has it: `COALESCE((SELECT name FROM product_i18n WHERE
    /// product_id = p.id AND locale = :locale0), ...)`, `locales` terms; each locale the named
    /// parameter `:localeN` (`named`) or a `?` (values in the chain's order). Table and column
    /// names come from this module's code.
    static func field(_ entity: String, _ field: String, owner: String, locales: Int, named: Bool = true) -> String {
        let terms = (0..<locales).map { index in
            "(SELECT \(field) FROM \(entity)_i18n WHERE \(entity)_id = \(owner) AND locale = \(named ? ":locale\(index)" : "?"))"
        }
        // The trailing NULL keeps COALESCE valid for a catalog with a single language.
        return "COALESCE(" + joined(terms + ["NULL"], ", ") + ")"
    }

    /// `parts` with `separator` between them: `joined(separator:)` written out, as the standard
    /// library's is generic here and its first call made the Swift runtime look up its element
    /// type's conformances (3% of a quick query's instructions).
    static func joined(_ parts: [String], _ separator: String) -> String {
        var text = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { text += separator }
            text += part
        }
        return text
    }

    /// The values of `field`'s named parameters: `locale0`, `locale1`, ... for the chain.
    static func localeArguments(_ chain: [String]) -> [String: SQLArgument] {
        var arguments: [String: SQLArgument] = [:]
        for (index, locale) in chain.enumerated() { arguments["locale\(index)"] = .text(locale) }
        return arguments
    }

    // MARK: - Products

    /// Ids (in `column`) of the uses naming `pest` (`:pest`), on `culture` (`:culture`) or a
    /// group above it, of `product` (`:product`), as the filter has them.
    static func uses(pest: Bool, culture: Bool, product: Bool, column: String) -> String {
        var conditions: [String] = []
        var source = "uses u"
        if pest {
            source = "use_pests up JOIN uses u ON u.id = up.use_id"
            conditions.append("up.pest_id = :pest")
        }
        if culture, pest {
            // A pest's uses are few next to a culture group's (305 against 1,186 for the
            // register's largest pair): probing each of them for the culture's groups costs
            // half as much as listing every use of those groups first.
            conditions.append(
                """
                EXISTS (SELECT 1 FROM culture_ancestors ca
                        JOIN use_cultures uc ON uc.use_id = u.id AND uc.culture_id = ca.ancestor_id
                        WHERE ca.culture_id = :culture)
                """)
        } else if culture {
            conditions.append(
                """
                u.id IN (SELECT uc.use_id FROM culture_ancestors ca
                         JOIN use_cultures uc ON uc.culture_id = ca.ancestor_id
                         WHERE ca.culture_id = :culture)
                """)
        }
        if product { conditions.append("u.product_id = :product") }
        return "SELECT \(column) FROM " + source + (conditions.isEmpty ? "" : " WHERE " + joined(conditions, " AND "))
    }

    /// The products matching `filter`, with id, category, formulation, registration_number,
    /// registration_expiry, name, name_key and company columns; the filter's values as named
    /// parameters (`productArguments`), `letter` folded.
    static func products(_ filter: ProductFilter, lettered: Bool, locales: Int) -> String {
        var conditions: [String] = []
        if filter.pest != nil || filter.culture != nil {
            conditions.append(
                "p.id IN ("
                    + uses(pest: filter.pest != nil, culture: filter.culture != nil, product: false, column: "u.product_id")
                    + ")")
        }
        if filter.substance != nil {
            conditions.append("p.id IN (SELECT product_id FROM product_ingredients WHERE substance_id = :substance)")
        }
        if filter.category != nil { conditions.append("p.category = :category") }
        if filter.company != nil { conditions.append("p.company_id = :company") }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + joined(conditions, " AND ")
        var listed = """
            SELECT * FROM (
              SELECT p.id, p.category, p.formulation, p.registration_number, p.registration_expiry,
                \(field("product", "name", owner: "p.id", locales: locales)) AS name,
                \(field("product", "name_key", owner: "p.id", locales: locales)) AS name_key,
                \(field("company", "name", owner: "p.company_id", locales: locales)) AS company
              FROM products p
            """ + whereClause + ")"
        // Index letters are upper-case; name keys are folded lower-case.
        if lettered { listed += " WHERE substr(name_key, 1, 1) = :letter" }
        return listed
    }

    /// The named values of `products`' text: the filter's, the folded `letter` and the locales.
    static func productArguments(_ filter: ProductFilter, letter: String?, chain: [String]) -> SQLArguments {
        var arguments = SQLArguments()
        arguments.named = localeArguments(chain)
        arguments.named["pest"] = .text(filter.pest)
        arguments.named["culture"] = .text(filter.culture)
        arguments.named["substance"] = .text(filter.substance)
        arguments.named["category"] = .text(filter.category?.rawValue)
        arguments.named["company"] = .text(filter.company)
        arguments.named["letter"] = .text(letter)
        return arguments
    }

    /// The filter's shape, as `SQLTextKey` keys the texts: which filters are present and the
    /// chain's length.
    static func shape(_ filter: ProductFilter, lettered: Bool, locales: Int) -> Int {
        var shape = locales
        for (bit, present) in [
            filter.pest != nil, filter.culture != nil, filter.substance != nil, filter.category != nil,
            filter.company != nil, lettered,
        ].enumerated() where present {
            shape |= 1 << (8 + bit)
        }
        return shape
    }

    /// `?, ?, ...`: `count` positional parameters.
    static func placeholders(_ count: Int) -> String {
        joined(Array(repeating: "?", count: count), ", ")
    }

    /// Pages up to this many products are read by id (bound parameters); larger ones by
    /// running the list again with LIMIT and OFFSET.
    static let pageByIDs = 500

    /// Where the texts of one products page come from: built here, or kept by a server.
    typealias Texts = (_ key: SQLTextKey, _ make: () -> String) throws -> String

    /// The index letter of `filter`, folded as name keys are (lower case); nil for none.
    static func indexLetter(of filter: ProductFilter) -> String? {
        filter.letter.flatMap(TextFolding.indexLetter(of:))?.lowercased()
    }

    /// One page of `filter`'s products in name order.
    ///
    /// `ordered`: every match's id in order when known already (a server's uses kept in
    /// memory), else listed by SQL. `names`: the products' and substances' names in the
    /// locale, when kept, so the page's rows read none.
    ///
    /// The filter is evaluated once, for the ids of every match in order, which give the total
    /// and the page; names and companies are read for the page's products only. A count and a
    /// LIMIT query each evaluated the filter, and the page query read the names of every match
    /// (twice the SQL time on the register).
    static func productsPage(
        _ filter: ProductFilter, page: PageRequest, chain: [String], ordered kept: [String]?,
        names: (products: [String: RankedName], substances: [String: RankedName])?, reader: some CatalogReading,
        texts: Texts
    ) throws -> Page<ProductSummary> {
        let letter = indexLetter(of: filter)
        let arguments = productArguments(filter, letter: letter, chain: chain)
        let shape = shape(filter, lettered: letter != nil, locales: chain.count)
        let listed = { products(filter, lettered: letter != nil, locales: chain.count) }
        let ordered =
            try kept
            ?? reader.strings(
                texts(.init(query: 0, shape: shape)) {
                    "SELECT id FROM (" + listed() + ") ORDER BY name_key COLLATE agro_name, id"
                },
                arguments)
        let perPage = page.perPage ?? max(ordered.count, 1)
        let start = min(ordered.count, perPage * (page.page - 1))
        let pageIDs = Array(ordered[start..<min(ordered.count, start + perPage)])
        var items: [ProductSummary] = []
        items.reserveCapacity(pageIDs.count)
        // Columns by position, in the order of `products`' SELECT.
        let item = { (row: any CatalogRow) in
            let id = row.string(at: 0) ?? ""
            items.append(
                ProductSummary(
                    id: id, name: names?.products[id]?.name ?? row.string(at: 5) ?? id,
                    category: ProductCategory(rawValue: row.string(at: 1) ?? "") ?? .other,
                    formulation: row.text(at: 2), company: row.text(at: 7), registrationNumber: row.text(at: 3),
                    ingredients: [], registrationExpiry: row.text(at: 4)))
        }
        if !pageIDs.isEmpty, pageIDs.count <= pageByIDs {
            // The page's ids are in the list's order already: the statement reads neither the
            // name keys nor sorts by them (the rows are put in that order below).
            let text = try texts(.init(query: 1, shape: chain.count | pageIDs.count << 8 | (names == nil ? 1 << 24 : 0))) {
                let name = names == nil ? field("product", "name", owner: "p.id", locales: chain.count) : "NULL"
                return """
                    SELECT p.id, p.category, p.formulation, p.registration_number, p.registration_expiry,
                      \(name) AS name, NULL AS name_key, \(field("company", "name", owner: "p.company_id", locales: chain.count)) AS company
                    FROM products p WHERE p.id IN (\(placeholders(pageIDs.count)))
                    """
            }
            var byIDs = arguments
            byIDs.positional = pageIDs.map { .text($0) }
            try reader.each(text, byIDs, item)
            if items.count > 1 {
                let position = Dictionary(pageIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                var slots = [ProductSummary?](repeating: nil, count: pageIDs.count)
                for item in items { if let index = position[item.id] { slots[index] = item } }
                items = slots.compactMap { $0 }
            }
        } else if !pageIDs.isEmpty {
            let text = try texts(.init(query: 2, shape: shape)) {
                listed() + " ORDER BY name_key COLLATE agro_name, id LIMIT :limit OFFSET :offset"
            }
            var limited = arguments
            limited.named["limit"] = .integer(perPage)
            limited.named["offset"] = .integer(start)
            try reader.each(text, limited, item)
        }
        let ingredients = try ingredientSummaries(
            productIDs: items.map(\.id), chain: chain, names: names?.substances, reader: reader, texts: texts)
        for index in items.indices { items[index].ingredients = ingredients[items[index].id] ?? [] }
        return Page(items: items, page: page.page, perPage: perPage, total: ordered.count)
    }

    /// Active ingredients per product id, in label order. `names`: the substances' names in the
    /// locale, kept (else read with the ingredients).
    private static func ingredientSummaries(
        productIDs: [String], chain: [String], names: [String: RankedName]?, reader: some CatalogReading, texts: Texts
    ) throws -> [String: [ActiveIngredient]] {
        guard !productIDs.isEmpty else { return [:] }
        let text = try texts(.init(query: 3, shape: chain.count | productIDs.count << 8 | (names == nil ? 1 << 24 : 0))) {
            let name = names == nil ? field("substance", "name", owner: "pi.substance_id", locales: chain.count) : "NULL"
            return """
                SELECT pi.product_id, pi.substance_id, pi.concentration, pi.unit, \(name) AS name
                FROM product_ingredients pi WHERE pi.product_id IN (\(placeholders(productIDs.count)))
                ORDER BY pi.product_id, pi.position
                """
        }
        var arguments = SQLArguments(positional: productIDs)
        arguments.named = localeArguments(chain)
        var summaries: [String: [ActiveIngredient]] = [:]
        try reader.each(text, arguments) { row in
            let substanceID = row.string(at: 1) ?? ""
            let substance = EntityRef(id: substanceID, name: names?[substanceID]?.name ?? row.string(at: 4) ?? substanceID)
            summaries[row.string(at: 0) ?? "", default: []].append(
                ActiveIngredient(substance: substance, concentration: row.double(at: 2), unit: row.text(at: 3), modeOfAction: nil)
            )
        }
        return summaries
    }
}
