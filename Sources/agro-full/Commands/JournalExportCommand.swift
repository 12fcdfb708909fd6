import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the journal with the columns of Regulation (EU) 2023/564 (CSV by default, or --format json).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this field's records (its name).") var field: String?
    @Option(help: "Only records from this day on, YYYY-MM-DD.") var from: String?
    @Option(help: "Only records up to this day, YYYY-MM-DD.") var to: String?

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalogUntilExit()
        let journal = try environment.openJournal(catalog: catalog)
        let rows = try JournalQuery(field: field, from: from, to: to).export(
            journal: journal, catalog: catalog, environment: environment)
        if environment.format == .json { return try environment.printJSON(rows) }
        // A table of 23 columns helps nobody: the export is CSV unless JSON is asked for.
        environment.output.write(JournalQuery.csv(rows))
    }
}
