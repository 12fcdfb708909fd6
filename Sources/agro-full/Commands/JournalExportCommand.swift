import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalExportCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the journal with the columns of Regulation (EU) 2023/564 (CSV by default, or --format json).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var records: JournalQueryOptions

    func run() throws {
        let environment = try Environment(global)
        let (catalog, journal) = try environment.openJournalUntilExit()
        let rows = try records.query.export(
            journal: journal, catalog: catalog, environment: environment)
        if environment.format == .json { return try environment.printJSON(rows) }
        // A table of 23 columns helps nobody: the export is CSV unless JSON is asked for.
        environment.output.write(JournalQuery.csv(rows))
    }
}
