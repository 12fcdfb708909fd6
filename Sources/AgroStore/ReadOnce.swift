import Foundation

/// A value read from a catalog once, on first use, and kept for the catalog's lifetime.
final class ReadOnce<Value: Sendable>: @unchecked Sendable {
    // Guards `kept`; never held while reading.
    private let lock = NSLock()
    private var kept: Value?

    /// The value, if read already.
    var keptValue: Value? { lock.withLock { kept } }

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
