import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct FavoritesCommand: ParsableCommand {
    static let configuration = CatalogCommands.configuration(
        "favorites", abstract: "Keep a list of favorite products, cultures, pests and substances.",
        discussion: "Favorites are kept apart from the catalog, by id, and survive every catalog update.",
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self)

    /// The kinds a favorite can be, tried in this order when no --kind is given.
    static let kinds: [EntityKind] = [.product, .culture, .pest, .substance]

    /// Finds what the user means: an id or name of the given kind, else of the first kind
    /// that knows it.
    static func resolve(_ text: String, kind: EntityKind?, catalog: some Catalog, environment: Environment) throws -> (
        EntityKind, EntityRef
    ) {
        if let kind { return (kind, try catalog.resolve(text, kind: kind, locale: environment.locale)) }
        var firstError: (any Error)?
        for kind in kinds {
            do {
                return (kind, try catalog.resolve(text, kind: kind, locale: environment.locale))
            } catch let error as CatalogError {
                if case .unknownName = error { firstError = firstError ?? error; continue }
                throw error
            }
        }
        throw firstError ?? CatalogError.notFound(kind: .product, id: text)
    }

    struct Add: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "Add a favorite.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id or name.") var item: String
        @Option(help: "product, culture, pest or substance (default: the first that matches).") var kind: EntityKind?

        func run() throws {
            let environment = try Environment(global, refusingCSVFor: "favorites add")
            let catalog = try environment.openCatalogUntilExit()
            let (kind, match) = try FavoritesCommand.resolve(item, kind: kind, catalog: catalog, environment: environment)
            let added = try environment.openFavorites().addFavorite(kind: kind, id: match.id, at: Date())
            environment.print(environment.strings(added ? "favorites.added" : "favorites.already", match.name))
        }
    }

    struct Remove: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a favorite.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id or name.") var item: String
        @Option(help: "product, culture, pest or substance.") var kind: EntityKind?

        func run() throws {
            let environment = try Environment(global, refusingCSVFor: "favorites remove")
            let store = try environment.openFavorites()
            // An id removes even a favorite the current catalog no longer has.
            let wanted = kind
            let saved = try store.favorites().filter { $0.id == item && (wanted == nil || $0.kind == wanted) }
            if let favorite = saved.first {
                try store.removeFavorite(kind: favorite.kind, id: favorite.id)
                environment.print(environment.strings("favorites.removed", item))
                return
            }
            let catalog = try environment.openCatalogUntilExit()
            let (found, match) = try FavoritesCommand.resolve(item, kind: wanted, catalog: catalog, environment: environment)
            let removed = try store.removeFavorite(kind: found, id: match.id)
            environment.print(environment.strings(removed ? "favorites.removed" : "favorites.notThere", match.name))
        }
    }

    struct List: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "List favorites, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var pages: PageOptions

        struct Item: Encodable, Sendable {
            var kind: EntityKind
            var id: EntityID
            var name: String
            /// False when the current catalog no longer has this entity.
            var available: Bool
            var addedAt: Date

            // JSON keys (docs/json-keys.md), apart from the property names.
            enum CodingKeys: String, CodingKey { case kind, id, name, available, addedAt }
        }

        func run() throws {
            let (environment, catalog) = try Environment.withCatalog(global)
            let locale = environment.locale
            let items = try environment.openFavorites().favorites().map { favorite -> Item in
                let name: String?
                switch favorite.kind {
                case .product: name = try catalog.product(id: favorite.id, locale: locale)?.name
                case .culture: name = try catalog.culture(id: favorite.id, locale: locale)?.name
                case .pest: name = try catalog.pest(id: favorite.id, locale: locale)?.name
                case .substance: name = try catalog.substance(id: favorite.id, locale: locale)?.name
                default: name = nil
                }
                return Item(
                    kind: favorite.kind, id: favorite.id, name: name ?? favorite.id, available: name != nil,
                    addedAt: favorite.addedAt)
            }
            let s = environment.strings
            try ListPresenter(
                environment: environment,
                columns: [
                    Column(header: s("column.kind")) { environment.name(of: $0.kind) },
                    Column(header: s("column.name")) { $0.available ? $0.name : "\($0.name) (\(s("favorites.gone")))" },
                    Column(header: s("column.id")) { $0.id },
                ],
                load: { Page(slicing: items, $0) },
                open: { item in
                    try SearchCommand.open(
                        SearchHit(kind: item.kind, id: item.id, name: item.name, detail: nil, rank: 0),
                        catalog: catalog, environment: environment)
                }
            ).show(pages)
        }
    }
}
