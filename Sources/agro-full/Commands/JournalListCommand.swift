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
        let documents = try JournalQuery(field: field, from: from, to: to, command: "agro journal list")
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

/// Which records a list or an export asks for: a field, a span of days.
struct JournalQuery {
    var field: String?
    var from: String?
    var to: String?
    var command: String

    /// The latest revisions asked for, in spraying order, with their fields.
    func records(journal: Journal<some JournalStore>) throws -> [(StoredRecord, Field)] {
        func day(_ text: String?, _ option: String) throws -> PlanDate? {
            try text.map { text in
                guard let date = PlanDate(text) else {
                    throw UsageError(.invalidValue(option: option, value: text, valid: []), command: command)
                }
                return date
            }
        }
        let (first, last) = (try day(from, "--from"), try day(to, "--to"))
        let fieldID = try field.map { try journal.field($0).id }
        let fields = Dictionary(uniqueKeysWithValues: try journal.store.fields().map { ($0.id, $0) })
        return try journal.store.records(field: fieldID).compactMap { stored in
            let date = stored.record.start.date
            if let first, date < first { return nil }
            if let last, date > last { return nil }
            return fields[stored.record.field].map { (stored, $0) }
        }
    }

    func documents(journal: Journal<some JournalStore>, catalog: some Catalog, environment: Environment) throws
        -> [RecordDocument]
    {
        try records(journal: journal).map { try RecordDocument($0.0, field: $0.1, catalog: catalog, environment: environment) }
    }
}
