import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: ProductsUseCase {
    /// Products by name, filtered; a culture filter includes uses registered on its groups.
    ///
    /// Where the uses are kept in memory (`keepIndexes()`, a server's warm-up), a pest on a
    /// culture with no other filter is listed from them (`UseIndex`) in the products' name order
    /// kept per locale (`productRanks`), and the page's names come from the names kept per
    /// locale; else by SQL alone (a one-shot query would read every use to answer one pair).
    /// The same page either way (`ProductsOfAPairTests`).
    public func products(_ filter: ProductFilter, page: PageRequest, locale: String) throws -> Page<ProductSummary> {
        // The SQL texts are kept per shape (`sqlTexts`): see `CatalogQueries.productsPage`.
        let chain = info.locales.chain(for: locale)
        // Read before the products' transaction (reads do not nest). Kept: /api/v1/products'
        // p99 41 ms with the uses kept, 129 ms by SQL (Benchmarks/web/README.md).
        var kept: [String]?
        if let pest = filter.pest, let culture = filter.culture, filter.substance == nil,
            filter.category == nil, filter.company == nil, CatalogQueries.indexLetter(of: filter) == nil
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
            try CatalogQueries.productsPage(
                filter, page: page, chain: chain, ordered: kept, names: keptNames, reader: db,
                texts: { key, make in sqlTexts.value(key, make) })
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
        return index.products(pest: pest, culture: culture, in: try productOrder(locale, index))
    }

    /// The index letters of the names of the products matching `filter` (its letter ignored).
    public func productLetters(_ filter: ProductFilter, locale: String) throws -> [String] {
        let chain = info.locales.chain(for: locale)
        var unlettered = filter
        unlettered.letter = nil
        let listed = CatalogQueries.products(unlettered, lettered: false, locales: chain.count)
        return try read { db in
            let names = try db.strings(
                "SELECT name FROM (" + listed + ") WHERE name IS NOT NULL",
                CatalogQueries.productArguments(unlettered, letter: nil, chain: chain))
            return Set(names.compactMap(TextFolding.indexLetter(of:))).sorted(by: NameOrder.precedes)
        }
    }

    /// Ids (in `column`) of the uses matching `filter`; a culture matches uses registered on
    /// it or on any group above it.
    func usesQuery(_ filter: UseFilter, column: String = "u.id") -> SQL {
        let text = CatalogQueries.uses(
            pest: filter.pest != nil, culture: filter.culture != nil, product: filter.product != nil, column: column)
        var named: [String: (any DatabaseValueConvertible)?] = [:]
        if let pest = filter.pest { named["pest"] = pest }
        if let culture = filter.culture { named["culture"] = culture }
        if let product = filter.product { named["product"] = product }
        return SQL(sql: text, arguments: StatementArguments(named))
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
