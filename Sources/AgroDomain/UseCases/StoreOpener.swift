import Foundation

/// Where the catalog a command reads is: an explicit file, else the newest valid one among the
/// catalogs installed in the data directory and the bundled one.
public struct CatalogLocation: Sendable, Equatable {
    /// A file named by the user (`--catalog`, the config file); nil to select one.
    public var explicitPath: String?
    /// The directory the installed catalogs live in.
    public var dataDirectory: String
    /// The catalog shipped with the program, if there is one.
    public var bundledPath: String?

    /// The catalog at `explicitPath`, else the one selected in `dataDirectory` and `bundledPath`.
    public init(explicitPath: String?, dataDirectory: String, bundledPath: String?) {
        self.explicitPath = explicitPath
        self.dataDirectory = dataDirectory
        self.bundledPath = bundledPath
    }
}

/// The use cases a list printed whole reads: products or search hits, and the names its filters
/// resolve.
public typealias CatalogList = CatalogInfoUseCase & ProductListUseCase & SearchUseCase & LookupUseCase

/// Opens the stores a catalog query reads and writes: the catalog and the user's favorites.
///
/// The presentation layer opens through this and never names the store's types; the program's
/// composition root (each executable's `main`) chooses the implementation, and with it any
/// faster implementation of some use cases.
///
/// ```swift
/// let (catalog, warning) = try opener.openCatalog(at: location, watching: false)
/// let page = try catalog.products(ProductFilter(pest: "zymoseptoria-tritici"), page: .all, locale: "en")
/// ```
public protocol StoreOpener: Sendable {
    /// The catalog at `location` with every use case. `watching`: a catalog another process
    /// installs or rolls back meanwhile is swapped in (a session that lasts, such as the pager).
    /// - Returns: the catalog and the selection's warning (an installed catalog that could not
    ///   be used), if any.
    /// - Throws: `CatalogError` for an explicit file that is no usable catalog; the store's
    ///   error when no catalog can be selected.
    func openCatalog(at location: CatalogLocation, watching: Bool) throws -> (catalog: any SwappableCatalog, warning: String?)

    /// The catalog at `location` for one list printed whole and nothing else; the same file,
    /// checks and warning as `openCatalog(at:watching:)`, the same answers.
    func openList(at location: CatalogLocation) throws -> (catalog: any CatalogList, warning: String?)

    /// The favorites in the user's database at `path`, created when missing.
    func openFavorites(path: String) throws -> any FavoritesUseCase
}
