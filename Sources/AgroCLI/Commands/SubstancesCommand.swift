import AgroDomain
import AgroPresentation
import ArgumentParser

struct SubstancesCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "substances", abstract: "List active substances with their mode-of-action groups.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    func run() throws {
        let (environment, catalog) = try Environment.withCatalog(global)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.name },
                Column(header: s("column.moa")) { $0.modeOfAction?.label ?? "" },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { try catalog.substances(page: $0, locale: environment.locale) },
            open: { try SubstanceCommand.show(id: $0.id, catalog: catalog, environment: environment) }
        ).show(pages)
    }
}
