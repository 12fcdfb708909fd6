import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List spray records (their latest revisions), in spraying order.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions
    @Option(help: "Only this field's records (its name).") var field: String?
    @Option(help: "Only records from this day on, YYYY-MM-DD.") var from: String?
    @Option(help: "Only records up to this day, YYYY-MM-DD.") var to: String?

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalogUntilExit()
        let journal = try environment.openJournal(catalog: catalog)
        let documents = try JournalQuery(field: field, from: from, to: to)
            .documents(journal: journal, catalog: catalog, environment: environment)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.date")) { JournalLines.time($0.start, s) },
                Column(header: s("column.field")) { $0.field.name },
                Column(header: s("column.product")) { document in
                    document.products.map { $0.name + " " + s.label(Dose(from: $0.dose, to: nil, unit: $0.unit)) }.joined(
                        separator: " + ")
                },
                Column(header: "BBCH") { $0.bbch.map(String.init) ?? "" },
                Column(header: s("column.findings")) { $0.errors > 0 ? "✗ " + s.plural("journal.errors.short", $0.errors) : "✓" },
                Column(header: s("column.id")) { JournalLines.shortID($0.id) },
            ],
            load: { Page(slicing: documents, $0) }
        ).show(pages)
    }
}
