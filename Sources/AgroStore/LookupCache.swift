import AgroDomain
import Foundation

/// Names resolved by `SQLiteCatalog.lookup`, kept for the catalog's lifetime: a web request's
/// pest and culture cost two reads each otherwise, and the same few are asked again and again.
///
/// Bounded: when full it starts over, so a client sending endless new names holds at most
/// `capacity` answers.
final class LookupCache: @unchecked Sendable {
    struct Key: Hashable {
        let text: String
        let kind: EntityKind
        let locale: String
    }

    /// Entries kept at most; a lookup's answer holds up to 50 short names.
    static let capacity = 4096
    /// Texts longer than this (in UTF-8 bytes) are not kept.
    static let longestText = 200
    // Guards `entries`; held for a dictionary access only.
    private let lock = NSLock()
    private var entries: [Key: [NameMatch]] = [:]

    subscript(key: Key) -> [NameMatch]? {
        get { lock.withLock { entries[key] } }
        set {
            lock.withLock {
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue
            }
        }
    }
}

/// A value read from a catalog once, on first use, and kept for the catalog's lifetime (a
/// catalog file never changes; a swapped-in catalog is another object with its own).
final class ReadOnce<Value: Sendable>: @unchecked Sendable {
    // Guards `kept`; never held while reading.
    private let lock = NSLock()
    private var kept: Value?

    /// The kept value, else `read`'s (two first readers may both read; the first kept wins).
    func value(_ read: () throws -> Value) rethrows -> Value {
        if let kept = lock.withLock({ kept }) { return kept }
        let made = try read()
        return lock.withLock {
            if kept == nil { kept = made }
            return kept ?? made
        }
    }
}

/// Values read from a catalog once per key (a locale), on first use; at most `capacity` keys
/// are kept, a value for any other is read each time.
final class ReadOncePerKey<Value: Sendable>: @unchecked Sendable {
    static var capacity: Int { 16 }
    // Guards `kept`; never held while reading.
    private let lock = NSLock()
    private var kept: [String: Value] = [:]

    /// The value kept for `key`, else `read`'s.
    func value(_ key: String, _ read: () throws -> Value) rethrows -> Value {
        if let value = lock.withLock({ kept[key] }) { return value }
        let made = try read()
        return lock.withLock {
            if let value = kept[key] { return value }
            if kept.count < Self.capacity { kept[key] = made }
            return made
        }
    }
}
