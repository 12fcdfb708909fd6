import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalListCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List spray records (their latest revisions), in spraying order.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions
    @OptionGroup var records: JournalQueryOptions

    func run() throws {
        let environment = try Environment(global)
        let (catalog, journal) = try environment.openJournalUntilExit()
        let documents = try records.query.documents(journal: journal, catalog: catalog, environment: environment)
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
