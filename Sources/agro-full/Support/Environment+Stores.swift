import AgroDomain
import AgroPresentation
import AgroStore

// The stores of the commands only the complete program has, which name them: this program is
// a composition root.
extension Environment {
    /// The installed catalogs (in the data directory) and the bundled one.
    var catalogStore: CatalogStore { CatalogStore(catalogLocation) }

    /// Opens the user database (favorites, the field journal, its sync state).
    func openUserStore() throws -> UserStore {
        try UserStore(path: paths.userDatabase.path)
    }

    /// The field journal in the user database, checked against `catalog` in this environment's
    /// language at this environment's moment.
    func openJournal(catalog: some Catalog) throws -> Journal<UserStore> {
        Journal(store: try openUserStore(), catalog: catalog, locale: locale, now: now)
    }

    /// The catalog, open until the exit (`openCatalogUntilExit`), and the field journal checked
    /// against it: what a journal command reads.
    func openJournalUntilExit() throws -> (any Catalog, Journal<UserStore>) {
        let catalog = try openCatalogUntilExit()
        return (catalog, try openJournal(catalog: catalog))
    }
}
