import AgroStore
import Foundation

/// Answers of the JSON API kept in memory, per catalog: the catalog is read-only, so the same
/// request in the same language gets the same bytes until the catalog is swapped, which empties
/// the cache (entries are keyed by the catalog object in use). Bounded by bytes; when full it
/// starts over. Only successful catalog answers are kept: not the weather, not the news (their
/// sources change without the catalog), not errors.
final class ResponseCache: @unchecked Sendable {
    private let lock = NSLock()
    private var generation: ObjectIdentifier?
    private var entries: [String: String] = [:]
    private var bytes = 0
    private let limit: Int

    /// - Parameter limit: bytes of answers kept; 0 turns the cache off.
    init(limit: Int) { self.limit = limit }

    /// The cached answer for `key` on `catalog`'s current catalog, if any.
    func cached(_ key: String, catalog: LiveCatalog) -> String? {
        guard limit > 0 else { return nil }
        let current = ObjectIdentifier(catalog.catalog)
        return lock.withLock {
            if generation != current {
                generation = current
                entries = [:]
                bytes = 0
            }
            return entries[key]
        }
    }

    /// Keeps `made` as the answer for `key` on `catalog`'s current catalog.
    func keep(_ made: String, for key: String, catalog: LiveCatalog) {
        guard limit > 0 else { return }
        let current = ObjectIdentifier(catalog.catalog)
        lock.withLock {
            guard generation == current, made.utf8.count <= limit else { return }
            if bytes + made.utf8.count > limit {
                entries = [:]
                bytes = 0
            }
            if entries.updateValue(made, forKey: key) == nil { bytes += made.utf8.count }
        }
    }
}
