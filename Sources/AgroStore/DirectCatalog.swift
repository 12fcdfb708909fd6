import AgroDomain
import Foundation

/// A catalog file read through the SQLite C API alone, without GRDB: the one-shot lists of the
/// command line (products, search) and the names they resolve.
///
/// GRDB's connection set-up and statement authorizer, and the Swift runtime's first look-ups
/// of its generic types, cost a products query 9 M of its 22.6 M instructions, more than
/// `sqlite3` runs for the whole query (Benchmarks/startup/README.md). The answers are
/// `SQLiteCatalog`'s: both run the same texts and read the rows the same way
/// (`CatalogQueries`), and `CatalogListTests` asks both the same questions.
///
/// ```swift
/// let catalog = try DirectCatalog(path: "Database/catalog.sqlite")
/// let pest = try catalog.resolve("septoria", kind: .pest, locale: "en")
/// let page = try catalog.products(ProductFilter(pest: pest.id), page: PageRequest(perPage: 20), locale: "en")
/// ```
public final class DirectCatalog: CatalogInfoUseCase, ProductListUseCase, SearchUseCase, LookupUseCase,
    @unchecked Sendable
{
    // @unchecked: the connection is opened in SQLite's serialized mode, and each call prepares
    // and finalizes its own statements.

    /// The file this catalog was opened from.
    public let path: String
    /// The catalog's own description, read at opening.
    public let info: CatalogInfo
    private let connection: DirectConnection

    /// Opens the catalog at `path` read-only, as `SQLiteCatalog(path:)` opens it.
    ///
    /// - Throws: `CatalogError.missing` when there is no file, `.corrupt` when it is not a
    ///   catalog, `.schemaTooNew` when it needs a newer program.
    public init(path: String) throws {
        self.path = path
        connection = try DirectConnection(path: path)
        try connection.prepareForQueries()
        info = try SQLiteCatalog.readInfo(reader: connection, path: path)
    }

    /// `SQLiteCatalog.checkPages()`: the file is as long as its pages make.
    public func checkPages() throws {
        try SQLiteCatalog.checkPages(reader: connection, path: path)
    }

    /// The catalog's metadata (the same as `info`).
    public func catalogInfo() throws -> CatalogInfo { info }

    /// Products by name, filtered, as `SQLiteCatalog.products` lists them.
    public func products(_ filter: ProductFilter, page: PageRequest, locale: String) throws -> Page<ProductSummary> {
        try CatalogQueries.productsPage(
            filter, page: page, chain: info.locales.chain(for: locale), ordered: nil, names: nil, reader: connection,
            texts: { _, make in make() })
    }

    /// Full-text search, as `SQLiteCatalog.search` finds.
    public func search(_ text: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit> {
        try CatalogQueries.search(text, kinds: kinds, page: page, chain: info.locales.chain(for: locale), reader: connection)
    }

    /// An id, registration number or name typed by a user, as `SQLiteCatalog.lookup` finds it.
    public func lookup(_ text: String, kind: EntityKind, locale: String) throws -> [EntityRef] {
        try CatalogQueries.lookup(
            CatalogQueries.trimmed(text), kind: kind, chain: info.locales.chain(for: locale), reader: connection)
    }

    /// Names of `kind` closest to `text`, for "did you mean" messages.
    public func closestNames(to text: String, kind: EntityKind, locale: String, limit: Int) throws -> [EntityRef] {
        try CatalogQueries.closestNames(
            to: text, kind: kind, chain: info.locales.chain(for: locale), limit: limit, reader: connection)
    }
}
