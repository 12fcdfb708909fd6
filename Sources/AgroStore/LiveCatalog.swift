import AgroDomain
import Foundation
import GRDB
import Synchronization

/// A catalog that can be replaced while it is being read: the handle a long-running process
/// (the pager, `agro serve`, any program using the library) keeps.
///
/// Every query runs on the catalog current when it starts. `swap(to:)` makes the next query
/// see the new catalog; queries in flight finish on the old one, which closes when the last
/// of them ends (the closing itself runs on a private queue). No query fails because of a
/// swap, and a swap waits for no query.
///
/// @unchecked: a generation's counters live on after it stops being `current`, in a class
/// the queries on it share; `lock` guards them and `current` together.
public final class LiveCatalog: @unchecked Sendable {
    /// One open catalog and the queries running on it.
    private final class Generation {
        let catalog: SQLiteCatalog
        var inFlight = 0
        var retired = false
        init(_ catalog: SQLiteCatalog) { self.catalog = catalog }
    }

    // Guards `current` and every generation's counters; held for a few instructions only,
    // never during a query.
    private let lock = NSLock()
    private var current: Generation
    private let onClose: (@Sendable (SQLiteCatalog) -> Void)?
    private let closer = DispatchQueue(label: "agro.live-catalog.close")
    /// Connections of each catalog opened by `reload(from:)` (see `SQLiteCatalog.init`).
    private let maximumReaders: Int

    /// A handle whose first catalog is `catalog`.
    ///
    /// - Parameters:
    ///   - catalog: the catalog queries run on until the first swap.
    ///   - maximumReaders: for the catalogs `reload(from:)` opens: how many queries may run
    ///     at once (1: a single connection).
    ///   - onClose: called after a replaced catalog has been closed (tests, logs).
    public init(
        _ catalog: SQLiteCatalog, maximumReaders: Int = 4, onClose: (@Sendable (SQLiteCatalog) -> Void)? = nil
    ) {
        current = Generation(catalog)
        self.maximumReaders = maximumReaders
        self.onClose = onClose
    }

    /// Opens the catalog the store selects at start-up, with `maximumReaders` connections
    /// (see `SQLiteCatalog.init`).
    /// - Returns: the live catalog and the selection's warning, if any.
    public static func open(
        _ store: CatalogStore, maximumReaders: Int = 4
    ) throws -> (catalog: LiveCatalog, selection: CatalogSelection) {
        let (catalog, selection) = try store.open(maximumReaders: maximumReaders)
        return (LiveCatalog(catalog, maximumReaders: maximumReaders), selection)
    }

    /// The catalog new queries go to.
    public var catalog: SQLiteCatalog { lock.withLock { current.catalog } }

    /// Makes `catalog` current. Returns at once; the old catalog closes when its last
    /// query ends.
    public func swap(to catalog: SQLiteCatalog) {
        let old: Generation = lock.withLock {
            let old = current
            current = Generation(catalog)
            old.retired = true
            return old
        }
        closeIfDrained(old)
    }

    /// Swaps to the store's selected catalog if it is another file than the current one
    /// (after `agro db update` or `rollback` in another process). The new catalog is warmed
    /// first (see `warm(_:readers:)`), so readers do not pay for opening it.
    /// - Returns: true when it swapped.
    @discardableResult
    public func reload(from store: CatalogStore) throws -> Bool {
        let selection = try store.select()
        guard selection.path != catalog.path else { return false }
        let next = try SQLiteCatalog(path: selection.path, maximumReaders: maximumReaders)
        Self.warm(next, readers: maximumReaders)
        swap(to: next)
        return true
    }

    /// Prepares a catalog before it becomes current: opens `readers` connections at once and
    /// runs a product card of a product that exists on each, so that the connections are open,
    /// the schema parsed, the card's statements prepared and the first pages cached before any
    /// reader arrives, then a small list query. Without it, each reader's first query on a new
    /// catalog pays for that (a few milliseconds).
    public static func warm(_ catalog: SQLiteCatalog, readers: Int = 4) {
        let locale = catalog.info.locales.defaultLocale
        // An unknown id would stop the card at its first statement and leave the others unprepared.
        let id = (try? catalog.products(ProductFilter(), page: PageRequest(perPage: 1), locale: locale))?.items.first?.id ?? ""
        // Each thread holds its connection until all hold one (or 100 ms have passed), so the
        // pool opens that many connections instead of handing one out again and again.
        let connections = catalog.database is DatabasePool ? catalog.database.configuration.maximumReaderCount : 1
        let holders = max(1, min(readers, connections))
        let gate = Gate(count: holders), done = DispatchGroup()
        for _ in 0..<holders {
            done.enter()
            Thread {
                defer { done.leave() }
                _ = try? catalog.read { db in
                    gate.arriveAndWait(timeout: 0.1)
                    return try catalog.product(id: id, locale: locale, in: db)
                }
            }.start()
        }
        done.wait()
        DispatchQueue.concurrentPerform(iterations: readers) { _ in
            _ = try? catalog.products(ProductFilter(), page: PageRequest(perPage: 1), locale: locale)
        }
        try? catalog.keepIndexes()
    }

    /// Watches the store and swaps when the installed catalog changes (another process ran
    /// `agro db update` or `agro db rollback`). Cancel the task to stop watching.
    ///
    /// Each poll reads one symbolic link; the catalog is opened only when it changed.
    public func watch(_ store: CatalogStore, every interval: Duration = .seconds(2)) -> Task<Void, Never> {
        Task.detached { [self] in
            var seen = store.installedPath
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = store.installedPath
                guard now != seen else { continue }
                // On failure (a file being replaced, say) the next poll tries again.
                if (try? reload(from: store)) != nil { seen = now }
            }
        }
    }

    /// Runs `body` on the current catalog, keeping that catalog open until it returns.
    public func read<T>(_ body: (SQLiteCatalog) throws -> T) rethrows -> T {
        let generation: Generation = lock.withLock {
            current.inFlight += 1
            return current
        }
        defer {
            lock.withLock { generation.inFlight -= 1 }
            closeIfDrained(generation)
        }
        return try body(generation.catalog)
    }

    private func closeIfDrained(_ generation: Generation) {
        // Exactly one caller sees the retired generation drained, because the check and the
        // mark happen under the lock.
        let close: Bool = lock.withLock {
            guard generation.retired, generation.inFlight == 0 else { return false }
            generation.retired = false
            return true
        }
        guard close else { return }
        // Closing takes a while (every connection of the pool); it happens off the thread of
        // the query that drained the catalog, so that query returns at once.
        let catalog = generation.catalog, onClose = self.onClose
        closer.async {
            try? catalog.close()
            onClose?(catalog)
        }
    }
}

extension LiveCatalog: CatalogInfoUseCase {
    /// The current catalog's identity, version and counts.
    public func catalogInfo() throws -> CatalogInfo { try read { try $0.catalogInfo() } }

    /// The current catalog's metadata, its title and attribution in `locale`.
    public func catalogInfo(locale: String) throws -> CatalogInfo { try read { try $0.catalogInfo(locale: locale) } }
}

extension LiveCatalog: ProductsUseCase {
    /// Products by name, filtered, from the current catalog.
    public func products(_ filter: ProductFilter, page: PageRequest, locale: String) throws -> Page<ProductSummary> {
        try read { try $0.products(filter, page: page, locale: locale) }
    }
    /// Index letters of the matching products' names, from the current catalog.
    public func productLetters(_ filter: ProductFilter, locale: String) throws -> [String] {
        try read { try $0.productLetters(filter, locale: locale) }
    }
    /// A product card from the current catalog; nil when unknown.
    public func product(id: EntityID, locale: String) throws -> Product? {
        try read { try $0.product(id: id, locale: locale) }
    }
    /// The uses matching `filter`, from the current catalog.
    public func uses(_ filter: UseFilter, locale: String) throws -> [Use] {
        try read { try $0.uses(filter, locale: locale) }
    }
}

extension LiveCatalog: SubstancesUseCase {
    /// Active substances by name, from the current catalog.
    public func substances(page: PageRequest, locale: String) throws -> Page<Substance> {
        try read { try $0.substances(page: page, locale: locale) }
    }
    /// A substance from the current catalog; nil when unknown.
    public func substance(id: EntityID, locale: String) throws -> Substance? {
        try read { try $0.substance(id: id, locale: locale) }
    }
}

extension LiveCatalog: CulturesUseCase {
    /// The culture tree of the current catalog.
    public func cultures(locale: String) throws -> [CultureNode] { try read { try $0.cultures(locale: locale) } }
    /// A culture from the current catalog; nil when unknown.
    public func culture(id: EntityID, locale: String) throws -> Culture? {
        try read { try $0.culture(id: id, locale: locale) }
    }
    /// The culture and the groups above it, in the current catalog.
    public func cultureAncestry(id: EntityID) throws -> [EntityID] { try read { try $0.cultureAncestry(id: id) } }
}

extension LiveCatalog: PestsUseCase {
    /// Pests by name, filtered, from the current catalog.
    public func pests(_ filter: PestFilter, page: PageRequest, locale: String) throws -> Page<Pest> {
        try read { try $0.pests(filter, page: page, locale: locale) }
    }
    /// A pest from the current catalog; nil when unknown.
    public func pest(id: EntityID, locale: String) throws -> Pest? { try read { try $0.pest(id: id, locale: locale) } }
}

extension LiveCatalog: SchemesUseCase {
    /// The protection schemes of a culture, from the current catalog.
    public func schemes(cultureID: EntityID, locale: String) throws -> [ProtectionScheme] {
        try read { try $0.schemes(cultureID: cultureID, locale: locale) }
    }
    /// The cultures that have protection schemes in the current catalog.
    public func culturesWithSchemes(locale: String) throws -> [EntityRef] {
        try read { try $0.culturesWithSchemes(locale: locale) }
    }
}

extension LiveCatalog: ContactsUseCase {
    /// The regions of the current catalog.
    public func regions(locale: String) throws -> [Region] { try read { try $0.regions(locale: locale) } }
    /// A region's representatives and distributors; nil when unknown.
    public func contacts(regionID: EntityID, locale: String) throws -> RegionContacts? {
        try read { try $0.contacts(regionID: regionID, locale: locale) }
    }
    /// Every representative in the current catalog.
    public func representatives(locale: String) throws -> [Representative] {
        try read { try $0.representatives(locale: locale) }
    }
}

extension LiveCatalog: NewsUseCase {
    /// News by date, newest first, from the current catalog.
    public func news(kind: NewsKind?, page: PageRequest, locale: String) throws -> Page<NewsSummary> {
        try read { try $0.news(kind: kind, page: page, locale: locale) }
    }
    /// A news item from the current catalog; nil when unknown.
    public func newsItem(id: EntityID, locale: String) throws -> NewsItem? {
        try read { try $0.newsItem(id: id, locale: locale) }
    }
}

extension LiveCatalog: SearchUseCase {
    /// Full-text search over the current catalog.
    public func search(_ text: String, kinds: Set<EntityKind>?, page: PageRequest, locale: String) throws -> Page<SearchHit> {
        try read { try $0.search(text, kinds: kinds, page: page, locale: locale) }
    }
}

extension LiveCatalog: LookupUseCase {
    /// Entities of `kind` whose id or name matches `text`, in the current catalog.
    public func lookup(_ text: String, kind: EntityKind, locale: String) throws -> [EntityRef] {
        try read { try $0.lookup(text, kind: kind, locale: locale) }
    }
    /// Names of `kind` closest to `text`, for "did you mean" suggestions.
    public func closestNames(to text: String, kind: EntityKind, locale: String, limit: Int) throws -> [EntityRef] {
        try read { try $0.closestNames(to: text, kind: kind, locale: locale, limit: limit) }
    }
}

extension LiveCatalog: UseComparisonUseCase {
    /// The use comparison on the current catalog.
    public func compareUses(_ query: UseQuery, page: PageRequest, locale: String) throws -> Page<UseRow> {
        try read { try $0.compareUses(query, page: page, locale: locale) }
    }

    /// The groups offered as the comparison's filter, on the current catalog.
    public func groupsOffered(for query: UseQuery) throws -> Set<String> {
        try read { try $0.groupsOffered(for: query) }
    }
}

extension LiveCatalog: ResistanceUseCase {
    /// The group limits of the current catalog.
    public func groupLimits() throws -> [GroupLimit] { try read { try $0.groupLimits() } }
    /// The incompatibilities among `products` in the current catalog.
    public func tankIncompatibilities(among products: [EntityID], locale: String) throws -> [TankIncompatibility] {
        try read { try $0.tankIncompatibilities(among: products, locale: locale) }
    }
}

extension LiveCatalog: AlternativesUseCase {
    /// Alternatives to `product` in the current catalog.
    public func alternatives(to product: EntityID, culture: EntityID?, pest: EntityID?, locale: String) throws -> [Alternative] {
        try read { try $0.alternatives(to: product, culture: culture, pest: pest, locale: locale) }
    }
}

extension LiveCatalog: SeasonPlanUseCase {
    /// What the plan check needs about `products` on `culture`, from the current catalog.
    public func planFacts(products: [EntityID], culture: EntityID, locale: String) throws -> (
        products: [EntityID: Product], uses: [EntityID: [Use]]
    ) {
        try read { try $0.planFacts(products: products, culture: culture, locale: locale) }
    }
}

/// Lets threads wait until `count` of them have arrived, or a timeout passes.
private final class Gate: Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private let count: Int
    private let arrived = Mutex(0)

    init(count: Int) { self.count = count }

    func arriveAndWait(timeout: TimeInterval) {
        let last = arrived.withLock { arrived in
            arrived += 1
            return arrived == count
        }
        if last {
            for _ in 1..<max(count, 2) { opened.signal() }
        } else {
            _ = opened.wait(timeout: .now() + timeout)
        }
    }
}

extension LiveCatalog: SwappableCatalog {
    /// Metadata of the catalog in use.
    public var info: CatalogInfo { catalog.info }
    /// The file of the catalog in use.
    public var path: String { catalog.path }
    /// The catalog new queries go to (`catalog`), as the use cases see it.
    public var currentCatalog: any OpenCatalog { catalog }

    /// `read(_:)`, the body seeing the use cases only.
    public func readCurrent<T>(_ body: (any OpenCatalog) throws -> T) rethrows -> T {
        try read { try body($0) }
    }
}
