import AgroCLI
import AgroDomain
import AgroPresentation
import Foundation

/// Writes a record and prints what was found: one path for `add` and `revise`.
enum JournalWriting {
    static func write(
        _ record: SprayRecord, journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    ) throws {
        var check = try journal.write(record)
        check.findings = check.findings.map(environment.worded)
        check.season = check.season.map(environment.worded)
        let stored = try journal.store.revision(record.revision)
        let revisionNumber = stored?.number ?? 1
        if environment.format == .json {
            let document = try RecordDocument(
                stored ?? StoredRecord(record: record, number: revisionNumber, findings: check.findings), field: check.field,
                catalog: catalog, environment: environment)
            try environment.printJSON(
                WrittenRecordDocument(
                    record: document, spray: check.number, stored: check.stored, season: check.season,
                    earliestHarvest: check.earliestHarvest, harvestGates: check.gates))
        } else {
            environment.print(
                JournalLines.written(
                    check, record: record, revisionNumber: revisionNumber, catalog: catalog, environment: environment))
        }
        if check.errors > 0 {
            throw RecordViolations(message: environment.strings.plural("journal.errors", check.errors))
        }
    }
}
