import AgroDomain
import Foundation
import GRDB

/// Writes a new catalog file: the content build and the importers feed it records, then
/// `finish()` derives the lookup tables and compacts the file.
///
/// Everything happens in one transaction on a new file, so a failed build leaves no
/// half-written catalog behind. Writing the same records in the same order gives the same
/// bytes: the file holds no clock reading other than `CatalogHeader.builtAt`.
public final class CatalogWriter {
    private let queue: DatabaseQueue
    private let path: String
    private let header: CatalogHeader
    private var finished = false

    /// Creates `path` (replacing any file there) with an empty catalog.
    public init(path: String, header: CatalogHeader) throws {
        self.path = path
        self.header = header
        try? FileManager.default.removeItem(atPath: path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.journalMode = .default
        // One transaction spans every add(_:) call, from init to finish().
        configuration.allowsUnsafeTransactions = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw CatalogWriterError.cannotWrite(path: path, reason: error.message ?? "\(error.resultCode)")
        }
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "BEGIN")
            // References are checked once, at commit, so records may arrive in any order.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for statement in CatalogSchema.statements { try db.execute(sql: statement) }
            try writeHeader(db)
        }
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
            try db.executeCached(sql: "INSERT INTO catalog_metadata(key, value) VALUES (?, ?)", arguments: [key, value])
        }
        for locale in locales([header.title, header.attribution]) {
            try db.executeCached(
                sql: "INSERT INTO catalog_i18n(locale, title, attribution) VALUES (?, ?, ?)",
                arguments: [locale, header.title[locale], header.attribution[locale]])
        }
    }

    // MARK: - Records

    public func add(_ company: CatalogRecord.Company) throws {
        try write { db in
            try db.executeCached(sql: "INSERT INTO companies(id) VALUES (?)", arguments: [company.id])
            try self.insertI18n(db, "company", key: company.id, ["name": company.name], nameKey: company.name)
        }
    }

    public func add(_ statement: CatalogRecord.Statement) throws {
        try write { db in
            try db.executeCached(sql: "INSERT INTO statements(code) VALUES (?)", arguments: [statement.code])
            try self.insertI18n(db, "statement", key: statement.code, ["text": statement.text])
        }
    }

    public func add(_ substance: CatalogRecord.Substance) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO substances(id, iupac_name, cas_number, moa_scheme, moa_group) VALUES (?, ?, ?, ?, ?)",
                arguments: [substance.id, substance.iupacName, substance.casNumber,
                            substance.modeOfAction?.scheme, substance.modeOfAction?.group])
            try self.insertI18n(
                db, "substance", key: substance.id,
                ["name": substance.name, "description": substance.description], nameKey: substance.name)
        }
    }

    public func add(_ culture: CatalogRecord.Culture) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO cultures(id, latin_name) VALUES (?, ?)",
                arguments: [culture.id, culture.latinName])
            try self.insertI18n(
                db, "culture", key: culture.id,
                ["name": culture.name, "description": culture.description], nameKey: culture.name)
            for parent in Set(culture.parentIDs).sorted() {
                try db.executeCached(
                    sql: "INSERT INTO culture_parents(culture_id, parent_id) VALUES (?, ?)",
                    arguments: [culture.id, parent])
            }
            for (position, stage) in culture.stages.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO growth_stages(culture_id, position, bbch_from, bbch_to) VALUES (?, ?, ?, ?)",
                    arguments: [culture.id, position, stage.bbch.from, stage.bbch.to])
                try self.insertI18n(db, "growth_stage", key: db.lastInsertedRowID, ["name": stage.name])
            }
        }
    }

    public func add(_ pest: CatalogRecord.Pest) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO pests(id, kind, latin_name) VALUES (?, ?, ?)",
                arguments: [pest.id, pest.kind.rawValue, pest.latinName])
            try self.insertI18n(
                db, "pest", key: pest.id, ["name": pest.name, "description": pest.description], nameKey: pest.name)
            for (position, url) in pest.images.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO pest_images(pest_id, position, url) VALUES (?, ?, ?)",
                    arguments: [pest.id, position, url])
            }
        }
    }

    public func add(_ product: CatalogRecord.Product) throws {
        try write { db in
            try db.executeCached(
                sql: """
                    INSERT INTO products(id, category, formulation, company_id, registration_number,
                      registration_expiry, origin, original_product_id, sold_out_deadline,
                      exhaustion_deadline, signal_word)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [product.id, product.category.rawValue, product.formulation, product.companyID,
                            product.registrationNumber, product.registrationExpiry, product.origin.rawValue,
                            product.originalProductID, product.soldOutDeadline, product.exhaustionDeadline,
                            product.signalWord])
            try self.insertI18n(db, "product", key: product.id, ["name": product.name], nameKey: product.name)
            for (position, ingredient) in product.ingredients.enumerated() {
                try db.executeCached(
                    sql: """
                        INSERT INTO product_ingredients(product_id, position, substance_id, concentration, unit)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [product.id, position, ingredient.substanceID, ingredient.concentration, ingredient.unit])
            }
            for (position, code) in product.pictograms.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO product_pictograms(product_id, position, code) VALUES (?, ?, ?)",
                    arguments: [product.id, position, code])
            }
            for (position, code) in product.statements.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO product_statements(product_id, position, statement_code) VALUES (?, ?, ?)",
                    arguments: [product.id, position, code])
            }
            for (position, link) in product.links.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO product_links(product_id, position, kind, url) VALUES (?, ?, ?, ?)",
                    arguments: [product.id, position, link.kind.rawValue, link.url])
            }
            for (position, section) in product.sections.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO product_sections(product_id, position) VALUES (?, ?)",
                    arguments: [product.id, position])
                try self.insertI18n(
                    db, "product_section", key: db.lastInsertedRowID,
                    ["title": section.title, "body": section.body])
            }
        }
    }

    public func add(_ obligation: CatalogRecord.Obligation) throws {
        try write { db in
            try db.executeCached(sql: "INSERT INTO obligations(id) VALUES (?)", arguments: [obligation.id])
            try self.insertI18n(db, "obligation", key: obligation.id, ["text": obligation.text])
        }
    }

    public func add(_ use: CatalogRecord.Use) throws {
        try write { db in
            try db.executeCached(
                sql: """
                    INSERT INTO uses(id, product_id, dose_from, dose_to, dose_unit, water_from, water_to,
                      water_unit, phi_days, max_applications, interval_days, bbch_from, bbch_to)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [use.id, use.productID, use.dose.from, use.dose.to, use.dose.unit,
                            use.water.from, use.water.to, use.water.unit, use.preHarvestIntervalDays,
                            use.maxApplications, use.intervalDays, use.bbch?.from, use.bbch?.to])
            try self.insertI18n(
                db, "use", key: use.id, ["application_area": use.applicationArea, "notes": use.notes])
            for culture in Set(use.cultureIDs).sorted() {
                try db.executeCached(
                    sql: "INSERT INTO use_cultures(use_id, culture_id) VALUES (?, ?)",
                    arguments: [use.id, culture])
            }
            var seen = Set<EntityID>()
            for target in use.pests where seen.insert(target.pestID).inserted {
                try db.executeCached(
                    sql: "INSERT INTO use_pests(use_id, pest_id, effect) VALUES (?, ?, ?)",
                    arguments: [use.id, target.pestID, target.effect.rawValue])
            }
            for (position, obligation) in use.obligationIDs.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO use_obligations(use_id, position, obligation_id) VALUES (?, ?, ?)",
                    arguments: [use.id, position, obligation])
            }
        }
    }

    public func add(_ scheme: CatalogRecord.Scheme) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO schemes(id, culture_id) VALUES (?, ?)", arguments: [scheme.id, scheme.cultureID])
            try self.insertI18n(
                db, "scheme", key: scheme.id, ["title": scheme.title, "description": scheme.description])
            for (position, stage) in scheme.stages.enumerated() {
                try db.executeCached(
                    sql: "INSERT INTO scheme_stages(scheme_id, position, bbch_from, bbch_to) VALUES (?, ?, ?, ?)",
                    arguments: [scheme.id, position, stage.bbch.from, stage.bbch.to])
                let stageID = db.lastInsertedRowID
                try self.insertI18n(db, "scheme_stage", key: stageID, ["name": stage.name])
                for (index, treatment) in stage.treatments.enumerated() {
                    try db.executeCached(
                        sql: """
                            INSERT INTO scheme_treatments(scheme_stage_id, position, product_id, dose_from, dose_to, dose_unit)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [stageID, index, treatment.productID, treatment.dose.from, treatment.dose.to,
                                    treatment.dose.unit])
                    let treatmentID = db.lastInsertedRowID
                    try self.insertI18n(db, "scheme_treatment", key: treatmentID, ["note": treatment.note])
                    for (pestPosition, pest) in treatment.pestIDs.enumerated() {
                        try db.executeCached(
                            sql: """
                                INSERT INTO scheme_treatment_pests(scheme_treatment_id, position, pest_id)
                                VALUES (?, ?, ?)
                                """,
                            arguments: [treatmentID, pestPosition, pest])
                    }
                }
            }
        }
    }

    public func add(_ region: CatalogRecord.Region) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO regions(id, kind, latitude, longitude) VALUES (?, ?, ?, ?)",
                arguments: [region.id, region.kind.rawValue, region.centre.latitude, region.centre.longitude])
            try self.insertI18n(
                db, "region", key: region.id, ["name": region.name, "centre_name": region.centreName],
                nameKey: region.name)
        }
    }

    public func add(_ representative: CatalogRecord.Representative) throws {
        try write { db in
            try db.executeCached(
                sql: """
                    INSERT INTO representatives(id, region_id, phone, email, photo, latitude, longitude)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [representative.id, representative.regionID, representative.phone, representative.email,
                            representative.photo, representative.location?.latitude,
                            representative.location?.longitude])
            try self.insertI18n(
                db, "representative", key: representative.id,
                ["name": representative.name, "position": representative.position])
        }
    }

    public func add(_ distributor: CatalogRecord.Distributor) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO distributors(id, region_id, phone, email, website) VALUES (?, ?, ?, ?, ?)",
                arguments: [distributor.id, distributor.regionID, distributor.phone, distributor.email,
                            distributor.website])
            try self.insertI18n(
                db, "distributor", key: distributor.id, ["name": distributor.name, "address": distributor.address])
        }
    }

    public func add(_ news: CatalogRecord.News) throws {
        try write { db in
            try db.executeCached(
                sql: "INSERT INTO news(id, kind, date, image, source) VALUES (?, ?, ?, ?, ?)",
                arguments: [news.id, news.kind.rawValue, news.date, news.image, news.source])
            try self.insertI18n(
                db, "news", key: news.id,
                ["title": news.title, "summary": news.summary, "body_html": news.bodyHTML])
        }
    }

    // MARK: - Finishing

    /// Derives the culture closure, the name index and the search index, checks every
    /// reference, commits and compacts the file. The writer cannot be used afterwards.
    public func finish() throws {
        try write { db in
            try self.deriveCultureAncestors(db)
            try SearchIndexBuilder(locales: self.header.locales.locales).build(db)
            try db.execute(sql: "COMMIT")
        }
        finished = true
        try queue.inDatabase { db in
            try db.execute(sql: "VACUUM")
        }
        try queue.close()
    }

    /// Abandons the build and removes the file.
    public func discard() {
        try? queue.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Fills `culture_ancestors` with every (culture, ancestor) pair, the culture itself at
    /// depth 0. A cycle in the parents is an error: the tree must be a DAG.
    private func deriveCultureAncestors(_ db: Database) throws {
        try db.execute(sql: """
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
        let cyclic = try String.fetchOne(db, sql: """
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

    // MARK: - Helpers

    private func write(_ body: (Database) throws -> Void) throws {
        precondition(!finished, "CatalogWriter used after finish()")
        try queue.inDatabase { db in try body(db) }
    }

    /// Inserts one `<entity>_i18n` row per locale that has any of the fields. The entity
    /// and field names come from this file, never from input.
    private func insertI18n(
        _ db: Database, _ entity: String, key: some DatabaseValueConvertible, _ fields: [String: LocalizedText],
        nameKey: LocalizedText? = nil
    ) throws {
        let columns = fields.keys.sorted()
        let allColumns = columns + (nameKey == nil ? [] : ["name_key"])
        let sql = "INSERT INTO \(entity)_i18n(\(entity)_id, locale, \(allColumns.joined(separator: ", "))) VALUES (?, ?"
            + String(repeating: ", ?", count: allColumns.count) + ")"
        for locale in locales(Array(fields.values) + [nameKey ?? [:]]) {
            var arguments: StatementArguments = [key, locale]
            for column in columns {
                let text = fields[column]?[locale]
                arguments += [text?.isEmpty == false ? text : nil]
            }
            if let nameKey {
                arguments += [nameKey[locale].flatMap { $0.isEmpty ? nil : NameKey.make($0) }]
            }
            try db.executeCached(sql: sql, arguments: arguments)
        }
    }

    /// Locales present in any of the texts, sorted, so rows go in in a stable order.
    private func locales(_ texts: [LocalizedText]) -> [String] {
        Set(texts.flatMap { $0.filter { !$0.value.isEmpty }.keys }).sorted()
    }
}

/// Failures while writing a catalog that the content itself causes.
public enum CatalogWriterError: UserFacingError, Equatable {
    case cultureCycle(cultureID: EntityID)
    case cannotWrite(path: String, reason: String)

    public var message: String {
        switch self {
        case let .cultureCycle(id): return "culture \(id) is its own ancestor: culture parents must not form a cycle"
        case let .cannotWrite(path, reason): return "cannot write a catalog at \(path) (\(reason))"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cultureCycle: return .badContent
        case .cannotWrite: return .cannotWrite
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

extension Database {
    /// Runs an insert through a prepared statement kept for the connection: a build runs the
    /// same few inserts hundreds of thousands of times, and preparing each anew dominated the
    /// time of a register import.
    func executeCached(sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
