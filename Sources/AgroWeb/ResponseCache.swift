import AgroDomain
import Crypto
import Foundation
import Hummingbird

/// Answers of the JSON API kept in memory, per catalog: the catalog is read-only, so the same
/// request in the same language gets the same bytes until the catalog is swapped, which empties
/// the cache (entries are keyed by the catalog object in use). Bounded by bytes, keys included:
/// a key is the SHA-256 of the normalized request (`key(locale:request:)`), 32 bytes however
/// long the query, and each entry counts its answer, its key and its bookkeeping; when full it
/// starts over. Only successful catalog answers are kept: not the weather, not the news (their
/// sources change without the catalog), not errors.
final class ResponseCache: @unchecked Sendable {
    private let lock = NSLock()
    private var generation: ObjectIdentifier?
    private var entries: [Key: String] = [:]
    private var bytes = 0
    private let limit: Int

    /// A digest of a normalized request: SHA-256's 32 bytes, held inline.
    struct Key: Hashable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(_ digest: SHA256.Digest) {
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, byte) in digest.enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
            (a, b, c, d) = (words[0], words[1], words[2], words[3])
        }
    }

    /// What one entry costs beyond its answer: the key, the dictionary slot, the string header.
    static let entryOverhead = 128

    /// - Parameter limit: bytes kept (answers, keys, bookkeeping); 0 turns the cache off.
    init(limit: Int) { self.limit = limit }

    /// The key of a request: its language (already one the server offers), its path and its
    /// query parameters in their order, decoded, without `lang` and without empty values (which
    /// count as absent): so `?a=1&lang=xx&b=` and `?a=1` in English are one entry.
    static func key(locale: String, request: Request) -> Key {
        var hasher = SHA256()
        hasher.update(data: Data(locale.utf8))
        hasher.update(data: [0])
        hasher.update(data: Data(request.uri.path.utf8))
        // Decoded as the routes decode them (`WebRequest.parameters`), so two queries the
        // routes read differently never share a key.
        for (name, value) in WebRequest.formDecoded(request.uri.query ?? "") where name != "lang" && !value.isEmpty {
            hasher.update(data: [0])
            hasher.update(data: Data(name.utf8))
            hasher.update(data: [0x3D])
            hasher.update(data: Data(value.utf8))
        }
        return Key(hasher.finalize())
    }

    /// Whether answers are kept at all (`--cache-mb 0`: not), so that callers need not make a key.
    var isOn: Bool { limit > 0 }

    /// Bytes held now (answers, keys and bookkeeping).
    var size: Int { lock.withLock { bytes } }

    /// The cached answer for `key` on `catalog`'s current catalog, if any.
    func cached(_ key: Key, catalog: any SwappableCatalog) -> String? {
        guard limit > 0 else { return nil }
        let current = ObjectIdentifier(catalog.currentCatalog)
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
    func keep(_ made: String, for key: Key, catalog: any SwappableCatalog) {
        guard limit > 0 else { return }
        let current = ObjectIdentifier(catalog.currentCatalog)
        let cost = made.utf8.count + Self.entryOverhead
        lock.withLock {
            guard generation == current, cost <= limit else { return }
            if bytes + cost > limit {
                entries = [:]
                bytes = 0
            }
            if entries.updateValue(made, forKey: key) == nil { bytes += cost }
        }
    }
}
