import AgroCaching
import AgroDomain
import Foundation
import GRDB
import GRDBSQLite

/// A catalog file opened for reading. Implements every use case of `Catalog`.
///
/// The file is opened read-only, through a pool of connections so that queries from several
/// threads run side by side, or through a single connection, which opens fastest (a one-shot
/// command). Every text is read in the requested locale and falls back, field
/// by field, along the catalog's locale chain.
///
/// ```swift
/// let catalog = try SQLiteCatalog(path: "Database/catalog.sqlite")
/// let page = try catalog.products(ProductFilter(pest: "avena-fatua"), page: PageRequest(perPage: 20), locale: "ru")
/// for product in page.items { print(product.name, product.registrationNumber ?? "") }
/// print("\(page.total) products, \(page.pageCount) pages")
/// ```
public final class SQLiteCatalog: Sendable {
    /// The file this catalog was opened from.
    public let path: String
    /// The catalog's own description, read once at opening.
    public let info: CatalogInfo
    let database: any DatabaseReader
    /// What `lookup` found, per text, kind and locale: a catalog file never changes. Texts
    /// longer than `LookupKey.longestText` are not kept; a lookup's answer holds up to 50 short
    /// names.
    let lookups = KeyedCache<LookupKey, [EntityRef]>(maxCount: 4096, eviction: .leastRecentlyUsed)
    /// SQL texts with named parameters, built once per query shape (`SQLTextKey`) and kept for
    /// the catalog's lifetime: building a query through GRDB's SQL interpolation (the
    /// localized-name subqueries, the filter) cost more per products request than some of its
    /// statements (Benchmarks/web/README.md).
    let sqlTexts = KeyedCache<SQLTextKey, String>(maxCount: 1024, eviction: .leastRecentlyUsed)
    /// Each product's mode-of-action groups (the uses page's group choices), read on first use.
    let productGroupsOnce = KeyedCache<OneValue, [String: Set<String>]>(computesOnce: true)
    /// The uses as ids (`UseIndex`) and each product's place in the name order per locale:
    /// the uses page's comparison of a pest on a culture, read on first use (once, however many
    /// requests ask for it first at the same time).
    let useIndexOnce = KeyedCache<OneValue, UseIndex>(computesOnce: true)
    let productRanksOnce = KeyedCache<String, [String: Int]>(maxCount: SQLiteCatalog.localesKept, eviction: .keepFirst)
    /// The same order by the numbers of `UseIndex`'s products (the products list of a pest on a
    /// culture), made on first use per locale.
    let productOrderOnce = KeyedCache<String, UseIndex.ProductOrder>(maxCount: SQLiteCatalog.localesKept, eviction: .keepFirst)
    /// The names and name order of each kind (cultures, pests, products, substances) per locale
    /// (the uses page's rows, the products pages' names), read on first use: four kinds for
    /// each of `localesKept` locales.
    let namesOnce = KeyedCache<String, [String: RankedName]>(maxCount: 4 * SQLiteCatalog.localesKept, eviction: .keepFirst)
    /// How many locales the values kept per locale are kept for, the first asked (a server's
    /// languages; the rest are read each time).
    static let localesKept = 16

    /// Opens the catalog at `path` read-only.
    ///
    /// `maximumReaders` is how many queries may run at once; 1 opens a single connection
    /// instead of a pool (a pool opens a second connection for its writer, even read-only).
    ///
    /// `traceStatements`, when given, receives the SQL of every statement the catalog runs,
    /// with its bound values written in (for benchmarks that replay the queries elsewhere).
    ///
    /// - Throws: `CatalogError.missing` when there is no file, `.corrupt` when it is not a
    ///   catalog, `.schemaTooNew` when it needs a newer program.
    public init(
        path: String, maximumReaders: Int = 4, traceStatements: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw CatalogError.missing(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.maximumReaderCount = maximumReaders
        configuration.label = "catalog"
        // Names sort in `NameOrder` (Kazakh letters in their alphabet places), by a collation
        // of the connection rather than a column, so catalogs built before sort alike.
        configuration.prepareDatabase { db in
            try Self.addNameCollation(db)
            // An installed catalog is never written again (an update installs another file), so
            // pages are read through a memory map rather than a read() call per page: the
            // register's pages cost a system call each otherwise. The map goes with the
            // connection: a swapped-out catalog's closes with its last reader.
            try db.execute(sql: "PRAGMA mmap_size = \(Self.mmapSize)")
        }
        if let traceStatements {
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { event in
                    if case let .statement(statement) = event { traceStatements(statement.expandedSQL) }
                }
            }
        }
        // Opened as immutable (a URI; Debian's SQLite reads file names as URIs): SQLite then
        // takes no file lock and checks no change counter at each read, a dozen system calls
        // per web request. A catalog file is never written while open: an update installs
        // another file, and a catalog being built is not opened until it is done.
        let location = "file:" + Self.uriPath(path) + "?immutable=1"
        do {
            database =
                maximumReaders > 1
                ? try DatabasePool(path: location, configuration: configuration)
                : try DatabaseQueue(path: location, configuration: configuration)
            info = try database.read { db in try Self.readInfo(db, path: path) }
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// `path` as the path of a `file:` URI: every byte but ASCII letters, digits, `-._~` and
    /// `/` percent-encoded (SQLite decodes each `%XX` back). Written out: Foundation's
    /// `addingPercentEncoding` goes through CFString and cost 0.9 M instructions, 5% of a
    /// catalog query's start-up (Benchmarks/startup/README.md).
    static func uriPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes of the catalog file each connection maps (more than any catalog built so far).
    static let mmapSize = 256 << 20

    /// `NameOrder` as an SQL collation of `db`: `ORDER BY name_key COLLATE agro_name`. Registered
    /// with SQLite directly, comparing the UTF-8 bytes SQLite passes: GRDB's `DatabaseCollation`
    /// makes two `String`s per comparison, a visible cost of an uncached products request.
    static func addNameCollation(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = addNameCollation(connection)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "agro_name collation not registered")
        }
    }

    /// `addNameCollation(_:)` on a connection of the SQLite C API; SQLite's result code.
    static func addNameCollation(_ connection: OpaquePointer) -> Int32 {
        sqlite3_create_collation_v2(
            connection, "agro_name", SQLITE_UTF8, nil,
            { _, length1, buffer1, length2, buffer2 in
                let order = NameOrder.compare(
                    utf8: UnsafeRawBufferPointer(start: buffer1, count: Int(length1)),
                    UnsafeRawBufferPointer(start: buffer2, count: Int(length2)))
                return Int32(order.rawValue)
            }, nil)
    }

    /// Closes the connections. Queries after closing fail.
    public func close() throws {
        try database.close()
    }

    /// Checks that the file is as long as its pages make: a cheap test for a file cut short
    /// (an interrupted copy), which SQLite would only notice on reaching a missing page.
    ///
    /// - Throws: `CatalogError.corrupt`.
    public func checkPages() throws {
        try read { db in try Self.checkPages(db, path: path) }
    }

    /// `checkPages()` on a connection of the caller's.
    public static func checkPages(_ db: Database, path: String) throws {
        try checkPages(reader: db, path: path)
    }

    /// `checkPages(_:path:)` through either kind of connection.
    static func checkPages(reader: some CatalogReading, path: String) throws {
        var pages: Int64 = 0, pageSize: Int64 = 0
        try reader.each("SELECT page_count, page_size FROM pragma_page_count, pragma_page_size", SQLArguments()) { row in
            pages = Int64(row.integer(at: 0) ?? 0)
            pageSize = Int64(row.integer(at: 1) ?? 0)
        }
        var status = stat()
        let size = stat(path, &status) == 0 ? Int64(status.st_size) : -1
        guard pages * pageSize == size else {
            throw CatalogError.corrupt(path: path, reason: "file is \(size) bytes, its pages make \(pages * pageSize)")
        }
    }

    /// Reads the metadata of an open catalog file.
    ///
    /// - Throws: `CatalogError.corrupt` when the file is not a catalog, `.schemaTooNew` when it
    ///   needs a newer program. Callers that only inspect a file use this on their own
    ///   connection instead of opening a `SQLiteCatalog`.
    public static func readInfo(_ db: Database, path: String) throws -> CatalogInfo {
        try readInfo(reader: db, path: path)
    }

    /// `readInfo(_:path:)` through either kind of connection.
    static func readInfo(reader: some CatalogReading, path: String) throws -> CatalogInfo {
        // sqlite_master directly: GRDB's tableExists loads its schema cache, which costs more.
        let hasMetadata = try reader.strings(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'catalog_metadata'", SQLArguments())
        guard !hasMetadata.isEmpty else {
            throw CatalogError.corrupt(path: path, reason: "not an agro catalog")
        }
        var metadata: [String: String] = [:]
        try reader.each("SELECT key, value FROM catalog_metadata", SQLArguments()) { row in
            if let key = row.string(at: 0) { metadata[key] = row.string(at: 1) }
        }
        guard let identity = metadata["identity"], let version = metadata["version"].flatMap(Int.init),
            let schemaVersion = metadata["schema_version"].flatMap(Int.init)
        else { throw CatalogError.corrupt(path: path, reason: "catalog metadata incomplete") }
        // Before reading any other table: a newer schema may have changed them.
        guard schemaVersion <= CatalogSchema.version else {
            throw CatalogError.schemaTooNew(path: path, found: schemaVersion, supported: CatalogSchema.version)
        }
        let locales = (metadata["locales"] ?? "en").split(separator: ",").map(String.init)
        var fallbacks: [String: [String]] = [:]
        for (key, value) in metadata where key.hasPrefix("fallback.") {
            fallbacks[String(key.dropFirst("fallback.".count))] = value.split(separator: ",").map(String.init)
        }
        let chain = LocaleChain(locales: locales, fallbacks: fallbacks)
        // Titled by its identity when no locale has a title.
        return CatalogInfo(
            identity: identity, title: identity, version: version, schemaVersion: schemaVersion,
            builtAt: metadata["built_at"] ?? "", locales: chain, attribution: nil
        ).localized(chain.defaultLocale, titles: try titles(reader))
    }

    /// The catalog's title and attribution per locale.
    static func titles(_ reader: some CatalogReading) throws -> [String: (title: String?, attribution: String?)] {
        var texts: [String: (title: String?, attribution: String?)] = [:]
        try reader.each("SELECT locale, title, attribution FROM catalog_i18n", SQLArguments()) { row in
            guard let locale = row.string(at: 0), texts[locale] == nil else { return }
            texts[locale] = (row.string(at: 1), row.string(at: 2))
        }
        return texts
    }

    /// SQL builders for reading texts in one locale with fallback.
    func texts(_ locale: String) -> LocalizedSQL {
        LocalizedSQL(chain: info.locales.chain(for: locale))
    }

    /// The EPPO code column of the `cultures` or `pests` row named `alias`, as `eppo_code`: NULL
    /// in a catalog older than schema 3, which has no such column (files are opened as they are).
    func eppoCode(_ alias: String) -> SQL {
        info.schemaVersion >= 3 ? SQL(sql: "\(alias).eppo_code") : "NULL AS eppo_code"
    }

    /// Runs a read, turning database failures into a user-facing error; within the
    /// `CatalogDeadline` of the work, if one is set.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            if let deadline = CatalogDeadline.current {
                return try database.read { db in try CatalogDeadline.watching(db, until: deadline, body) }
            }
            return try database.read(body)
        } catch let error as DatabaseError {
            throw CatalogError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}

/// Builds the SQL expression of a text field read with locale fallback (`CatalogQueries.field`),
/// its locales bound.
struct LocalizedSQL {
    let chain: [String]

    /// `field` of `<entity>_i18n` for the entity whose id is the SQL expression `owner`.
    func field(_ entity: String, _ field: String, owner: String) -> SQL {
        SQL(
            sql: CatalogQueries.field(entity, field, owner: owner, locales: chain.count, named: false),
            arguments: StatementArguments(chain))
    }

    /// The name of the entity whose id is `owner`.
    func name(_ entity: String, owner: String) -> SQL { field(entity, "name", owner: owner) }
}

extension SQLiteCatalog: CatalogInfoUseCase {
    /// Metadata of this catalog (the same as `info`).
    public func catalogInfo() throws -> CatalogInfo { info }

    /// Metadata with the title and attribution in `locale`, falling back along the catalog's
    /// chain (`info` carries them in the catalog's default locale).
    public func catalogInfo(locale: String) throws -> CatalogInfo {
        let texts = try read { db in try Self.titles(db) }
        return info.localized(locale, titles: texts)
    }
}

// `info`, `catalogInfo(locale:)` and `groupsOffered(for:)` are the catalog's own.
extension SQLiteCatalog: OpenCatalog {}

extension CatalogInfo {
    /// The title and attribution in `locale`, falling back along the catalog's chain.
    func localized(_ locale: String, titles: [String: (title: String?, attribution: String?)]) -> CatalogInfo {
        let order = locales.chain(for: locale)
        var localized = self
        if let title = order.lazy.compactMap({ titles[$0]?.title }).first { localized.title = title }
        if let attribution = order.lazy.compactMap({ titles[$0]?.attribution }).first { localized.attribution = attribution }
        return localized
    }
}

extension Database {
    /// One page of a list: `count` counts the whole list, `ordered` (an ordered query) is cut
    /// to the requested page (everything when it asks for all), and `items` makes the page's
    /// items from its rows.
    func page<Item>(
        count: SQL, ordered: SQL, _ request: PageRequest, items: ([Row]) throws -> [Item]
    ) throws -> Page<Item> {
        if request.perPage == nil, request.page == 1 {
            // The whole list asked for (the uses page's comparison): its rows are the count, so
            // the filter is evaluated once instead of twice.
            let rows = try rows(ordered)
            return Page(items: try items(rows), page: 1, perPage: max(rows.count, 1), total: rows.count)
        }
        let total = try value(count, as: Int.self) ?? 0
        let perPage = request.perPage ?? max(total, 1)
        let rows = try rows(ordered + " LIMIT \(perPage) OFFSET \(perPage * (request.page - 1))")
        return Page(items: try items(rows), page: request.page, perPage: perPage, total: total)
    }

    /// Rows of a query whose values are bound through SQL interpolation.
    func rows(_ sql: SQL) throws -> [Row] {
        try Row.fetchAll(self, SQLRequest<Row>(literal: sql, cached: true))
    }

    func row(_ sql: SQL) throws -> Row? {
        try Row.fetchOne(self, SQLRequest<Row>(literal: sql, cached: true))
    }

    /// The first column of every row.
    func column<T: DatabaseValueConvertible & StatementColumnConvertible>(_ sql: SQL, as type: T.Type = T.self) throws -> [T] {
        try T.fetchAll(self, SQLRequest<T>(literal: sql, cached: true))
    }

    func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ sql: SQL, as type: T.Type = T.self) throws -> T? {
        try T.fetchOne(self, SQLRequest<T>(literal: sql, cached: true))
    }
}

extension Row {
    /// A column that may hold NULL or an empty string, as an optional non-empty string.
    func text(_ column: String) -> String? {
        guard let value: String = self[column], !value.isEmpty else { return nil }
        return value
    }
}

/// What an SQL text kept in `SQLiteCatalog.sqlTexts` depends on: the query and its shape (the filter's
/// parts, the locale chain's length, a page's length).
struct SQLTextKey: Hashable, Sendable {
    let query: UInt8
    let shape: Int
}

extension Database: CatalogReading {
    /// Through the connection's statement cache: the server asks the same few texts again and again.
    func each(_ sql: String, _ arguments: SQLArguments, _ body: (any CatalogRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments.grdb)
        while let row = try rows.next() { try body(row) }
    }
}

extension SQLArguments {
    /// The same values as GRDB binds them.
    var grdb: StatementArguments {
        func value(_ argument: SQLArgument) -> (any DatabaseValueConvertible)? {
            switch argument {
            case .text(let text): return text
            case .integer(let number): return number
            }
        }
        return StatementArguments(positional.map(value)) + StatementArguments(named.mapValues(value))
    }
}

extension Row: CatalogRow {
    func string(at index: Int) -> String? { self[index] }
    func double(at index: Int) -> Double? { self[index] }
    func integer(at index: Int) -> Int? { self[index] }
}
