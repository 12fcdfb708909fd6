import AgroDomain
import AgroStore
import AgroTerminal
import Foundation

package extension Environment {
    /// The field journal in the user database, checked against `catalog` in this environment's
    /// language at this environment's moment.
    func openJournal(catalog: some Catalog) throws -> Journal<UserStore> {
        Journal(store: try openUserStore(), catalog: catalog, locale: locale, now: now)
    }

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

    package init(_ stored: StoredRecord, field: Field, catalog: some Catalog, environment: Environment) throws {
        let record = stored.record
        let locale = environment.locale
        id = record.id
        revision = record.revision
        revisionNumber = stored.number
        self.field = EntityRef(id: field.id.uuidString.lowercased(), name: field.name)
        start = record.start
        end = record.end
        bbch = record.bbch
        products = try record.products.map { line in
            let card = try catalog.product(id: line.product, locale: locale)
            let pests = try line.pests.map { id in EntityRef(id: id, name: try catalog.pest(id: id, locale: locale)?.name ?? id) }
            return ProductLine(
                id: line.product, name: card?.name ?? line.product, registration: card?.registrationNumber, dose: line.dose,
                unit: line.unit, pests: pests)
        }
        water = record.water
        area = record.area ?? field.area
        self.operator = record.sprayer
        weather = record.weather
        notes = record.notes
        reason = record.reason
        writtenAt = record.writtenAt
        findings = stored.findings.map(environment.worded)
        errors = stored.errors
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
