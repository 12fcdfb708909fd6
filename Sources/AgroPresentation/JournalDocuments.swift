import AgroDomain
import AgroTerminal
import Foundation

package extension Environment {
    /// `finding` worded in this environment's language (message and source).
    func worded(_ finding: PlanFinding) -> PlanFinding {
        let wording = FindingWording(strings: strings)
        var finding = finding
        finding.message = wording.text(finding)
        finding.source = wording.source(finding)
        return finding
    }
}

package extension FindingWording {
    /// Findings as lines of text: a mark for the severity, the rule, the finding, its source.
    func lines(_ findings: [PlanFinding], width: Int) -> [String] {
        findings.flatMap { finding in
            let mark =
                switch finding.severity {
                case .error: "✗"
                case .warning: "!"
                case .info: "·"
                }
            return DisplayWidth.wrap(
                "\(mark) [\(rule(finding.rule))] \(finding.message)", width: width, indent: "    ", hanging: "  ")
                + DisplayWidth.wrap(strings("plan.source", finding.source), width: width, indent: "        ")
        }
    }
}

/// A field in JSON (`agro field list|show`, the journal's documents).
package struct FieldDocument: Encodable, Sendable {
    package var id: UUID
    package var name: String
    package var area: Double
    package var latitude: Double?
    package var longitude: Double?
    package var boundary: String?
    package var culture: EntityRef
    package var sown: PlanDate?
    package var harvest: PlanDate?
    /// The earliest day the sprays allow a harvest, and why.
    package var earliestHarvest: PlanDate?
    package var harvestGates: [HarvestGate]
    package var records: Int

    package init(_ field: Field, catalog: some Catalog, environment: Environment, season: RecordCheck? = nil) throws {
        id = field.id
        name = field.name
        area = field.area
        latitude = field.location?.latitude
        longitude = field.location?.longitude
        boundary = field.boundary
        culture = EntityRef(
            id: field.culture, name: try catalog.culture(id: field.culture, locale: environment.locale)?.name ?? field.culture)
        sown = field.sown
        harvest = field.harvest
        earliestHarvest = season?.earliestHarvest
        harvestGates = season?.gates ?? []
        records = season?.records.count ?? 0
    }
}

/// A spray-record revision in JSON, names resolved in the requested language.
package struct RecordDocument: Encodable, Sendable {
    package struct ProductLine: Encodable, Sendable {
        package var id: EntityID
        package var name: String
        package var registration: String?
        package var dose: Double
        package var unit: String
        package var pests: [EntityRef]
    }

    package var id: UUID
    package var revision: UUID
    /// 1 for the first writing, then one more per revision.
    package var revisionNumber: Int
    package var field: EntityRef
    package var start: JournalTime
    package var end: JournalTime?
    package var bbch: Int?
    package var products: [ProductLine]
    package var water: Double?
    /// Hectares treated (the field's when the record gives none).
    package var area: Double
    package var `operator`: String?
    package var weather: SprayWeather
    package var notes: String?
    package var reason: String?
    package var writtenAt: Date
    package var findings: [PlanFinding]
    package var errors: Int
    /// The revision this one corrects, as the device that wrote it knew the record.
    package var revises: UUID?
    /// The numbers of other revisions correcting the same one: written apart (two phones
    /// offline), every one kept; the person decides which stands by writing another.
    package var writtenApartFrom: [Int] = []

    /// A record's revisions as documents, oldest first, each marked with the revisions written
    /// apart from it (`journal show`, `GET /api/v1/journal/{id}`).
    package static func history(
        _ history: [StoredRecord], journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    )
        throws -> [RecordDocument]
    {
        let fields = Dictionary(uniqueKeysWithValues: try journal.store.fields().map { ($0.id, $0) })
        var names = JournalNames(catalog: catalog, locale: environment.locale)
        var correcting: [UUID: [Int]] = [:]
        for stored in history {
            if let revises = stored.record.revises { correcting[revises, default: []].append(stored.number) }
        }
        return try history.compactMap { stored in
            try fields[stored.record.field].map { field in
                var document = try RecordDocument(stored, field: field, names: &names, environment: environment)
                document.writtenApartFrom =
                    stored.record.revises.map { correcting[$0, default: []] }?.filter {
                        $0 != stored.number
                    } ?? []
                return document
            }
        }
    }

    package init(_ stored: StoredRecord, field: Field, catalog: some Catalog, environment: Environment) throws {
        var names = JournalNames(catalog: catalog, locale: environment.locale)
        try self.init(stored, field: field, names: &names, environment: environment)
    }

    /// The document, names read through `names` (once per product and pest for a whole list).
    package init(_ stored: StoredRecord, field: Field, names: inout JournalNames, environment: Environment) throws {
        let record = stored.record
        id = record.id
        revision = record.revision
        revisionNumber = stored.number
        self.field = EntityRef(id: field.id.uuidString.lowercased(), name: field.name)
        start = record.start
        end = record.end
        bbch = record.bbch
        var products: [ProductLine] = []
        for line in record.products {
            let (name, registration) = try names.product(line.product)
            var pests: [EntityRef] = []
            for pest in line.pests { pests.append(EntityRef(id: pest, name: try names.pest(pest))) }
            products.append(
                ProductLine(
                    id: line.product, name: name, registration: registration, dose: line.dose, unit: line.unit, pests: pests))
        }
        self.products = products
        water = record.water
        area = record.area ?? field.area
        self.operator = record.sprayer
        weather = record.weather
        notes = record.notes
        reason = record.reason
        writtenAt = record.writtenAt
        findings = stored.findings.map(environment.worded)
        errors = stored.errors
        revises = record.revises
    }
}

/// The names and registration numbers the journal's documents show, read from the catalog once
/// per id: an export of a season names the same few products thousands of times.
package struct JournalNames {
    private let catalog: any Catalog
    private let locale: String
    private var products: [EntityID: (name: String, registration: String?)] = [:]
    private var pests: [EntityID: String] = [:]

    package init(catalog: any Catalog, locale: String) {
        self.catalog = catalog
        self.locale = locale
    }

    /// The product's name and registration number; its id when the catalog no longer has it.
    package mutating func product(_ id: EntityID) throws -> (name: String, registration: String?) {
        if let known = products[id] { return known }
        let card = try catalog.product(id: id, locale: locale)
        let found = (card?.name ?? id, card?.registrationNumber)
        products[id] = found
        return found
    }

    /// The pest's name; its id when the catalog no longer has it.
    package mutating func pest(_ id: EntityID) throws -> String {
        if let known = pests[id] { return known }
        let name = try catalog.pest(id: id, locale: locale)?.name ?? id
        pests[id] = name
        return name
    }
}

/// `agro journal add|revise --format json`: the revision as stored, what was found, and the
/// field's earliest harvest after it.
package struct WrittenRecordDocument: Encodable, Sendable {
    package var record: RecordDocument
    /// The record's place in the field's season (1 = first spray).
    package var spray: Int?
    /// False when the same revision was stored before (nothing new was written).
    package var stored: Bool
    package var season: [PlanFinding]
    package var earliestHarvest: PlanDate?
    package var harvestGates: [HarvestGate]

    package init(
        record: RecordDocument, spray: Int?, stored: Bool, season: [PlanFinding], earliestHarvest: PlanDate?,
        harvestGates: [HarvestGate]
    ) {
        self.record = record
        self.spray = spray
        self.stored = stored
        self.season = season
        self.earliestHarvest = earliestHarvest
        self.harvestGates = harvestGates
    }
}

package extension WrittenRecordDocument {
    /// Checks and stores `record` (`Journal.write`) for a front: the check with its findings
    /// worded in the environment's language, the revision's number, and the document
    /// `agro journal add --format json` and `POST /api/v1/journal` answer with.
    static func write(
        _ record: SprayRecord, journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    ) throws -> (check: RecordCheck, revisionNumber: Int, document: WrittenRecordDocument) {
        var check = try journal.write(record)
        check.findings = check.findings.map(environment.worded)
        check.season = check.season.map(environment.worded)
        // Stored now, or before with the same contents: the store says which revision it is.
        let stored =
            try journal.store.revision(record.revision) ?? StoredRecord(record: record, number: 1, findings: check.findings)
        let document = WrittenRecordDocument(
            record: try RecordDocument(stored, field: check.field, catalog: catalog, environment: environment),
            spray: check.number, stored: check.stored, season: check.season, earliestHarvest: check.earliestHarvest,
            harvestGates: check.gates)
        return (check, stored.number, document)
    }
}

/// One row of the journal export: one product of one record, with the elements Regulation (EU)
/// 2023/564 asks for (docs/journal.md maps each to its column).
package struct ExportRow: Encodable, Sendable {
    package var record: String
    package var revision: Int
    package var field: String
    package var latitude: Double?
    package var longitude: Double?
    package var crop: String
    package var cropEPPO: String?
    package var product: String
    package var authorisation: String?
    package var start: String
    package var end: String?
    package var bbch: Int?
    package var dose: Double
    package var unit: String
    package var area: Double
    /// Dose times area, in the dose's amount (l, kg, g, ml) when it is dosed per hectare.
    package var quantity: Double?
    package var quantityUnit: String?
    package var water: Double?
    package var pests: String
    package var `operator`: String?
    package var errors: Int
    package var rules: String
    package var reason: String?

    /// CSV header, in the order of the columns.
    package static let columns = [
        "record", "revision", "field", "latitude", "longitude", "crop", "cropEPPO", "product", "authorisation", "start",
        "end", "bbch", "dose", "unit", "area", "quantity", "quantityUnit", "water", "pests", "operator", "errors", "rules",
        "reason",
    ]

    /// The row's fields as CSV writes them (numbers as plain decimals, whatever the language).
    package var csvFields: [String] {
        func number(_ value: Double?) -> String { value.map { $0.plainText } ?? "" }
        return [
            record, String(revision), field, number(latitude), number(longitude), crop, cropEPPO ?? "", product,
            authorisation ?? "", start, end ?? "", bbch.map(String.init) ?? "", number(dose), unit, number(area),
            number(quantity), quantityUnit ?? "", number(water), pests, self.operator ?? "", String(errors), rules,
            reason ?? "",
        ]
    }

    /// The rows of one record's latest revision.
    package static func rows(_ document: RecordDocument, field: Field, cropName: String, cropEPPO: String?) -> [ExportRow] {
        document.products.map { line in
            // "l/ha" applied on 12 ha is 12 times the dose in litres.
            let perHectare = line.unit.lowercased().hasSuffix("/ha")
            return ExportRow(
                record: document.id.uuidString.lowercased(), revision: document.revisionNumber, field: field.name,
                latitude: field.location?.latitude, longitude: field.location?.longitude, crop: cropName, cropEPPO: cropEPPO,
                product: line.name, authorisation: line.registration, start: document.start.description,
                end: document.end?.description, bbch: document.bbch, dose: line.dose, unit: line.unit, area: document.area,
                quantity: perHectare ? line.dose * document.area : nil,
                quantityUnit: perHectare ? String(line.unit.dropLast(3)) : nil, water: document.water,
                pests: line.pests.map(\.name).joined(separator: "; "), operator: document.operator,
                errors: document.errors,
                rules: Array(Set(document.findings.filter { $0.severity == .error }.map(\.rule.rawValue)))
                    .sorted().joined(separator: "; "),
                reason: document.reason)
        }
    }
}

/// Which records a list or an export asks for: a field (its name), a span of days. The command
/// line and the API read the same three parameters.
package struct JournalQuery: Sendable {
    package var field: String?
    package var from: String?
    package var to: String?

    package init(field: String?, from: String?, to: String?) {
        self.field = field
        self.from = from
        self.to = to
    }

    /// The latest revisions asked for, in spraying order, with their fields.
    package func records(journal: Journal<some JournalStore>) throws -> [(StoredRecord, Field)] {
        let (first, last) = (try RequestError.date(from, .from), try RequestError.date(to, .to))
        let fieldID = try field.map { try journal.field($0).id }
        let fields = Dictionary(uniqueKeysWithValues: try journal.store.fields().map { ($0.id, $0) })
        return try journal.store.records(field: fieldID).compactMap { stored in
            let date = stored.record.start.date
            if let first, date < first { return nil }
            if let last, date > last { return nil }
            return fields[stored.record.field].map { (stored, $0) }
        }
    }

    /// The records as documents, names in the environment's language.
    package func documents(journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment) throws
        -> [RecordDocument]
    {
        var names = JournalNames(catalog: catalog, locale: environment.locale)
        return try records(journal: journal).map {
            try RecordDocument($0.0, field: $0.1, names: &names, environment: environment)
        }
    }

    /// The export's rows (`agro journal export`, `/api/v1/journal/export`).
    package func export(journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment) throws
        -> [ExportRow]
    {
        // The crop's own EPPO code, not a group's: an auditor reads the code as the crop itself
        // (a culture without one leaves the column empty).
        var crops: [EntityID: (name: String, eppo: String?)] = [:]
        var names = JournalNames(catalog: catalog, locale: environment.locale)
        return try records(journal: journal).flatMap { stored, field in
            if crops[field.culture] == nil {
                let culture = try catalog.culture(id: field.culture, locale: environment.locale)
                crops[field.culture] = (culture?.name ?? field.culture, culture?.eppoCode)
            }
            let document = try RecordDocument(stored, field: field, names: &names, environment: environment)
            let crop = crops[field.culture]
            return ExportRow.rows(document, field: field, cropName: crop?.name ?? field.culture, cropEPPO: crop?.eppo)
        }
    }

    /// The export as CSV: the header, then a line per row.
    package static func csv(_ rows: [ExportRow]) -> String {
        ([CSV.line(ExportRow.columns)] + rows.map { CSV.line($0.csvFields) }).map { $0 + "\n" }.joined()
    }
}

/// A spray record as a program or the web app sends it (`POST /api/v1/journal`, and a
/// revision to `/api/v1/journal/{id}`): names or ids, as the command line takes them. In a
/// revision every key may be left out; the latest revision's value stays.
package struct RecordInput: Decodable, Sendable {
    package struct ProductInput: Decodable, Sendable {
        package var product: String
        package var dose: Double
        package var unit: String?
        package var pests: [String]?
    }

    package var id: UUID?
    package var revision: UUID?
    package var field: String?
    package var start: String?
    package var end: String?
    package var bbch: Int?
    package var products: [ProductInput]?
    package var water: Double?
    package var area: Double?
    package var `operator`: String?
    package var weather: SprayWeather?
    package var notes: String?
    package var reason: String?

    /// Reads the body; what is not this JSON is one line naming what is wrong.
    package static func decode(_ data: Data) throws -> RecordInput { try RequestError.decodeBody(data) }

    /// A first writing: the field, the start and the products are needed.
    package func record(journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment) throws
        -> SprayRecord
    {
        guard let field else { throw RequestError.missing(.field) }
        guard start != nil else { throw RequestError.missing(.start) }
        guard products?.isEmpty == false else { throw RequestError.missing(.product) }
        let id = self.id ?? UUID()
        var record = SprayRecord(
            id: id, revision: revision ?? (self.id == nil ? UUID() : id), field: try journal.field(field).id,
            start: JournalTime(date: PlanDate(day: 0)), products: [], writtenAt: environment.now)
        try apply(to: &record, journal: journal, catalog: catalog, environment: environment)
        return record
    }

    /// A revision of `latest`: what is given replaces what it says.
    package func revision(
        of latest: SprayRecord, journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    )
        throws -> SprayRecord
    {
        var record = latest
        record.revision = revision ?? UUID()
        record.revises = latest.revision
        record.writtenAt = environment.now
        record.reason = reason
        if let field { record.field = try journal.field(field).id }
        try apply(to: &record, journal: journal, catalog: catalog, environment: environment)
        return record
    }

    private func apply(
        to record: inout SprayRecord, journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    ) throws {
        let locale = environment.locale
        if let start {
            guard let time = JournalTime(start) else { throw RequestError.notADate(.start, value: start) }
            record.start = time
        }
        if let end {
            guard let time = JournalTime(end) else { throw RequestError.notADate(.end, value: end) }
            record.end = time
        }
        if let bbch { record.bbch = bbch }
        if let products {
            record.products = try products.map { line in
                AppliedProduct(
                    product: try catalog.resolve(line.product, kind: .product, locale: locale).id, dose: line.dose,
                    unit: line.unit ?? "l/ha",
                    pests: try (line.pests ?? []).map { try catalog.resolve($0, kind: .pest, locale: locale).id })
            }
        }
        if let water { record.water = water }
        if let area { record.area = area }
        if let sprayer = self.operator { record.sprayer = sprayer }
        if let weather { record.weather = weather }
        if let notes { record.notes = notes }
    }
}

/// A field as a program or the web app sends it (`POST /api/v1/fields`).
package struct FieldInput: Decodable, Sendable {
    package var id: UUID?
    package var name: String
    package var area: Double
    package var culture: String
    package var latitude: Double?
    package var longitude: Double?
    package var boundary: String?
    package var sown: String?
    package var harvest: String?

    /// Reads the body; what is not this JSON is one line naming what is wrong.
    package static func decode(_ data: Data) throws -> FieldInput { try RequestError.decodeBody(data) }

    /// The field, its culture resolved and its place checked.
    package func field(catalog: some Catalog, environment: Environment) throws -> Field {
        var location: FieldLocation?
        if let latitude, let longitude {
            let point = try CoordinateParser.parse("\(latitude),\(longitude)")
            location = FieldLocation(latitude: point.latitude, longitude: point.longitude)
        }
        return Field(
            id: id ?? UUID(), name: name.trimmingCharacters(in: .whitespaces), area: area, location: location, boundary: boundary,
            culture: try catalog.resolve(culture, kind: .culture, locale: environment.locale).id,
            sown: try RequestError.date(sown, .sown),
            harvest: try RequestError.date(harvest, .harvest), writtenAt: environment.now)
    }
}

package extension RequestError {
    /// `text` as a day YYYY-MM-DD, nil when not given; any other text is refused naming the
    /// parameter as the front takes it.
    static func date(_ text: String?, _ parameter: Parameter) throws -> PlanDate? {
        guard let text else { return nil }
        guard let date = PlanDate(text) else { throw RequestError.notADate(parameter, value: text) }
        return date
    }

    /// A request body as JSON of `T`; a missing key is that parameter missing, anything else
    /// names where the JSON went wrong.
    static func decodeBody<T: Decodable>(_ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw RequestError.missing(Parameter(rawValue: key.stringValue) ?? .id)
        } catch let error as DecodingError {
            let path = error.context?.codingPath.map { $0.intValue.map { String($0 + 1) } ?? $0.stringValue } ?? []
            throw RequestError.badJSON(detail: path.isEmpty ? "$" : path.joined(separator: " "))
        }
    }
}

extension DecodingError {
    /// Where the decoding failed, whatever the case.
    package var context: Context? {
        switch self {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context),
            let .keyNotFound(_, context):
            context
        @unknown default: nil
        }
    }
}
