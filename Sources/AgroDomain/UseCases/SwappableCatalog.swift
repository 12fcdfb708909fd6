import Foundation

/// One catalog file open for reading: every use case, and what a page shows beside them.
///
/// The web front reads through this and `SwappableCatalog`, never through the store's types,
/// so a faster or another store is chosen where the program starts, in one place.
public protocol OpenCatalog: Catalog, AnyObject {
    /// The file it reads.
    var path: String { get }
    /// The catalog's description as it was read when the file was opened.
    var info: CatalogInfo { get }

    /// The description with its title and attribution in `locale`.
    func catalogInfo(locale: String) throws -> CatalogInfo

    /// One page of `compareUses(_:page:locale:)`, and the mode-of-action groups of every use
    /// matching `query` without its group filter (the choices a filter offers).
    func compareUsesOfferingGroups(
        _ query: UseQuery, page: PageRequest, locale: String
    ) throws -> (rows: Page<UseRow>, groups: Set<String>)
}

/// A catalog that may be replaced while the program runs (an update installed, a roll-back):
/// each use case answers from the file current when it starts.
///
/// What a long-running front keeps per catalog (rendered pickers, cached answers) belongs to
/// `currentCatalog`, compared by identity: a swap makes it another object.
public protocol SwappableCatalog: OpenCatalog {
    /// The catalog in use now.
    var currentCatalog: any OpenCatalog { get }

    /// Runs `body` on the current catalog, which stays open until `body` returns even if
    /// another is swapped in meanwhile: several reads that must agree see one catalog.
    func readCurrent<T>(_ body: (any OpenCatalog) throws -> T) rethrows -> T
}
