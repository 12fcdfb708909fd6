import AgroDomain
import AgroPresentation
import ArgumentParser

struct PestsCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "pests", abstract: "List pests: weeds, diseases, insects, ...")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    @Option(help: "Only pests with a registered use on this culture (id or name).") var culture: String?
    @Option(help: "Kind: insect, mite, disease, weed, nematode, mollusc, rodent, other.") var kind: String?

    func run() throws {
        let (environment, catalog) = try Environment.withCatalog(global)
        let filter = try CatalogDocuments.pestFilter(culture: culture, kind: kind, catalog: catalog, environment: environment)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.name },
                Column(header: s("column.latin")) { $0.latinName ?? "" },
                Column(header: s("column.kind")) { environment.name(of: $0.kind) },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { try catalog.pests(filter, page: $0, locale: environment.locale) },
            open: { try PestCommand.show(id: $0.id, cultureID: filter.culture, catalog: catalog, environment: environment) }
        ).show(pages)
    }
}
