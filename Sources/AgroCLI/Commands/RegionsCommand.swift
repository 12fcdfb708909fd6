import AgroDomain
import AgroPresentation
import ArgumentParser

struct RegionsCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "regions", abstract: "List regions and cities with their centres.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    func run() throws {
        let (environment, catalog) = try Environment.withCatalog(global)
        let regions = try catalog.regions(locale: environment.locale)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.name },
                Column(header: s("column.kind")) { s("region.\($0.kind.rawValue)") },
                Column(header: s("column.centre")) { $0.centreName ?? "" },
                Column(header: s("column.coordinates")) { String(format: "%.4f, %.4f", $0.centre.latitude, $0.centre.longitude) },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { Page(slicing: regions, $0) },
            open: { try ContactsCommand.show(regionID: $0.id, catalog: catalog, environment: environment) }
        ).show(pages)
    }
}
