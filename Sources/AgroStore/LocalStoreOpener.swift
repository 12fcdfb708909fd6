import AgroDomain

/// The stores on this machine, as each executable's `main` hands them to the commands: the
/// catalog file `CatalogStore` selects (or the one named), read through `LiveCatalog`, and the
/// favorites in the user database (`UserStore`).
public struct LocalStoreOpener: StoreOpener {
    /// How a list printed whole reads the catalog.
    public enum Lists: Sendable {
        /// Through the `LiveCatalog` every other use case reads.
        case live
        /// Through `DirectCatalog`: the same statements through the SQLite C API, without GRDB.
        case direct
    }

    /// How `openList(at:)` reads.
    public let lists: Lists

    /// The stores on this machine; lists read as `lists` says.
    public init(lists: Lists = .live) {
        self.lists = lists
    }

    /// A `LiveCatalog` with one connection (a command reads on one thread, and one opens
    /// fastest), watching the store when asked.
    public func openCatalog(
        at location: CatalogLocation, watching: Bool
    ) throws -> (catalog: any SwappableCatalog, warning: String?) {
        if let path = location.explicitPath {
            return (LiveCatalog(try SQLiteCatalog(path: path, maximumReaders: 1), maximumReaders: 1), nil)
        }
        let store = CatalogStore(location)
        let (live, selection) = try LiveCatalog.open(store, maximumReaders: 1)
        // One-shot commands end before a poll would matter; the pager lives for minutes.
        if watching { _ = live.watch(store) }
        return (live, selection.warning)
    }

    /// The catalog `openCatalog(at:watching:)` opens, not watched; a `DirectCatalog` of the
    /// same file, with the same checks, when `lists` is `.direct`.
    public func openList(at location: CatalogLocation) throws -> (catalog: any CatalogList, warning: String?) {
        guard lists == .direct else {
            let (catalog, warning) = try openCatalog(at: location, watching: false)
            return (catalog, warning)
        }
        if let path = location.explicitPath { return (try DirectCatalog(path: path), nil) }
        let (catalog, selection) = try CatalogStore(location).openDirect()
        return (catalog, selection.warning)
    }

    /// A `UserStore`.
    public func openFavorites(path: String) throws -> any FavoritesUseCase {
        try UserStore(path: path)
    }
}

extension CatalogStore {
    /// The installed catalogs of `location`'s data directory and its bundled catalog.
    public init(_ location: CatalogLocation) {
        self.init(dataDirectory: location.dataDirectory, bundledPath: location.bundledPath)
    }
}
