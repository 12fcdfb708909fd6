import AgroDomain
import AgroPresentation
import ArgumentParser

struct CulturesCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "cultures", abstract: "List cultures as a tree of groups and members.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    func run() throws {
        let (environment, catalog) = try Environment.withCatalog(global)
        let nodes = try catalog.cultures(locale: environment.locale)
        let rows = environment.format == .table ? CatalogDocuments.cultureTree(nodes) : CatalogDocuments.cultureList(nodes)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.prefix + $0.name },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { Page(slicing: rows, $0) },
            open: { try CultureCommand.show(id: $0.id, catalog: catalog, environment: environment) }
        ).show(pages)
    }
}
