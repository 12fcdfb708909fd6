import AgroDomain
import Foundation
import GRDB

/// Writes a new catalog file: the content build and the importers feed it records, then
/// `finish()` derives the lookup tables and compacts the file.
///
/// The records go into a database in memory, which `finish()` compacts into the file at
/// `path` with `VACUUM INTO`; a failed build leaves no file behind. Writing the same records
/// in the same order gives the same bytes: the file holds no clock reading other than
/// `CatalogHeader.builtAt`.
///
/// ```swift
/// let writer = try CatalogWriter(path: "demo.sqlite", header: CatalogHeader(
///     identity: "org.example.demo", version: 1, builtAt: "2026-01-01T00:00:00Z",
///     locales: LocaleChain(locales: ["en"]), title: ["en": "Demo"]))
/// try writer.add(CatalogRecord.Product(id: "p1", name: ["en": "Product 1"], category: .herbicide))
/// try writer.finish()
/// ```
public final class CatalogWriter {
    let queue: DatabaseQueue
    let path: String
    private let header: CatalogHeader
    /// The multi-row statements, and room for the texts of the insert being run.
    let cache = InsertCache()
    var finished = false
    /// The ids uses refer to and their references, checked here rather than by SQLite.
    var useReferences = UseReferences()
    /// The connection while `batch(_:)` runs; only used inside that call, on its thread.
    private var batchDatabase: Database?
    // The use's own row goes through the cache too: 26 000 of them in the 2026 register.
    private static let uses = MultiRowInsert(
        "INSERT INTO uses(id, product_id, dose_from, dose_to, dose_unit, water_from, water_to, water_unit, "
            + "phi_days, max_applications, interval_days, bbch_from, bbch_to) VALUES ",
        columns: 13, maximumRows: 1)
    private static let useCultures = MultiRowInsert(
        "INSERT INTO use_cultures(use_id, culture_id) VALUES ", columns: 2, maximumRows: 32)
    private static let usePests = MultiRowInsert(
        "INSERT INTO use_pests(use_id, pest_id, effect) VALUES ", columns: 3, maximumRows: 32)
    private static let useObligations = MultiRowInsert(
        "INSERT INTO use_obligations(use_id, position, obligation_id) VALUES ", columns: 3, maximumRows: 32)

    /// Starts an empty catalog that `finish()` writes at `path` (removing any file there now).
    ///
    /// - Throws: `CatalogWriterError.cannotWrite` when no file can be created at `path`.
    public init(path: String, header: CatalogHeader) throws {
        self.path = path
        self.header = header
        try? FileManager.default.removeItem(atPath: path)
        // Nothing is written to `path` before `finish()`, but a path where no file can be
        // made should fail now, not after the whole build: SQLite makes the file it opens.
        do {
            try DatabaseQueue(path: path).close()
            try? FileManager.default.removeItem(atPath: path)
        } catch let error as DatabaseError {
            throw CatalogWriterError.cannotWrite(path: path, reason: error.message ?? "\(error.resultCode)")
        }
        var configuration = Configuration()
        // References are checked once, in finish(): enforcing them on every insert looked up
        // the parent rows of each of the 370 000 rows of a register import one by one, which
        // took a third of the writing time.
        configuration.foreignKeysEnabled = false
        configuration.journalMode = .default
        // One transaction spans every add(_:) call, from init to finish().
        configuration.allowsUnsafeTransactions = true
        // Built in memory and written once, by `VACUUM INTO`: a register import makes a
        // catalog of some 30 MB. A build file held the same pages in SQLite's cache, but its
        // commits also wrote them to the file (some 11 000 writes of a page for the 2026
        // register) and the copy read them back.
        queue = try DatabaseQueue(configuration: configuration)
        try queue.inDatabase { db in
            // `VACUUM INTO` keeps the page size: the catalog's bytes depend on it.
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            // `VACUUM INTO` writes the file with this database's synchronous setting: FULL
            // synced it as it went, some 0.06 s of a 0.13 s copy for the 2026 register. A
            // crash while importing leaves a file to import again, whatever the setting.
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "BEGIN")
            // Secondary indexes come in finish(), built once over the sorted rows rather than
            // updated row by row; VACUUM lays the file out the same either way.
            for statement in CatalogSchema.tableStatements { try db.execute(sql: statement) }
            try writeHeader(db)
        }
    }

    deinit {
        // Before the connection goes: a statement left unfinalized would keep it open as a
        // zombie past the connection object, and its rollback hook would then call into freed
        // memory when the last statement is finalized.
        cache.removeStatements()
    }

    private func writeHeader(_ db: Database) throws {
        let chain = header.locales
        var metadata: [(String, String)] = [
            ("identity", header.identity),
            ("version", String(header.version)),
            ("schema_version", String(CatalogSchema.version)),
            ("built_at", header.builtAt),
            ("locales", chain.locales.joined(separator: ",")),
        ]
        for locale in chain.locales.sorted() {
            if let fallbacks = chain.fallbacks[locale] {
                metadata.append(("fallback.\(locale)", fallbacks.joined(separator: ",")))
            }
        }
        for (key, value) in metadata {
            try db.execute(sql: "INSERT INTO catalog_metadata(key, value) VALUES (?, ?)", arguments: [key, value])
        }
        for locale in locales([header.title, header.attribution]) {
            try db.execute(
                sql: "INSERT INTO catalog_i18n(locale, title, attribution) VALUES (?, ?, ?)",
                arguments: [locale, header.title[locale], header.attribution[locale]])
        }
    }

    // MARK: - Records

    /// Adds a company.
    public func add(_ company: CatalogRecord.Company) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO companies(id) VALUES (?)") { $0.add(company.id) }
            try self.insertI18n(db, I18n.company, key: company.id, [company.name], nameKey: company.name)
        }
    }

    /// Adds a hazard or precautionary statement (or a signal word) that products refer to by code.
    public func add(_ statement: CatalogRecord.Statement) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO statements(code) VALUES (?)") { $0.add(statement.code) }
            try self.insertI18n(db, I18n.statement, key: statement.code, [statement.text])
        }
    }

    /// Adds an active substance.
    public func add(_ substance: CatalogRecord.Substance) throws {
        try write { db in
            try db.insert(
                with: cache,
                "INSERT INTO substances(id, iupac_name, cas_number, moa_scheme, moa_group) VALUES (?, ?, ?, ?, ?)"
            ) {
                $0.add(substance.id)
                $0.add(substance.iupacName)
                $0.add(substance.casNumber)
                $0.add(substance.modeOfAction?.scheme)
                $0.add(substance.modeOfAction?.group)
            }
            try self.insertI18n(
                db, I18n.substance, key: substance.id, [substance.description, substance.name], nameKey: substance.name)
        }
    }

    /// Adds a culture with its growth stages and its links to the groups above it.
    public func add(_ culture: CatalogRecord.Culture) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO cultures(id, latin_name, eppo_code) VALUES (?, ?, ?)") {
                $0.add(culture.id)
                $0.add(culture.latinName)
                $0.add(culture.eppoCode)
            }
            self.useReferences.wrote(.culture, culture.id)
            try self.insertI18n(
                db, I18n.culture, key: culture.id, [culture.description, culture.name], nameKey: culture.name)
            for parent in Set(culture.parentIDs).sorted() {
                try db.insert(with: cache, "INSERT INTO culture_parents(culture_id, parent_id) VALUES (?, ?)") {
                    $0.add(culture.id)
                    $0.add(parent)
                }
            }
            for (position, stage) in culture.stages.enumerated() {
                try db.insert(
                    with: cache, "INSERT INTO growth_stages(culture_id, position, bbch_from, bbch_to) VALUES (?, ?, ?, ?)"
                ) {
                    $0.add(culture.id)
                    $0.add(position)
                    $0.add(stage.bbch.from)
                    $0.add(stage.bbch.to)
                }
                try self.insertI18n(db, I18n.growthStage, key: db.lastInsertedRowID, [stage.name])
            }
        }
    }

    /// Adds a pest.
    public func add(_ pest: CatalogRecord.Pest) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO pests(id, kind, latin_name, eppo_code) VALUES (?, ?, ?, ?)") {
                $0.add(pest.id)
                $0.add(pest.kind.rawValue)
                $0.add(pest.latinName)
                $0.add(pest.eppoCode)
            }
            self.useReferences.wrote(.pest, pest.id)
            try self.insertI18n(db, I18n.pest, key: pest.id, [pest.description, pest.name], nameKey: pest.name)
            for (position, url) in pest.images.enumerated() {
                try db.insert(with: cache, "INSERT INTO pest_images(pest_id, position, url) VALUES (?, ?, ?)") {
                    $0.add(pest.id)
                    $0.add(position)
                    $0.add(url)
                }
            }
        }
    }

    /// Adds a product with its ingredients, hazards, links and sections.
    public func add(_ product: CatalogRecord.Product) throws {
        try write { db in
            try db.insert(
                with: cache,
                """
                INSERT INTO products(id, category, formulation, company_id, registration_number,
                  registration_expiry, origin, original_product_id, sold_out_deadline,
                  exhaustion_deadline, signal_word)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            ) {
                $0.add(product.id)
                $0.add(product.category.rawValue)
                $0.add(product.formulation)
                $0.add(product.companyID)
                $0.add(product.registrationNumber)
                $0.add(product.registrationExpiry)
                $0.add(product.origin.rawValue)
                $0.add(product.originalProductID)
                $0.add(product.soldOutDeadline)
                $0.add(product.exhaustionDeadline)
                $0.add(product.signalWord)
            }
            self.useReferences.wrote(.product, product.id)
            try self.insertI18n(db, I18n.product, key: product.id, [product.name], nameKey: product.name)
            for (position, ingredient) in product.ingredients.enumerated() {
                try db.insert(
                    with: cache,
                    """
                    INSERT INTO product_ingredients(product_id, position, substance_id, concentration, unit)
                    VALUES (?, ?, ?, ?, ?)
                    """
                ) {
                    $0.add(product.id)
                    $0.add(position)
                    $0.add(ingredient.substanceID)
                    $0.add(ingredient.concentration)
                    $0.add(ingredient.unit)
                }
            }
            for (position, code) in product.pictograms.enumerated() {
                try db.insert(with: cache, "INSERT INTO product_pictograms(product_id, position, code) VALUES (?, ?, ?)") {
                    $0.add(product.id)
                    $0.add(position)
                    $0.add(code)
                }
            }
            for (position, code) in product.statements.enumerated() {
                try db.insert(
                    with: cache, "INSERT INTO product_statements(product_id, position, statement_code) VALUES (?, ?, ?)"
                ) {
                    $0.add(product.id)
                    $0.add(position)
                    $0.add(code)
                }
            }
            for (position, link) in product.links.enumerated() {
                try db.insert(with: cache, "INSERT INTO product_links(product_id, position, kind, url) VALUES (?, ?, ?, ?)") {
                    $0.add(product.id)
                    $0.add(position)
                    $0.add(link.kind.rawValue)
                    $0.add(link.url)
                }
            }
            for (position, section) in product.sections.enumerated() {
                try db.insert(with: cache, "INSERT INTO product_sections(product_id, position) VALUES (?, ?)") {
                    $0.add(product.id)
                    $0.add(position)
                }
                try self.insertI18n(
                    db, I18n.productSection, key: db.lastInsertedRowID, [section.body, section.title])
            }
        }
    }

    /// Sets the product that the product `id` (a sale permission or parallel import) derives
    /// from, for a source that names the original only after the product itself.
    public func setOriginal(of id: EntityID, to original: EntityID) throws {
        try write { db in
            try db.execute(sql: "UPDATE products SET original_product_id = ? WHERE id = ?", arguments: [original, id])
        }
    }

    /// Adds an obligation that uses refer to by id.
    public func add(_ obligation: CatalogRecord.Obligation) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO obligations(id) VALUES (?)") { $0.add(obligation.id) }
            self.useReferences.wrote(.obligation, obligation.id)
            try self.insertI18n(db, I18n.obligation, key: obligation.id, [obligation.text])
        }
    }

    /// Adds a use with its cultures, pests and obligations.
    public func add(_ use: CatalogRecord.Use) throws {
        try write { db in
            try db.insert(with: cache, Self.uses, count: 1) { binder, _ in
                binder.add(use.id)
                binder.add(use.productID)
                binder.add(use.dose.from)
                binder.add(use.dose.to)
                binder.add(use.dose.unit)
                binder.add(use.water.from)
                binder.add(use.water.to)
                binder.add(use.water.unit)
                binder.add(use.phiDays)
                binder.add(use.maxApplications)
                binder.add(use.intervalDays)
                binder.add(use.bbch?.from)
                binder.add(use.bbch?.to)
            }
            self.useReferences.refer(.product, to: use.productID)
            try self.insertI18n(db, I18n.use, key: use.id, [use.applicationArea, use.notes])
            // A use has a few cultures and pests and, in the 2026 register, some seven
            // obligations: each kind goes in as one multi-row insert.
            let cultures = Self.sortedUnique(use.cultureIDs)
            for culture in cultures { self.useReferences.refer(.culture, to: culture) }
            try db.insert(with: cache, Self.useCultures, count: cultures.count) { binder, index in
                binder.add(use.id)
                binder.add(cultures[index])
            }
            // The first of each pest, in the given order; a use names a few, so a linear scan
            // beats a set.
            var pests: [CatalogRecord.Target] = []
            pests.reserveCapacity(use.pests.count)
            for pest in use.pests where !pests.contains(where: { $0.pestID == pest.pestID }) { pests.append(pest) }
            for pest in pests { self.useReferences.refer(.pest, to: pest.pestID) }
            try db.insert(with: cache, Self.usePests, count: pests.count) { binder, index in
                binder.add(use.id)
                binder.add(pests[index].pestID)
                binder.add(pests[index].effect.rawValue)
            }
            let obligations = use.obligationIDs
            for obligation in obligations { self.useReferences.refer(.obligation, to: obligation) }
            try db.insert(with: cache, Self.useObligations, count: obligations.count) { binder, index in
                binder.add(use.id)
                binder.add(index)
                binder.add(obligations[index])
            }
        }
    }

    /// Adds a resistance-management limit of a mode-of-action group.
    public func add(_ limit: CatalogRecord.GroupLimit) throws {
        try write { db in
            try db.insert(
                with: cache,
                """
                INSERT INTO group_limits(scheme, group_code, culture_id, max_applications, max_consecutive,
                  max_share, source) VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            ) {
                $0.add(limit.limit.scheme)
                $0.add(limit.limit.group)
                $0.add(limit.limit.culture ?? "")
                $0.add(limit.limit.maxApplications)
                $0.add(limit.limit.maxConsecutive)
                $0.add(limit.limit.maxShare)
                $0.add(limit.limit.source)
            }
        }
    }

    /// Adds a pair of products not to be mixed in one tank, with the reason in every locale.
    public func add(_ incompatibility: CatalogRecord.TankIncompatibility) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO tank_incompatibilities(id, product_id, other_id) VALUES (?, ?, ?)") {
                $0.add(incompatibility.id)
                $0.add(incompatibility.productID)
                $0.add(incompatibility.otherID)
            }
            try self.insertI18n(db, I18n.tankIncompatibility, key: incompatibility.id, [incompatibility.reason])
        }
    }

    /// Adds a protection scheme with its stages and treatments.
    public func add(_ scheme: CatalogRecord.Scheme) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO schemes(id, culture_id) VALUES (?, ?)") {
                $0.add(scheme.id)
                $0.add(scheme.cultureID)
            }
            try self.insertI18n(db, I18n.scheme, key: scheme.id, [scheme.description, scheme.title])
            for (position, stage) in scheme.stages.enumerated() {
                try db.insert(
                    with: cache, "INSERT INTO scheme_stages(scheme_id, position, bbch_from, bbch_to) VALUES (?, ?, ?, ?)"
                ) {
                    $0.add(scheme.id)
                    $0.add(position)
                    $0.add(stage.bbch.from)
                    $0.add(stage.bbch.to)
                }
                let stageID = db.lastInsertedRowID
                try self.insertI18n(db, I18n.schemeStage, key: stageID, [stage.name])
                for (index, treatment) in stage.treatments.enumerated() {
                    try db.insert(
                        with: cache,
                        """
                        INSERT INTO scheme_treatments(scheme_stage_id, position, product_id, dose_from, dose_to, dose_unit)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """
                    ) {
                        $0.add(stageID)
                        $0.add(index)
                        $0.add(treatment.productID)
                        $0.add(treatment.dose.from)
                        $0.add(treatment.dose.to)
                        $0.add(treatment.dose.unit)
                    }
                    let treatmentID = db.lastInsertedRowID
                    try self.insertI18n(db, I18n.schemeTreatment, key: treatmentID, [treatment.note])
                    for (pestPosition, pest) in treatment.pestIDs.enumerated() {
                        try db.insert(
                            with: cache,
                            """
                            INSERT INTO scheme_treatment_pests(scheme_treatment_id, position, pest_id)
                            VALUES (?, ?, ?)
                            """
                        ) {
                            $0.add(treatmentID)
                            $0.add(pestPosition)
                            $0.add(pest)
                        }
                    }
                }
            }
        }
    }

    /// Adds a region or city.
    public func add(_ region: CatalogRecord.Region) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO regions(id, kind, latitude, longitude) VALUES (?, ?, ?, ?)") {
                $0.add(region.id)
                $0.add(region.kind.rawValue)
                $0.add(region.centre.latitude)
                $0.add(region.centre.longitude)
            }
            try self.insertI18n(
                db, I18n.region, key: region.id, [region.centreName, region.name], nameKey: region.name)
        }
    }

    /// Adds a representative.
    public func add(_ representative: CatalogRecord.Representative) throws {
        try write { db in
            try db.insert(
                with: cache,
                """
                INSERT INTO representatives(id, region_id, phone, email, photo, latitude, longitude)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            ) {
                $0.add(representative.id)
                $0.add(representative.regionID)
                $0.add(representative.phone)
                $0.add(representative.email)
                $0.add(representative.photo)
                $0.add(representative.location?.latitude)
                $0.add(representative.location?.longitude)
            }
            try self.insertI18n(
                db, I18n.representative, key: representative.id, [representative.name, representative.position])
        }
    }

    /// Adds a distributor.
    public func add(_ distributor: CatalogRecord.Distributor) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO distributors(id, region_id, phone, email, website) VALUES (?, ?, ?, ?, ?)") {
                $0.add(distributor.id)
                $0.add(distributor.regionID)
                $0.add(distributor.phone)
                $0.add(distributor.email)
                $0.add(distributor.website)
            }
            try self.insertI18n(db, I18n.distributor, key: distributor.id, [distributor.address, distributor.name])
        }
    }

    /// Adds a news item or article.
    public func add(_ news: CatalogRecord.News) throws {
        try write { db in
            try db.insert(with: cache, "INSERT INTO news(id, kind, date, image, source) VALUES (?, ?, ?, ?, ?)") {
                $0.add(news.id)
                $0.add(news.kind.rawValue)
                $0.add(news.date)
                $0.add(news.image)
                $0.add(news.source)
            }
            try self.insertI18n(db, I18n.news, key: news.id, [news.bodyHTML, news.summary, news.title])
        }
    }

    // MARK: - Helpers

    func write(_ body: (Database) throws -> Void) throws {
        precondition(!finished, "CatalogWriter used after finish()")
        if let batchDatabase {
            try body(batchDatabase)
        } else {
            try queue.inDatabase { db in try body(db) }
        }
    }

    /// Runs `body`, whose `add(_:)` calls share one entry into the database queue: for a
    /// caller adding records by the hundred (a register import), GRDB's queue dispatch per
    /// record was some 3% of the writing time.
    public func batch(_ body: () throws -> Void) throws {
        precondition(!finished, "CatalogWriter used after finish()")
        guard batchDatabase == nil else { return try body() }
        try queue.inDatabase { db in
            batchDatabase = db
            defer { batchDatabase = nil }
            try body()
        }
    }

    /// The insert into one `<entity>_i18n` table; `columns` in the order the texts are passed
    /// (sorted by name), then `name_key` when the entity has one. Names come from this file,
    /// never from input.
    struct I18n: Sendable {
        /// One statement for all the locales of a record (up to 8 at a time).
        let insert: MultiRowInsert

        init(_ entity: String, _ columns: [String], nameKey: Bool = false) {
            let all = columns + (nameKey ? ["name_key"] : [])
            insert = MultiRowInsert(
                "INSERT INTO \(entity)_i18n(\(entity)_id, locale, \(all.joined(separator: ", "))) VALUES ",
                columns: 2 + all.count, maximumRows: 8)
        }

        static let company = I18n("company", ["name"], nameKey: true)
        static let statement = I18n("statement", ["text"])
        static let substance = I18n("substance", ["description", "name"], nameKey: true)
        static let culture = I18n("culture", ["description", "name"], nameKey: true)
        static let growthStage = I18n("growth_stage", ["name"])
        static let pest = I18n("pest", ["description", "name"], nameKey: true)
        static let product = I18n("product", ["name"], nameKey: true)
        static let productSection = I18n("product_section", ["body", "title"])
        static let obligation = I18n("obligation", ["text"])
        static let use = I18n("use", ["application_area", "notes"])
        static let scheme = I18n("scheme", ["description", "title"])
        static let schemeStage = I18n("scheme_stage", ["name"])
        static let schemeTreatment = I18n("scheme_treatment", ["note"])
        static let region = I18n("region", ["centre_name", "name"], nameKey: true)
        static let representative = I18n("representative", ["name", "position"])
        static let distributor = I18n("distributor", ["address", "name"])
        static let news = I18n("news", ["body_html", "summary", "title"])
        static let tankIncompatibility = I18n("tank_incompatibility", ["reason"])
    }

    /// Inserts one `<entity>_i18n` row per locale that has any of the texts (empty texts
    /// count as absent and are stored as NULL), in locale order.
    private func insertI18n(
        _ db: Database, _ table: I18n, key: some SQLiteBindable, _ fields: [LocalizedText],
        nameKey: LocalizedText? = nil
    ) throws {
        let locales = self.locales(nameKey.map { fields + [$0] } ?? fields)
        guard !locales.isEmpty else { return }
        try db.insert(with: cache, table.insert, count: locales.count) { binder, index in
            let locale = locales[index]
            key.bind(to: &binder)
            binder.add(locale)
            for field in fields {
                let text = field[locale]
                binder.add(text?.isEmpty == false ? text : nil)
            }
            if let nameKey {
                binder.add(nameKey[locale].flatMap { $0.isEmpty ? nil : NameKey.make($0) })
            }
        }
    }

    /// `ids` sorted, each once: what `Set(ids).sorted()` gives, without hashing.
    private static func sortedUnique(_ ids: [EntityID]) -> [EntityID] {
        guard ids.count > 1 else { return ids }
        var sorted = ids.sorted()
        var kept = 1
        for index in 1..<sorted.count where sorted[index] != sorted[kept - 1] {
            sorted[kept] = sorted[index]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    /// Locales present in any of the texts, sorted, so rows go in in a stable order.
    private func locales(_ texts: [LocalizedText]) -> [String] {
        // A few locales per entity: a linear scan beats hashing on this hot path (every
        // i18n row of a register import).
        var locales: [String] = []
        for text in texts {
            for (locale, value) in text where !value.isEmpty && !locales.contains(locale) { locales.append(locale) }
        }
        return locales.sorted()
    }
}

/// Failures while writing a catalog that the content itself causes.
public enum CatalogWriterError: DescribedError, Equatable {
    /// A culture is among its own groups (the parents form a cycle).
    case cultureCycle(cultureID: EntityID)
    /// The catalog file cannot be created or written.
    case cannotWrite(path: String, reason: String)

    /// One line naming the culture or the file and what is wrong.
    public var message: String {
        switch self {
        case let .cultureCycle(id): return "culture \(id) is its own ancestor: culture parents must not form a cycle"
        case let .cannotWrite(path, reason): return "cannot write a catalog at \(path) (\(reason))"
        }
    }

    /// This case as data, for the program to word (`error.CatalogWriterError.<name>`).
    public var errorCase: ErrorCase {
        switch self {
        case let .cultureCycle(id): return ErrorCase("CatalogWriterError", "cultureCycle", [id])
        case let .cannotWrite(path, reason): return ErrorCase("CatalogWriterError", "cannotWrite", [path, reason])
        }
    }
}

/// The folded form of a name used for sorting, index letters and lookups.
enum NameKey {
    /// Folds case and diacritics and drops leading characters that are neither letters nor
    /// digits, so that «Name» sorts and indexes under N.
    static func make(_ name: String) -> String {
        let folded = TextFolding.fold(name)
        return String(folded.drop(while: { !($0.isLetter || $0.isNumber) }))
    }
}
