import AgroCLI
import AgroDomain
import AgroPresentation
import AgroTerminal
import Foundation

/// How the journal's commands print records, findings and harvest dates as text.
enum JournalLines {
    /// "3. 2026-05-30 · BBCH 49 — Product 0.7 l/ha ✗ 1" with the record's short id.
    static func summary(_ number: Int, _ stored: StoredRecord, names: inout JournalNames, environment: Environment) -> String {
        let s = environment.strings
        let record = stored.record
        let when = [time(record.start, s), record.bbch.map { "BBCH \($0)" }].compactMap { $0 }.joined(separator: " · ")
        let mark = stored.errors > 0 ? "✗ " + s.plural("journal.errors.short", stored.errors) : "✓"
        return "\(number). \(when) — \(products(record, names: &names, environment: environment)) · \(mark) · "
            + shortID(record.id)
    }

    /// The products with their doses, as the language writes numbers; a product the catalog
    /// cannot name is shown by its id.
    static func products(_ record: SprayRecord, names: inout JournalNames, environment: Environment) -> String {
        let s = environment.strings
        return record.products.map { line in
            let name = (try? names.product(line.product).name) ?? line.product
            return name + " " + s.label(Dose(from: line.dose, to: nil, unit: line.unit))
        }.joined(separator: " + ")
    }

    /// A day as the language writes it, and the time of day when one was written.
    static func time(_ time: JournalTime, _ s: Localizer) -> String {
        let text = time.description
        return s.date(String(text.prefix(10))) + (text.count > 10 ? " " + text.dropFirst(11) : "")
    }

    /// The first 8 characters of an id: what `journal show` and `revise` take.
    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }

    /// The field's earliest harvest and why, and whether the expected harvest keeps it.
    static func harvest(field: Field, season: RecordCheck, environment: Environment) -> [String] {
        let s = environment.strings
        guard let gate = season.gates.first else { return [s("journal.harvest.none", field.name)] }
        var lines = [
            environment.bold(s("journal.harvest.earliest", field.name, s.date(gate.earliest.description))),
            "  " + s("journal.harvest.because", gate.product.name, s.date(gate.lastApplication.description), gate.phiDays),
        ]
        if let expected = field.harvest {
            let early = gate.earliest.day - expected.day
            lines.append(
                "  "
                    + (early > 0
                        ? "✗ " + s.plural("journal.harvest.tooEarly", early, s.date(expected.description))
                        : "✓ " + s("journal.harvest.fits", s.date(expected.description))))
        } else {
            lines.append("  " + s("journal.harvest.noExpected"))
        }
        return lines
    }

    /// What a written record prints: what happened, its findings, the field's harvest.
    static func written(
        _ check: RecordCheck, record: SprayRecord, revisionNumber: Int, catalog: some Catalog, environment: Environment
    ) -> [String] {
        let s = environment.strings
        let width = environment.output.size.columns
        let number = check.number ?? 0
        let what: String
        if !check.stored {
            what = s("journal.alreadyStored", number, check.field.name, shortID(record.id))
        } else if revisionNumber > 1 {
            what = s("journal.revised", number, check.field.name, revisionNumber, shortID(record.id))
        } else {
            what = s("journal.recorded", number, check.field.name, time(record.start, s), shortID(record.id))
        }
        var names = JournalNames(catalog: catalog, locale: environment.locale)
        var lines = [environment.bold(what), "  " + products(record, names: &names, environment: environment)]
        lines +=
            check.findings.isEmpty ? ["    ✓ " + s("plan.ok")] : FindingWording(strings: s).lines(check.findings, width: width)
        lines += [""] + harvest(field: check.field, season: check, environment: environment)
        return lines
    }
}
