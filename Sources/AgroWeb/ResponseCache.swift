import AgroCaching
import AgroDomain
import Crypto
import Foundation
import Hummingbird

/// Answers of the JSON API kept in memory, per catalog: the catalog is read-only, so the same
/// request in the same language gets the same bytes until the catalog is swapped, which empties
/// the cache (entries belong to the catalog object in use). Bounded by bytes, keys included:
/// a key is the SHA-256 of the normalized request (`key(locale:request:)`), 32 bytes however
/// long the query, and each entry counts its answer, its key and its bookkeeping; when full the
/// least recently used answers go first. Only successful catalog answers are kept: not the
/// weather, not the news (their sources change without the catalog), not errors.
struct ResponseCache: Sendable {
    private let answers: KeyedCache<Key, String>

    /// A digest of a normalized request: SHA-256's 32 bytes, held inline.
    struct Key: Hashable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(_ digest: SHA256.Digest) {
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, byte) in digest.enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
            (a, b, c, d) = (words[0], words[1], words[2], words[3])
        }
    }

    /// What one entry costs beyond its answer: the key (twice: the index and the entry), the
    /// index's slot, the entry's string header, cost and links in the order of use.
    static let entryOverhead = 192

    /// - Parameter limit: bytes kept (answers, keys, bookkeeping); 0 turns the cache off.
    init(limit: Int) {
        answers = KeyedCache(
            maxCount: limit > 0 ? .max : 0, maxBytes: max(0, limit), eviction: .leastRecentlyUsed,
            cost: { $1.utf8.count + Self.entryOverhead })
    }

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
    var isOn: Bool { answers.maxBytes > 0 }

    /// Bytes held now (answers, keys and bookkeeping).
    var size: Int { answers.bytes }

    /// The cached answer for `key` on `catalog`'s current catalog, if any.
    func cached(_ key: Key, catalog: any SwappableCatalog) -> String? {
        cached(key, generation: catalog.currentCatalog)
    }

    /// The cached answer for `key` on `generation` (a catalog), if any.
    func cached(_ key: Key, generation: any OpenCatalog) -> String? {
        guard isOn else { return nil }
        return answers.cached(key, generation: generation)
    }

    /// Keeps `made` as the answer for `key` on `generation`, the catalog that was current when
    /// the request looked its answer up (not kept if another has been swapped in since).
    func keep(_ made: String, for key: Key, generation: any OpenCatalog) {
        guard isOn else { return }
        answers.keep(made, for: key, generation: generation)
    }
}
