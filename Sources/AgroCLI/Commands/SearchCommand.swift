import AgroDomain
import AgroPresentation
import ArgumentParser

struct SearchCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "search", abstract: "Search products, substances, cultures, pests and news.",
        discussion: """
            Words match by prefix, case- and diacritic-insensitive, in every catalog language. Quotes, \
            stars, parentheses and words like AND or OR are searched as plain words.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    @Argument(help: "Words to search for.") var words: [String]
    @Option(help: "Only hits of this kind: product, substance, culture, pest, news.") var kind: EntityKind?

    func run() throws {
        let environment = try Environment(global)
        // A list printed whole (no pager) opens no hit: read without GRDB, which cost more than
        // the query itself (Benchmarks/startup/README.md).
        if !ListPresenter<SearchHit>.pages(environment, pages) {
            return try list(environment.openListUntilExit(), environment: environment, open: nil)
        }
        let catalog = try environment.openCatalogUntilExit()
        try list(catalog, environment: environment) { hit in try Self.open(hit, catalog: catalog, environment: environment) }
    }

    /// The hits, in pages; `open` shows one in full (the pager's).
    private func list(_ catalog: some SearchUseCase, environment: Environment, open: ((SearchHit) throws -> Void)?) throws {
        let text = words.joined(separator: " ")
        let kinds = kind.map { Set([$0]) }
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.kind")) { environment.name(of: $0.kind) },
                Column(header: s("column.name")) { $0.name },
                Column(header: s("column.detail")) { hit in
                    switch hit.kind {
                    case .product: return ProductCategory(rawValue: hit.detail ?? "").map(environment.name(of:)) ?? ""
                    case .news: return s.date(hit.detail ?? "")
                    default: return hit.detail ?? ""
                    }
                },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { try catalog.search(text, kinds: kinds, page: $0, locale: environment.locale) }, open: open
        ).show(pages)
    }

    static func open(_ hit: SearchHit, catalog: some Catalog, environment: Environment) throws {
        switch hit.kind {
        case .product: try ProductCommand.show(id: hit.id, catalog: catalog, environment: environment)
        case .substance: try SubstanceCommand.show(id: hit.id, catalog: catalog, environment: environment)
        case .culture: try CultureCommand.show(id: hit.id, catalog: catalog, environment: environment)
        case .pest: try PestCommand.show(id: hit.id, cultureID: nil, catalog: catalog, environment: environment)
        case .news, .region, .company: environment.print("\(hit.name) (\(hit.id))")
        }
    }
}

extension EntityKind: ExpressibleByArgument {
    // As for `OutputFormat`: the library's generic defaults, written for this type.
    /// The raw value, as `--kind` takes it.
    public var defaultValueDescription: String { rawValue }
    /// Every value `--kind` takes.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// None: each value describes itself.
    public static var allValueDescriptions: [String: String] { [:] }
}
