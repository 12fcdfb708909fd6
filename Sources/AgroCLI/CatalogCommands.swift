import ArgumentParser

/// The commands that answer from the catalog and the user database alone: the queries of
/// the field. Both programs have them; `agro` runs them itself without starting the complete
/// program (see `Sources/agro/Agro.swift`).
package enum CatalogCommands {
    package static var all: [any ParsableCommand.Type] {
        [
            ProductsCommand.self, ProductCommand.self, SubstancesCommand.self, SubstanceCommand.self,
            CulturesCommand.self, CultureCommand.self, PestsCommand.self, PestCommand.self,
            SchemeCommand.self, SearchCommand.self, RegionsCommand.self, ContactsCommand.self,
            FavoritesCommand.self,
            UsesCommand.self, PlanCommand.self, TankCommand.self,
        ]
    }
}
