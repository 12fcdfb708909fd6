import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct FieldListCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the fields with their culture, dates and earliest harvest.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    func run() throws {
        let environment = try Environment(global)
        let (catalog, journal) = try environment.openJournalUntilExit()
        let items = try journal.store.fields().map { field in
            try FieldDocument(field, catalog: catalog, environment: environment, season: try journal.season(of: field))
        }
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.name },
                Column(header: s("column.fieldArea")) { s("plan.area", s.number($0.area)) },
                Column(header: s("column.culture")) { $0.culture.name },
                Column(header: s("column.sown")) { $0.sown.map { s.date($0.description) } ?? "" },
                Column(header: s("column.harvest")) { $0.harvest.map { s.date($0.description) } ?? "" },
                Column(header: s("column.earliestHarvest")) { $0.earliestHarvest.map { s.date($0.description) } ?? "" },
                Column(header: s("column.records")) { String($0.records) },
            ],
            load: { Page(slicing: items, $0) }
        ).show(pages)
    }
}
