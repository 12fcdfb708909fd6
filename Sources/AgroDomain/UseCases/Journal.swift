import Foundation

/// The field journal: fields and spray records, each record checked when it is written by the
/// season-plan engine (`PlanCheck`) against the field's season so far: registration on the
/// culture and on the date, dose, stage, applications and interval per season, mode-of-action
/// limits and the pre-harvest interval against the field's expected harvest.
///
/// A record with an error is kept (it happened) and marked; what was found is stored with it.
///
/// ```swift
/// let journal = Journal(store: userStore, catalog: catalog, locale: "en", now: Date())
/// let check = try journal.write(record)
/// if check.errors > 0 { print(check.findings.map(\.message)) }
/// ```
public struct Journal<Store: JournalStore>: Sendable {
    /// What the catalog answers for the checks.
    public typealias CheckCatalog = LookupUseCase & CulturesUseCase & SeasonPlanUseCase & ResistanceUseCase

    /// Where fields and records are kept.
    public let store: Store
    /// The catalog the records are checked against.
    public let catalog: any CheckCatalog
    /// The language of names in findings.
    public let locale: String
    /// The clock, read once by whoever made the journal.
    public let now: Date

    /// After this long a record is corrected only by a revision that says why.
    public static var freeCorrectionHours: Int { 48 }

    /// Creates a journal.
    public init(store: Store, catalog: any CheckCatalog, locale: String, now: Date) {
        self.store = store
        self.catalog = catalog
        self.locale = locale
        self.now = now
    }

    // MARK: Fields

    /// Checks and stores a field. Returns false when this field (by id) was stored already.
    @discardableResult
    public func add(_ field: Field) throws -> Bool {
        try Self.validate(field)
        return try store.addField(field)
    }

    /// What a field must be before it is stored.
    static func validate(_ field: Field) throws {
        guard !field.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw JournalError.emptyFieldName }
        guard field.area.isFinite, field.area > 0 else { throw JournalError.areaNotPositive }
        if let sown = field.sown, let harvest = field.harvest, harvest < sown {
            throw JournalError.harvestBeforeSowing(harvest: harvest, sowing: sown)
        }
    }

    /// The field with this name (case aside) or id (or the start of its id).
    public func field(_ text: String) throws -> Field {
        let fields = try store.fields()
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let field = fields.first(where: { $0.name.lowercased() == wanted || $0.id.uuidString.lowercased() == wanted }) {
            return field
        }
        let byPrefix = fields.filter { wanted.count >= 4 && $0.id.uuidString.lowercased().hasPrefix(wanted) }
        guard byPrefix.count == 1 else { throw JournalError.unknownField(text) }
        return byPrefix[0]
    }

    // MARK: Records

    /// What the checks find for `record` on its field, without writing anything: the findings
    /// for the record, those for the season so far, and the harvest gates.
    public func check(_ record: SprayRecord) throws -> RecordCheck {
        let field = try validate(record)
        return try season(of: field, with: record)
    }

    /// Checks and appends `record`: a first writing when its id is new, a revision otherwise.
    /// The same revision id written twice is stored once (`stored` false the second time).
    /// The findings are stored with their kinds, so that any interface words them in its
    /// reader's language; their English messages stay with them.
    public func write(_ record: SprayRecord) throws -> RecordCheck {
        if let stored = try store.revision(record.revision) {
            guard stored.record.saysTheSame(as: record) else { throw JournalError.revisionConflict(record.revision) }
            var check = try season(of: try validate(stored.record), with: stored.record)
            check.stored = false
            check.findings = stored.findings
            return check
        }
        try requireReason(record)
        var check = try self.check(record)
        check.stored = try store.append(record, findings: check.findings)
        return check
    }

    /// A revision of a record first written more than `freeCorrectionHours` ago must say why.
    private func requireReason(_ record: SprayRecord) throws {
        guard let first = try store.history(record: record.id).first else { return }
        let hours = Self.freeCorrectionHours
        let reason = record.reason?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // Measured from when the revision was written (on a phone offline, maybe long before it
        // arrives), never later than now.
        let written = min(record.writtenAt, now)
        if reason.isEmpty, written.timeIntervalSince(first.record.writtenAt) > Double(hours) * 3600 {
            throw JournalError.reasonRequired(hours: hours)
        }
    }

    /// Refuses, before anything is stored, what `write` and `add` would refuse for these
    /// changes written in this order (a sync batch): fields that cannot be, records that cannot
    /// be or whose field is neither stored nor earlier in the batch, the same id with other
    /// contents, corrections without a reason. Throws the first refusal with its position.
    public func validate(_ changes: [JournalChange]) throws {
        // The fields the records name, each read by its key; every field (for the names) only
        // once the batch adds one: reading and decoding a farm's 200 fields for each record a
        // phone sent was a quarter of a write's CPU (Benchmarks/journal/README.md).
        var fields: [UUID: Field] = [:]
        var names: [String: UUID]?
        for (index, change) in changes.enumerated() {
            do {
                switch change {
                case let .field(field):
                    try Self.validate(field)
                    if names == nil {
                        for stored in try store.fields() where fields[stored.id] == nil { fields[stored.id] = stored }
                        names = Dictionary(fields.values.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { a, _ in a })
                    }
                    if let stored = fields[field.id] {
                        guard stored == field else { throw JournalError.fieldNameTaken(field.name) }
                        continue
                    }
                    if names?[field.name.lowercased()] != nil { throw JournalError.fieldNameTaken(field.name) }
                    fields[field.id] = field
                    names?[field.name.lowercased()] = field.id
                case let .record(record):
                    if fields[record.field] == nil, names == nil { fields[record.field] = try store.field(record.field) }
                    guard let field = fields[record.field] else {
                        throw JournalError.unknownField(record.field.uuidString.lowercased())
                    }
                    if let stored = try store.revision(record.revision) {
                        guard stored.record.saysTheSame(as: record) else {
                            throw JournalError.revisionConflict(record.revision)
                        }
                        continue
                    }
                    try validate(record, on: field)
                    try requireReason(record)
                }
            } catch let error as JournalError {
                throw FarmError.malformedChange(position: index + 1, reason: error.message)
            }
        }
    }

    /// The record's revisions, oldest first.
    public func history(_ text: String) throws -> [StoredRecord] {
        let history = try store.history(record: try recordID(text))
        guard !history.isEmpty else { throw JournalError.unknownRecord(text) }
        return history
    }

    /// The id of the record `text` names: a whole id or its start (at least 4 characters).
    public func recordID(_ text: String) throws -> UUID {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let id = UUID(uuidString: wanted) { return id }
        let matches = wanted.count >= 4 ? try store.recordIDs(prefix: wanted) : []
        guard matches.count == 1 else { throw JournalError.unknownRecord(text) }
        return matches[0]
    }

    /// The field's season as it stands: every record's findings against the others, and the
    /// harvest gates.
    public func season(of field: Field) throws -> RecordCheck {
        try season(of: field, with: nil)
    }

    // MARK: Checks

    /// Numbers the checks cannot use, and dates that cannot be, refused before anything else.
    private func validate(_ record: SprayRecord) throws -> Field {
        guard let field = try store.field(record.field) else {
            throw JournalError.unknownField(record.field.uuidString.lowercased())
        }
        try validate(record, on: field)
        return field
    }

    private func validate(_ record: SprayRecord, on field: Field) throws {
        guard !record.products.isEmpty else { throw JournalError.noProduct }
        for (index, product) in record.products.enumerated() where !(product.dose.isFinite && product.dose > 0) {
            throw JournalError.doseNotPositive(product: index + 1)
        }
        if let bbch = record.bbch, !(0...99).contains(bbch) { throw JournalError.stageOutOfRange(bbch) }
        if let water = record.water, !(water.isFinite && water > 0) { throw JournalError.waterNotPositive }
        if let area = record.area {
            guard area.isFinite, area > 0 else { throw JournalError.areaNotPositive }
            // Hectares as typed: a thousandth over is rounding, not a larger field.
            guard area <= field.area * 1.001 else { throw JournalError.areaLargerThanField(treated: area, field: field.area) }
        }
        let today = PlanDate(day: Int((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        // A day's grace: the person's day may be ahead of UTC.
        guard record.start.date.day <= today.day + 1 else {
            throw JournalError.dateInFuture(date: record.start.date, today: today)
        }
        if let end = record.end, end < record.start { throw JournalError.endBeforeStart }
        let ranges: [(String, Reading?, ClosedRange<Double>)] = [
            ("wind", record.weather.wind, 0...75), ("gusts", record.weather.gusts, 0...110),
            ("temperature", record.weather.temperature, -60...60), ("humidity", record.weather.humidity, 0...100),
            ("rain", record.weather.rain, 0...500),
        ]
        for (quantity, reading, range) in ranges {
            if let reading, !(reading.value.isFinite && range.contains(reading.value)) {
                throw JournalError.readingOutOfRange(quantity: quantity, value: reading.value)
            }
        }
    }

    /// The season of `field` with `record` in place of its earlier revision, checked as one plan.
    private func season(of field: Field, with record: SprayRecord?) throws -> RecordCheck {
        var records = try store.sprays(field: field.id).filter { $0.id != record?.id }
        if let record { records.append(record) }
        // Spraying order; two sprays at the same time in the order written.
        records = records.enumerated().sorted { a, b in
            a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset
        }.map(\.element)
        var lines: [PlanLine] = []
        for (index, each) in records.enumerated() {
            for product in each.products {
                lines.append(
                    PlanLine(
                        application: index + 1, product: product.product, dose: product.dose, unit: product.unit,
                        pests: product.pests, date: each.start.date, bbch: each.bbch))
            }
        }
        let cultureName = try catalog.culture(id: field.culture, locale: locale)?.name ?? field.culture
        var pestNames: [EntityID: String] = [:]
        for pest in Set(lines.flatMap(\.pests)) {
            pestNames[pest] = try catalog.lookup(pest, kind: .pest, locale: locale).first { $0.id == pest }?.name ?? pest
        }
        let plan = SeasonPlan(
            culture: field.culture, sowing: field.sown, harvest: field.harvest, area: field.area, applications: [])
        let resolved = ResolvedPlan(
            culture: EntityRef(id: field.culture, name: cultureName), plan: plan, lines: lines, pestNames: pestNames)
        let facts = try PlanCheck.facts(for: resolved, in: catalog, locale: locale)
        let report = PlanCheck.check(lines, facts: facts)
        let number = record.flatMap { record in records.firstIndex { $0.id == record.id } }.map { $0 + 1 }
        return RecordCheck(
            field: field, number: number,
            findings: number.map { number in report.findings.filter { $0.application == number } } ?? [],
            season: report.findings.filter { $0.application == nil || number == nil },
            gates: PlanCheck.harvestGates(lines, facts: facts), records: records.map(\.id))
    }
}

/// What the checks found for one record on its field, or for the field's season.
public struct RecordCheck: Sendable, Hashable {
    /// The field.
    public var field: Field
    /// The record's place in the field's season (1 = first spray); nil for a whole season.
    public var number: Int?
    /// The findings for the record (its number's), in the order the rules give them.
    public var findings: [PlanFinding]
    /// Findings for the season as a whole (mode-of-action shares, substance totals); for a
    /// whole season, every finding.
    public var season: [PlanFinding]
    /// The harvest gates, latest first.
    public var gates: [HarvestGate]
    /// The season's records in spraying order (their numbers are positions from 1).
    public var records: [UUID]
    /// Whether the write stored something new (false: the same revision was stored before).
    public var stored = true

    /// The number of error findings for the record.
    public var errors: Int { findings.filter { $0.severity == .error }.count }
    /// The earliest day the field may be harvested, if any product sets one.
    public var earliestHarvest: PlanDate? { gates.first?.earliest }
}
