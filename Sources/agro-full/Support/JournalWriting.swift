import AgroCLI
import AgroDomain
import AgroPresentation
import Foundation

/// Writes a record and prints what was found: one path for `add` and `revise`.
enum JournalWriting {
    static func write(
        _ record: SprayRecord, journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment
    ) throws {
        let (check, revisionNumber, document) = try WrittenRecordDocument.write(
            record, journal: journal, catalog: catalog, environment: environment)
        try environment.print(document) {
            JournalLines.written(
                check, record: record, revisionNumber: revisionNumber, catalog: catalog, environment: environment)
        }
        if check.errors > 0 {
            throw RecordViolations(message: environment.strings.plural("journal.errors", check.errors))
        }
    }
}
