import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct ProductsCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "products", abstract: "List products, filtered by pest, culture, substance, category, company or letter.",
        discussion: """
            Each filter takes an id or a name in any catalog language, case-insensitive. A culture also \
            matches products registered on the groups it belongs to (winter wheat -> wheat -> cereals).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    @Option(help: "Pest (id or name).") var pest: String?
    @Option(help: "Culture (id or name); uses on its groups count.") var culture: String?
    @Option(help: "Active substance (id or name).") var substance: String?
    @Option(help: "Category: herbicide, fungicide, insecticide, ...") var category: String?
    @Option(help: "Company (id or name).") var company: String?
    @Option(help: "First letter of the name.") var letter: String?
    @Flag(help: "List the first letters that occur instead of the products.") var letters = false

    func run() throws {
        let environment = try Environment(global)
        // Checked before the catalog opens, and worded in the interface language (a
        // RequestError), as the web API words it.
        if let letter { try CatalogDocuments.checkLetter(letter) }
        // A list printed whole (no pager) opens no product: read without GRDB, which cost more
        // than the query itself (Benchmarks/startup/README.md).
        if !letters, !ListPresenter<ProductSummary>.pages(environment, pages) {
            return try list(environment.openListUntilExit(), environment: environment, open: nil)
        }
        let catalog = try environment.openCatalogUntilExit()
        guard letters else {
            return try list(catalog, environment: environment) {
                try ProductCommand.show(id: $0.id, catalog: catalog, environment: environment)
            }
        }
        let found = try CatalogDocuments.letters(filter(catalog, environment), catalog: catalog, environment: environment)
        try ListPresenter(
            environment: environment, columns: [Column(header: environment.strings("column.letter")) { $0.name }],
            load: { Page(slicing: found, $0) }
        ).show(pages)
    }

    /// The options' filter, names resolved in `catalog`.
    private func filter(_ catalog: some LookupUseCase, _ environment: Environment) throws -> ProductFilter {
        try CatalogDocuments.productFilter(
            pest: pest, culture: culture, substance: substance, category: category, company: company, letter: letter,
            catalog: catalog, environment: environment)
    }

    /// The products the options find, in pages; `open` shows one in full (the pager's).
    private func list(
        _ catalog: some LookupUseCase & ProductListUseCase, environment: Environment,
        open: ((ProductSummary) throws -> Void)?
    ) throws {
        let filter = try filter(catalog, environment)
        let locale = environment.locale
        try ListPresenter(
            environment: environment, columns: Self.columns(environment),
            load: { try catalog.products(filter, page: $0, locale: locale) }, open: open,
            json: Environment.json(products:)
        ).show(pages)
    }

    static func columns(_ environment: Environment) -> [Column<ProductSummary>] {
        let s = environment.strings
        return [
            Column(header: s("column.name")) { $0.name },
            Column(header: s("column.category")) { environment.name(of: $0.category) },
            Column(header: s("column.ingredients")) { environment.label($0.ingredients) },
            Column(header: s("column.registration")) {
                environment.registration($0.registrationNumber, expiry: $0.registrationExpiry)
            },
            Column(header: s("column.id")) { $0.id },
        ]
    }
}
