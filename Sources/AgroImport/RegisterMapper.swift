import AgroDomain
import AgroStore
import Foundation

/// Turns a `RegisterDocument` into catalog records, checking every reference on the way.
///
/// A reference to a missing metadata key, an unparsable number or date is a data error: it is
/// counted with its first examples, the reference is dropped (or the value left empty) and
/// the import goes on, so that every record handed to the writer resolves.
///
/// Ids: a product is its wNbr as the register writes it ("6151", sale permission "6649-1"),
/// with registration number "W-6151" as shown on psm.admin.ch; a parallel import is its
/// permission id ("F-4806"); a use is "<product id>#<nnn>" in register order; cultures, pests,
/// substances, obligations and companies keep the register's primary keys (upper-cased by
/// the parser).
///
/// Records are handed over one by one as they are made, so that the writer stores them
/// while the mapping goes on. Products come in register order. Their uses follow in one of
/// two orders (`UseOrder`): each product's right after it, while libxml2 reads on, or all
/// after the products by product id, the order of the use tables' keys, in which SQLite
/// stores them with some 5% fewer instructions of the whole import (the importer streams a
/// plain file with the first, and maps a register read whole with the second). Pests come
/// last: their kind depends on the products used against them. The catalog's bytes do not
/// depend on this order (`CatalogWriter.finish()`).
struct RegisterMapper {
    static let locales = ["de", "fr", "it", "en"]

    /// A record for the writer.
    enum Record: Sendable {
        case company(CatalogRecord.Company)
        case statement(CatalogRecord.Statement)
        case substance(CatalogRecord.Substance)
        case culture(CatalogRecord.Culture)
        case pest(CatalogRecord.Pest)
        case obligation(CatalogRecord.Obligation)
        case product(CatalogRecord.Product)
        case use(CatalogRecord.Use)
        /// The original of a product written before its original was read.
        case original(productID: EntityID, originalID: EntityID)
    }

    /// What was mapped, counted.
    struct Output {
        var companies = 0
        var substances = 0
        var cultures = 0
        var pests = 0
        var obligations = 0
        /// Registered products, sale permissions and parallel imports.
        var products = 0
        var uses = 0
        var salePermissions = 0
        var parallelImports = 0
        var productUses = 0
        var parallelImportUses = 0
        var errors: [SRPPPDataError] = []
    }

    /// The document mapped; only its metadata when products are handed to `Run.add(_:)`.
    let document: RegisterDocument
    let examplesPerError: Int

    /// Where in the register an error is found, for keeping the first examples of each kind
    /// in register order whatever order the errors are found in: the product's place,
    /// then whether the error is in the product itself or in its uses, then a running count.
    struct Place: Comparable {
        var product: Int
        var inUses: Bool
        var sequence: Int

        static func < (a: Place, b: Place) -> Bool {
            (a.product, a.inUses ? 1 : 0, a.sequence) < (b.product, b.inUses ? 1 : 0, b.sequence)
        }
    }

    /// Collects data errors by kind, with the examples first in register order.
    final class ErrorLog {
        let limit: Int
        private var counts: [String: Int] = [:]
        private var examples: [String: [(place: Place, text: String)]] = [:]
        /// Where errors are being found now; `sequence` counts up with each error.
        private var place = Place(product: -1, inUses: false, sequence: 0)

        init(limit: Int) { self.limit = limit }

        /// Errors from now on are in the metadata (before any product), in product `index`
        /// itself or in its uses (`inUses`).
        func enter(product index: Int, inUses: Bool) {
            place = Place(product: index, inUses: inUses, sequence: 0)
        }

        func add(_ kind: String, _ example: @autoclosure () -> String) {
            counts[kind, default: 0] += 1
            place.sequence += 1
            var kept = examples[kind] ?? []
            // Only an example among the first `limit` so far is made at all.
            if kept.count < limit {
                kept.append((place, example()))
            } else if let last = kept.last, place < last.place {
                kept[kept.count - 1] = (place, example())
            } else {
                return
            }
            kept.sort { $0.place < $1.place }
            examples[kind] = kept
        }

        var errors: [SRPPPDataError] {
            counts.sorted { $0.key < $1.key }.map { kind, count in
                SRPPPDataError(kind: kind, count: count, examples: (examples[kind] ?? []).map(\.text))
            }
        }
    }

    /// Maps a whole document, handing each record to `emit` as soon as it is made; stops
    /// early when `emit` returns false (the writer has given up). The products are moved out
    /// of `document`, so that each one's indications are freed once its uses are mapped.
    static func map(
        _ document: consuming RegisterDocument, examplesPerError: Int, _ emit: @escaping (Record) -> Bool
    ) -> Output {
        var metadata = document
        let products = metadata.products + metadata.parallelImports
        metadata.products = []
        metadata.parallelImports = []
        // Read whole, the register is no longer being read: nothing to overlap the uses with.
        var run = RegisterMapper(document: metadata, examplesPerError: examplesPerError).run(uses: .byProductID, emit)
        if run.begin() {
            for product in consume products {
                guard run.add(product) else { break }
            }
        }
        return run.finish()
    }

    /// When the uses are handed over.
    enum UseOrder {
        /// Each product's uses right after the product: while the register is still being read,
        /// the writer stores them beside the reading rather than all after it.
        case withProduct
        /// All after the products, by product id (compared as SQLite compares them).
        case byProductID
    }

    /// A mapping that is handed the products one by one (`Run.add(_:)`), `document` holding
    /// the metadata only.
    func run(uses order: UseOrder, _ emit: @escaping (Record) -> Bool) -> Run {
        Run(mapper: self, useOrder: order, emit: emit)
    }

    /// One mapping of the document: what the steps share.
    ///
    /// Made from the metadata alone, it maps products as they are read: `begin()` (the
    /// metadata records), `add(_:)` for each product and parallel import in register order
    /// (the product, and its uses in `.withProduct` order), then `finish()` (the originals set
    /// late, the uses in `.byProductID` order, the pests, the error report).
    /// `RegisterMapper.map` does the same from a whole document.
    struct Run {
        let mapper: RegisterMapper
        let emit: (Record) -> Bool
        var output = Output()
        let log: ErrorLog
        /// The texts of the uses, made once per metadata row.
        let texts = UseTexts()

        // Metadata tables used as such.
        let cultureTable: [RegisterKey: RegisterDocument.Detail]
        let pestTable: [RegisterKey: RegisterDocument.Detail]
        let substanceTable: [RegisterKey: RegisterDocument.Detail]
        let obligationTable: [RegisterKey: RegisterDocument.Detail]

        /// "CodeR/key" -> statement code.
        var statementCodes: [String: String] = [:]
        /// Signal word key -> code.
        var signalWords: [RegisterKey: String] = [:]
        /// Per pest, how many uses against it each product category has.
        var pestCategories: [RegisterKey: [ProductCategory: Int]] = [:]
        /// The wNbr of every registered product (and sale permission) so far.
        var registeredWNbrs = Set<String>()
        /// Product ids so far: a later record with the same id is a data error.
        var productIDs = Set<String>()
        /// Sale permissions and parallel imports written before their original product was
        /// read (it may come later in the register): the original is set, or the error logged,
        /// once every product is known. With the place and message of that error.
        var deferred: [(place: Int, id: String, original: String, missing: String)] = []
        var registeredCount = 0
        var parallelImportCount = 0
        /// False once `emit` has returned false: the writer has given up.
        var writing = true
        let useOrder: UseOrder
        /// With `.byProductID`, the products written, whose uses `finish()` maps.
        var awaitingUses: [WrittenProduct] = []

        /// A product handed to the writer, with what mapping its uses needs.
        struct WrittenProduct {
            var source: RegisterDocument.Product
            var id: String
            /// Its place in the register, for the error log.
            var place: Int
            var category: ProductCategory
            var label: String
        }

        var document: RegisterDocument { mapper.document }

        init(mapper: RegisterMapper, useOrder: UseOrder, emit: @escaping (Record) -> Bool) {
            self.mapper = mapper
            self.useOrder = useOrder
            self.emit = emit
            log = ErrorLog(limit: mapper.examplesPerError)
            let document = mapper.document
            cultureTable = document.table("Culture")
            pestTable = document.table("Pest")
            substanceTable = document.table("Substance")
            obligationTable = document.table("Obligation")
        }

        /// The metadata records: companies, statements, substances, cultures, obligations.
        /// False when the writer has given up.
        mutating func begin() -> Bool {
            writing = companies() && statements() && substances() && cultures() && obligations()
            return writing
        }

        /// Maps one product or parallel import, in register order, and its uses. False when the
        /// writer has given up.
        mutating func add(_ source: RegisterDocument.Product) -> Bool {
            guard writing else { return false }
            // The places sort as `products + parallelImports` would, whatever the file's order.
            let place: Int
            if source.isParallelImport {
                place = Self.parallelImportPlaces + parallelImportCount
                parallelImportCount += 1
            } else {
                place = registeredCount
                registeredCount += 1
                registeredWNbrs.insert(source.wNbr.trimmingCharacters(in: .whitespaces))
            }
            log.enter(product: place, inUses: false)
            let label = Self.label(source)
            let id = (source.isParallelImport ? source.id : source.wNbr).trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty else {
                log.add("record without id", "\(label) at line \(source.line)")
                return true
            }
            guard productIDs.insert(id).inserted else {
                log.add("duplicate product id", "\(label) at line \(source.line)")
                return true
            }
            writing = product(source, place: place, id: id)
            return writing
        }

        /// The originals of the products written before them, the uses held back, then the
        /// pests; the counts and the data errors.
        mutating func finish() -> Output {
            for item in deferred where writing {
                if registeredWNbrs.contains(item.original) {
                    writing = emit(.original(productID: item.id, originalID: item.original))
                } else {
                    log.enter(product: item.place, inUses: false)
                    log.add("missing original product", item.missing)
                }
            }
            if useOrder == .byProductID, writing {
                awaitingUses.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
                // Taken out one by one: each product's indications are freed once mapped.
                for index in awaitingUses.indices where writing {
                    let product = awaitingUses[index]
                    awaitingUses[index].source.indications = []
                    writing = uses(of: product)
                }
                awaitingUses = []
            }
            log.enter(product: Int.max, inUses: false)
            if writing { _ = pests() }
            output.errors = log.errors
            return output
        }

        /// Parallel imports come after every product in the error log's order, as in the
        /// register's: their places start here.
        static let parallelImportPlaces = 1 << 40

        static func label(_ source: RegisterDocument.Product) -> String {
            source.isParallelImport ? "parallel import \(source.id)" : "product W-\(source.wNbr)"
        }

        /// The wNbr of the registered product a sale permission or parallel import derives
        /// from; nil for a registered product.
        static func original(of source: RegisterDocument.Product, id: String) -> String? {
            if source.isParallelImport { return source.wNbr.trimmingCharacters(in: .whitespaces) }
            guard source.isSalePermission else { return nil }
            // A sale permission "6649-1" derives from the registered product "6649".
            return id.split(separator: "-").dropLast().joined(separator: "-")
        }

        /// A metadata row by key; a non-empty key that is not there is a data error.
        func resolve(_ table: String, _ key: RegisterKey, in context: @autoclosure () -> String) -> RegisterDocument.Detail? {
            guard !key.isEmpty else { return nil }
            if let detail = document.metadata[table]?[key] { return detail }
            log.add("missing \(table) key", "\(context()) refers to \(table) \(key)")
            return nil
        }

        /// Whether `key` is a row of `rows` (the table named `table`), with the data error of
        /// `resolve`. For the 260 000 culture, pest and obligation references of a use, which
        /// need no more than that: no lookup of the table by name, no copy of the row.
        func exists<Row>(
            _ table: String, _ rows: [RegisterKey: Row], _ key: RegisterKey, in context: @autoclosure () -> String
        ) -> Bool {
            guard !key.isEmpty else { return false }
            if rows.index(forKey: key) != nil { return true }
            log.add("missing \(table) key", "\(context()) refers to \(table) \(key)")
            return false
        }

        /// Companies: the permission holders.
        mutating func companies() -> Bool {
            for holder in document.holders.values.sorted(by: { $0.key < $1.key }) {
                let name = holder.name.trimmingCharacters(in: .whitespacesAndNewlines)
                guard emit(.company(.init(id: holder.key.text, name: name.isEmpty ? [:] : ["de": name]))) else { return false }
                output.companies += 1
            }
            return true
        }

        /// Statements: H/EUH (CodeR) and S/SP (CodeS) texts by their code, plus signal words.
        mutating func statements() -> Bool {
            var statementTexts: [String: LocalizedText] = [:]
            for table in ["CodeR", "CodeS"] {
                for detail in document.table(table).values.sorted(by: { $0.key < $1.key }) {
                    let code = detail.code ?? RegisterMapper.uncodedStatementCode(table: table, detail: detail)
                    statementCodes["\(table)/\(detail.key)"] = code
                    if statementTexts[code] == nil { statementTexts[code] = RegisterMapper.localized(detail) }
                }
            }
            for detail in document.table("SignalWords").values.sorted(by: { $0.key < $1.key }) {
                let english = (detail.texts["en"] ?? "").lowercased()
                let code = ["warning", "danger"].contains(english) ? english : "signal \(detail.key)"
                signalWords[detail.key] = code
                if statementTexts[code] == nil { statementTexts[code] = RegisterMapper.localized(detail) }
            }
            for (code, text) in statementTexts.sorted(by: { $0.key < $1.key }) {
                guard emit(.statement(.init(code: code, text: text))) else { return false }
            }
            return true
        }

        mutating func substances() -> Bool {
            for detail in substanceTable.values.sorted(by: { $0.key < $1.key }) {
                let substance = CatalogRecord.Substance(
                    id: detail.key.text, name: RegisterMapper.localized(detail), iupacName: detail.iupacName)
                guard emit(.substance(substance)) else { return false }
                output.substances += 1
            }
            return true
        }

        mutating func cultures() -> Bool {
            for detail in cultureTable.values.sorted(by: { $0.key < $1.key }) {
                var parents: [String] = []
                for parent in detail.parents where !parents.contains(parent.text) {
                    if cultureTable[parent] != nil {
                        parents.append(parent.text)
                    } else {
                        log.add("missing Culture key", "culture \(detail.key) has parent \(parent)")
                    }
                }
                guard emit(.culture(.init(id: detail.key.text, name: RegisterMapper.localized(detail), parentIDs: parents)))
                else {
                    return false
                }
                output.cultures += 1
            }
            return true
        }

        mutating func obligations() -> Bool {
            for detail in obligationTable.values.sorted(by: { $0.key < $1.key }) {
                guard emit(.obligation(.init(id: detail.key.text, text: RegisterMapper.localized(detail)))) else { return false }
                output.obligations += 1
            }
            return true
        }

        /// A registered product, sale permission or parallel import, its id checked unique.
        mutating func product(_ source: RegisterDocument.Product, place: Int, id: String) -> Bool {
            let label = Self.label(source)
            var record = CatalogRecord.Product(
                id: id, name: RegisterMapper.trimmed(source.name).map { ["de": $0] } ?? [:], category: .other)
            if source.isParallelImport {
                record.origin = .parallelImport
                record.registrationNumber = id
                output.parallelImports += 1
            } else {
                record.registrationNumber = "W-\(id)"
                if source.isSalePermission {
                    record.origin = .salePermission
                    output.salePermissions += 1
                }
            }
            if let original = Self.original(of: source, id: id) {
                let missing =
                    source.isParallelImport
                    ? "\(label) refers to W-\(original)" : "sale permission \(label) has no registered product W-\(original)"
                // A sale permission "6649-1" derives from "6649"; one without a base cannot.
                let possible = source.isParallelImport || (!original.isEmpty && original != id)
                if possible, registeredWNbrs.contains(original) {
                    record.originalProductID = original
                } else if possible {
                    // The original may come later: the product is written now, in register
                    // order (which numbers its sections), and its original set in `finish()`.
                    deferred.append((place, id, original, missing))
                } else {
                    log.add("missing original product", missing)
                }
            }
            describe(&record, from: source, label: label)
            guard emit(.product(record)) else { return false }
            output.products += 1
            let written = WrittenProduct(source: source, id: id, place: place, category: record.category, label: label)
            switch useOrder {
            case .withProduct: return uses(of: written)
            case .byProductID:
                awaitingUses.append(written)
                return true
            }
        }

        /// A product's categories, formulation, holder, deadlines, hazard marks and ingredients.
        func describe(_ record: inout CatalogRecord.Product, from source: RegisterDocument.Product, label: String) {
            // Categories: the first one the catalog knows a category for; all are in `sections`.
            var categoryNames: [LocalizedText] = []
            for key in source.categoryKeys {
                guard let detail = resolve("ProductCategory", key, in: label) else { continue }
                let text = RegisterMapper.localized(detail)
                if !categoryNames.contains(text) { categoryNames.append(text) }
                let category = RegisterMapper.category(forGermanName: detail.texts["de"] ?? "")
                if record.category == .other { record.category = category }
            }
            if !categoryNames.isEmpty {
                var body: LocalizedText = [:]
                for locale in RegisterMapper.locales {
                    let names = categoryNames.compactMap { $0[locale] ?? $0["de"] }
                    if !names.isEmpty { body[locale] = names.joined(separator: ", ") }
                }
                record.sections.append(.init(title: RegisterMapper.categoryTitle, body: body))
            }
            record.formulation =
                source.formulationKeys.lazy
                .compactMap { resolve("FormulationCode", $0, in: label)?.code }.first
            record.companyID = source.holderKeys.lazy.first { exists("PermissionHolder", document.holders, $0, in: label) }?.text
            record.soldOutDeadline = mapper.date(source.soldOutDeadline, field: "soldoutDeadline", of: label, log: log)
            record.exhaustionDeadline = mapper.date(source.exhaustionDeadline, field: "exhaustionDeadline", of: label, log: log)
            for key in source.dangerSymbolKeys {
                if let code = resolve("DangerSymbol", key, in: label)?.code, !record.pictograms.contains(code) {
                    record.pictograms.append(code)
                }
            }
            record.signalWord =
                source.signalWordKeys.lazy.compactMap { key -> String? in
                    guard resolve("SignalWords", key, in: label) != nil else { return nil }
                    return signalWords[key]
                }.first
            for (table, keys) in [("CodeR", source.codeRKeys), ("CodeS", source.codeSKeys)] {
                for key in keys where resolve(table, key, in: label) != nil {
                    if let code = statementCodes["\(table)/\(key)"], !record.statements.contains(code) {
                        record.statements.append(code)
                    }
                }
            }
            for ingredient in source.ingredients where RegisterMapper.listedIngredientTypes.contains(ingredient.type) {
                guard resolve("Substance", ingredient.substanceKey, in: label) != nil else {
                    if ingredient.substanceKey.isEmpty { log.add("ingredient without substance", label) }
                    continue
                }
                guard !record.ingredients.contains(where: { $0.substanceID == ingredient.substanceKey.text }) else { continue }
                var concentration: Double?, unit: String?
                if let grams = mapper.number(ingredient.gramsPerLitre, field: "inGrammPerLitre", of: label, log: log) {
                    concentration = grams
                    unit = "g/l"
                } else if let percent = mapper.number(ingredient.percent, field: "inPercent", of: label, log: log) {
                    concentration = percent
                    unit = "%"
                }
                record.ingredients.append(
                    .init(substanceID: ingredient.substanceKey.text, concentration: concentration, unit: unit))
            }
        }

        /// The uses of a product written, in register order.
        mutating func uses(of product: WrittenProduct) -> Bool {
            log.enter(product: product.place, inUses: true)
            let indications = product.source.indications
            // Zero-padded so that uses sort in register order.
            let width = max(3, String(indications.count).count)
            for (index, indication) in indications.enumerated() {
                let useLabel = UseLabel(product: product.label, indication: index + 1, line: indication.line)
                let useID = "\(product.id)#" + RegisterMapper.padded(index + 1, width: width)
                let use = self.use(
                    indication, id: useID, productID: product.id, category: product.category, label: useLabel)
                guard emit(.use(use)) else { return false }
                output.uses += 1
                if product.source.isParallelImport { output.parallelImportUses += 1 } else { output.productUses += 1 }
            }
            return true
        }

        /// Where a use is, for the data errors found in it: its text is made only for an error
        /// (made for each of the 26 000 uses, it was 1% of the import's instructions).
        struct UseLabel {
            var product: String
            var indication: Int
            var line: Int

            var text: String { "\(product), indication \(indication) (line \(line))" }
        }

        /// One indication of a product: cultures, pests with their effect, dose, waiting
        /// period, area and notes.
        mutating func use(
            _ indication: RegisterDocument.Indication, id: String, productID: String, category: ProductCategory,
            label useLabel: UseLabel
        ) -> CatalogRecord.Use {
            var use = CatalogRecord.Use(
                id: id, productID: productID, cultureIDs: [], pests: [], dose: Dose(from: nil, to: nil, unit: nil))
            var notes: [LocalizedText] = []
            for culture in indication.cultures {
                if exists("Culture", cultureTable, culture.key, in: useLabel.text), !use.cultureIDs.contains(culture.key.text) {
                    use.cultureIDs.append(culture.key.text)
                }
                if let extra = resolve("CultureAdditionalText", culture.additionalTextKey, in: useLabel.text) {
                    notes.append(texts.note(extra, of: cultureTable[culture.key], in: .culture))
                }
            }
            for pest in indication.pests {
                if exists("Pest", pestTable, pest.key, in: useLabel.text) {
                    let effect: PestEffect
                    switch pest.type {
                    case "PEST_FULL_EFFECT", "": effect = .full
                    case "PEST_PARTIAL_EFFECT": effect = .partial
                    case "PEST_SIDE_EFFECT": effect = .sideEffect
                    default:
                        log.add("unknown pest effect type", "\(useLabel.text): \(pest.type)")
                        effect = .full
                    }
                    use.pests.append(.init(pestID: pest.key.text, effect: effect))
                    pestCategories[pest.key, default: [:]][category, default: 0] += 1
                }
                if let extra = resolve("PestAdditionalText", pest.additionalTextKey, in: useLabel.text) {
                    notes.append(texts.note(extra, of: pestTable[pest.key], in: .pest))
                }
            }
            // Dose: the amount per area (expenditure, with its measure) when given, else the
            // spray concentration in %; a concentration given beside an amount goes in the notes.
            let dosageFrom = mapper.number(indication.dosageFrom, field: "dosageFrom", of: useLabel.text, log: log)
            let dosageTo = mapper.number(indication.dosageTo, field: "dosageTo", of: useLabel.text, log: log)
            let amountFrom = mapper.number(indication.expenditureFrom, field: "expenditureForm", of: useLabel.text, log: log)
            let amountTo = mapper.number(indication.expenditureTo, field: "expenditureTo", of: useLabel.text, log: log)
            let measure = resolve("Measure", indication.measureKey, in: useLabel.text)
            if amountFrom != nil || amountTo != nil {
                use.dose = Dose(from: amountFrom, to: amountTo, unit: measure.flatMap { $0.texts["de"] })
                if dosageFrom != nil || dosageTo != nil {
                    let label = Dose(from: dosageFrom, to: dosageTo, unit: "%").label
                    notes.append(RegisterMapper.concentrationTitle.mapValues { "\($0): \(label)" })
                }
            } else if dosageFrom != nil || dosageTo != nil {
                use.dose = Dose(from: dosageFrom, to: dosageTo, unit: "%")
            }
            if let days = mapper.number(indication.waitingPeriod, field: "waitingPeriod", of: useLabel.text, log: log) {
                let weeks =
                    resolve("TimeMeasure", indication.timeMeasureKey, in: useLabel.text)
                    .map { ($0.texts["de"] ?? "").lowercased().hasPrefix("woche") } ?? false
                // Any finite number parses; one beyond Int's range must not trap the conversion.
                if let whole = Int(exactly: days.rounded()),
                    case let (value, false) = whole.multipliedReportingOverflow(by: weeks ? 7 : 1)
                {
                    use.phiDays = value
                } else {
                    log.add("unparsable number", "\(useLabel.text): waitingPeriod=\"\(indication.waitingPeriod)\"")
                }
            }
            // Application area, with the culture form (field or greenhouse) after it.
            let area = resolve("ApplicationArea", indication.applicationAreaKey, in: useLabel.text)
            let forms = indication.cultureFormKeys.compactMap { resolve("CultureForm", $0, in: useLabel.text) }
            use.applicationArea = texts.area(area, forms: forms)
            if let comment = resolve("ApplicationComment", indication.commentKey, in: useLabel.text) {
                notes.insert(texts.localized(comment, in: .comment), at: 0)
            }
            use.notes = RegisterMapper.joined(notes)
            for key in indication.obligationKeys where exists("Obligation", obligationTable, key, in: useLabel.text) {
                use.obligationIDs.append(key.text)
            }
            return use
        }

        /// Pests last: the register gives pests no kind; the categories of the products used
        /// against a pest tell it well enough (herbicides against weeds, fungicides against diseases).
        mutating func pests() -> Bool {
            for detail in pestTable.values.sorted(by: { $0.key < $1.key }) {
                let counts = pestCategories[detail.key] ?? [:]
                let kind =
                    counts.compactMap { category, count in RegisterMapper.pestKind(for: category).map { ($0, count) } }
                    .max { ($0.1, $1.0.rawValue) < ($1.1, $0.0.rawValue) }?.0 ?? .other
                var name = RegisterMapper.localized(detail)
                name["lt"] = nil
                let pest = CatalogRecord.Pest(
                    id: detail.key.text, kind: kind, latinName: RegisterMapper.trimmed(detail.texts["lt"] ?? ""), name: name)
                guard emit(.pest(pest)) else { return false }
                output.pests += 1
            }
            return true
        }
    }

    /// The texts of uses that depend only on metadata rows, made once per row (or rows): the
    /// 26 000 uses of the 2026 register name the same few hundred additional texts, areas and
    /// comments, and building their dictionaries anew for each use was a third of the mapping
    /// of the uses. One mapping, one thread.
    final class UseTexts {
        /// Which table a row comes from: keys are unique per table only.
        enum Table: Hashable {
            case culture, pest, area, form, comment
        }

        private struct RowKey: Hashable {
            var table: Table
            var key: RegisterKey
        }

        private struct NoteKey: Hashable {
            var table: Table
            var text: RegisterKey
            var owner: RegisterKey?
        }

        private struct AreaKey: Hashable {
            var area: RegisterKey?
            var forms: [RegisterKey]
        }

        private var rows: [RowKey: LocalizedText] = [:]
        private var notes: [NoteKey: LocalizedText] = [:]
        private var areas: [AreaKey: LocalizedText] = [:]

        /// `RegisterMapper.localized(detail)`.
        func localized(_ detail: RegisterDocument.Detail, in table: Table) -> LocalizedText {
            Self.kept(RowKey(table: table, key: detail.key), in: &rows) { RegisterMapper.localized(detail) }
        }

        /// An additional text of a culture or pest, prefixed by the name of its `owner`.
        func note(_ text: RegisterDocument.Detail, of owner: RegisterDocument.Detail?, in table: Table) -> LocalizedText {
            Self.kept(NoteKey(table: table, text: text.key, owner: owner?.key), in: &notes) {
                RegisterMapper.prefixed(RegisterMapper.localized(text), by: owner.map { localized($0, in: table) })
            }
        }

        /// The application area with the culture forms (field, greenhouse) after it.
        func area(_ area: RegisterDocument.Detail?, forms: [RegisterDocument.Detail]) -> LocalizedText {
            Self.kept(AreaKey(area: area?.key, forms: forms.map(\.key)), in: &areas) {
                var text = area.map { localized($0, in: .area) } ?? [:]
                let formTexts = forms.map { localized($0, in: .form) }
                if !formTexts.isEmpty {
                    for locale in RegisterMapper.locales {
                        let formText = formTexts.compactMap { $0[locale] ?? $0["de"] }.joined(separator: ", ")
                        if let base = text[locale] ?? text["de"] {
                            text[locale] = "\(base) (\(formText))"
                        } else {
                            text[locale] = formText
                        }
                    }
                }
                return text
            }
        }

        /// The text kept for `key` in `texts`, else `make`'s, kept.
        private static func kept<Key: Hashable>(
            _ key: Key, in texts: inout [Key: LocalizedText], _ make: () -> LocalizedText
        ) -> LocalizedText {
            if let text = texts[key] { return text }
            let text = make()
            texts[key] = text
            return text
        }
    }

    // MARK: - Values

    /// A number as the register writes it ("0.4", "90.000000", "1,5"); empty is nil, anything
    /// else unparsable is a data error.
    private func number(_ text: String, field: String, of label: @autoclosure () -> String, log: ErrorLog) -> Double? {
        let trimmed = text.trimmedASCIIWhitespace
        guard !trimmed.isEmpty else { return nil }
        // Foundation's replacingOccurrences only for the rare decimal comma: it was a tenth of
        // the mapping time when run on every one of the 130 000 numbers.
        let decimal = trimmed.utf8.contains(UInt8(ascii: ",")) ? trimmed.replacingOccurrences(of: ",", with: ".") : trimmed
        if let value = Double(decimal), value.isFinite { return value }
        log.add("unparsable number", "\(label()): \(field)=\"\(trimmed)\"")
        return nil
    }

    /// The date part of "2024-10-01" or "2026-02-28 00:00:00.0000000".
    private func date(_ text: String, field: String, of label: String, log: ErrorLog) -> String? {
        let trimmed = text.trimmedASCIIWhitespace
        guard !trimmed.isEmpty else { return nil }
        let day = String(trimmed.prefix(10))
        // yyyy-MM-dd, checked byte by byte: a regular expression per deadline cost more.
        let isDate =
            day.utf8.count == 10
            && day.utf8.enumerated().allSatisfy { index, byte in
                index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        if isDate { return day }
        log.add("unparsable date", "\(label): \(field)=\"\(trimmed)\"")
        return nil
    }

    // MARK: - Texts

    static let categoryTitle: LocalizedText = ["de": "Kategorie", "fr": "Catégorie", "it": "Categoria", "en": "Category"]
    static let concentrationTitle: LocalizedText =
        ["de": "Konzentration", "fr": "Concentration", "it": "Concentrazione", "en": "Concentration"]

    /// Ingredient types the catalog lists as a product's substances; additives to declare are
    /// not active substances.
    static let listedIngredientTypes: Set<String> = ["ACTIVE_INGREDIENT", "SAFENER", "SYNERGIST"]

    /// The catalog languages of a metadata row, non-empty only.
    static func localized(_ detail: RegisterDocument.Detail) -> LocalizedText {
        var text: LocalizedText = [:]
        for locale in locales { if let value = detail.texts[locale], !value.isEmpty { text[locale] = value } }
        return text
    }

    /// A code for a phrase the register lists without one (a few safety phrases such as
    /// "Nur für den berufsmässigen Verwender."): "S-" or "H-" and a hash of its German text,
    /// so that it stays the same from one publication to the next while the text does.
    static func uncodedStatementCode(table: String, detail: RegisterDocument.Detail) -> String {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in (detail.texts["de"] ?? detail.texts.values.sorted().first ?? detail.key.text).utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let hex = String(hash, radix: 16)
        return (table == "CodeR" ? "H-" : "S-") + String(repeating: "0", count: 8 - hex.count) + hex
    }

    static func padded(_ number: Int, width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func trimmed(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// "Culture: text" per locale, the culture's name taken with German fallback.
    static func prefixed(_ text: LocalizedText, by name: LocalizedText?) -> LocalizedText {
        guard let name else { return text }
        var result: LocalizedText = [:]
        for (locale, value) in text {
            if let prefix = name[locale] ?? name["de"] { result[locale] = "\(prefix): \(value)" } else { result[locale] = value }
        }
        return result
    }

    /// Lines per locale; a locale missing a line takes the German one, so that an English
    /// note is not shorter than the German one.
    static func joined(_ parts: [LocalizedText]) -> LocalizedText {
        // Most uses have no note or one: the lines are then the part's own texts.
        if parts.isEmpty { return [:] }
        if parts.count == 1 { return parts[0].filter { locales.contains($0.key) } }
        var result: LocalizedText = [:]
        for locale in locales {
            let lines = parts.compactMap { $0[locale] ?? $0["de"] }
            if !lines.isEmpty, parts.contains(where: { $0[locale] != nil }) || locale == "de" {
                result[locale] = lines.joined(separator: "\n")
            }
        }
        return result
    }

    /// The catalog category of a register category, by its German name.
    static func category(forGermanName name: String) -> ProductCategory {
        let folded = TextFolding.fold(name)
        let table: [(String, ProductCategory)] = [
            ("herbizid", .herbicide), ("fungizid", .fungicide), ("insektizid", .insecticide),
            ("akarizid", .acaricide), ("nematizid", .nematicide), ("molluskizid", .molluscicide),
            ("rodentizid", .rodenticide), ("saatbeiz", .seedTreatment), ("phytoregulator", .growthRegulator),
            ("wachstumsregulator", .growthRegulator), ("netz- und haftmittel", .adjuvant),
        ]
        return table.first { folded.contains($0.0) }?.1 ?? .other
    }

    static func pestKind(for category: ProductCategory) -> PestKind? {
        switch category {
        case .herbicide: return .weed
        case .fungicide, .seedTreatment: return .disease
        case .insecticide: return .insect
        case .acaricide: return .mite
        case .nematicide: return .nematode
        case .molluscicide: return .mollusc
        case .rodenticide: return .rodent
        default: return nil
        }
    }
}
