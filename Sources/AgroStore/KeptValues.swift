import Foundation

/// Values a catalog gives the same answer for every time, kept per key for the catalog's
/// lifetime (a catalog file never changes; a swapped-in catalog is another object with its
/// own): names looked up, SQL texts built, orders and indexes read.
///
/// Bounded: at most `capacity` keys. When full, a cache of answers to what clients send (names,
/// query shapes) starts over, so endless new keys hold at most `capacity` values; a cache of a
/// few keys the program names itself (locales) keeps what it has and reads others each time.
package final class KeptValues<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// What a full cache does with a new key's value.
    package enum WhenFull {
        case startOver
        case keepWhatIsKept
    }

    package let capacity: Int
    package let whenFull: WhenFull
    // Guards `kept`; held for a dictionary access only, never while reading.
    private let lock = NSLock()
    private var kept: [Key: Value] = [:]

    package init(capacity: Int, whenFull: WhenFull) {
        self.capacity = capacity
        self.whenFull = whenFull
    }

    /// The value kept for `key`, else `read`'s, kept when there is room (two first readers may
    /// both read; the first kept wins).
    package func value(_ key: Key, _ read: () throws -> Value) rethrows -> Value {
        if let value = lock.withLock({ kept[key] }) { return value }
        let made = try read()
        return lock.withLock {
            if let value = kept[key] { return value }
            if kept.count >= capacity {
                guard whenFull == .startOver else { return made }
                kept.removeAll(keepingCapacity: true)
            }
            kept[key] = made
            return made
        }
    }

    /// The value kept for `key`, else `read`'s if it can be kept; nil (nothing read) when a
    /// cache that keeps what it has is full: for a caller with a cheaper way than reading the
    /// whole value again on every call.
    func keptValue(_ key: Key, _ read: () throws -> Value) rethrows -> Value? {
        let full: Bool = lock.withLock {
            kept[key] == nil && whenFull == .keepWhatIsKept && kept.count >= capacity
        }
        return full ? nil : try value(key, read)
    }
}

/// Values read once per locale (an order, names) or per file name (an asset's table): at
/// most 16 keys are kept.
package typealias ReadOncePerKey<Value: Sendable> = KeptValues<String, Value>

extension KeptValues where Key == String {
    package convenience init() { self.init(capacity: 16, whenFull: .keepWhatIsKept) }
}
