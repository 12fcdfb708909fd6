import Dispatch
import Synchronization

/// Values kept per key, bounded by a number of entries and by bytes, with what goes when full
/// (`Eviction`) as a parameter: every cache of the program is one of these.
///
/// Sendable by construction: its state sits in a `Mutex`, held for the bookkeeping of one
/// access only, never while a value is made. Two first callers of a key may both make its value
/// (the first kept wins), unless the cache `computesOnce`: then the later ones wait for the
/// first one's value.
///
/// A cache may belong to a generation (a catalog in use): calls that name one drop what was
/// kept for another, so nothing kept for a swapped-out catalog answers for the next.
///
/// ```swift
/// let names = KeyedCache<String, [String]>(maxCount: 16, eviction: .keepFirst)
/// let ru = names.value("ru") { readNames("ru") }  // read once, then kept
/// ```
public final class KeyedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What a full cache does with a new value.
    public enum Eviction: Sendable, Equatable {
        /// Keeps what it has: a new key's value is made on every call and not kept (for a few
        /// keys the program names itself, such as locales).
        case keepFirst
        /// Drops the entries kept first until the new one fits.
        case oldestFirst
        /// Drops the entries asked for least recently until the new one fits (for keys clients
        /// send: endless new keys cannot push out the ones asked again and again).
        case leastRecentlyUsed
    }

    /// Entries kept at most.
    public let maxCount: Int
    /// Bytes kept at most, as `cost` counts them.
    public let maxBytes: Int
    /// What goes when the cache is full.
    public let eviction: Eviction
    /// How long a value answers after it was kept; nil: for the cache's lifetime.
    public let lifetime: Duration?
    /// Whether concurrent first callers of a key wait for one value rather than each making it.
    public let computesOnce: Bool
    private let cost: (@Sendable (Key, Value) -> Int)?
    private let state = Mutex(State())

    /// - Parameters:
    ///   - maxCount: entries kept at most; 0 keeps nothing.
    ///   - maxBytes: bytes kept at most as `cost` counts them (an entry costing more is never
    ///     kept); 0 keeps nothing.
    ///   - eviction: what a full cache drops to keep a new value.
    ///   - lifetime: how long a kept value answers; nil: as long as it is kept.
    ///   - computesOnce: whether a key's value is made by one caller at a time, the others
    ///     waiting for it (its maker's failure is not shared: a waiter then makes it itself).
    ///   - cost: an entry's bytes (its value, its key, the bookkeeping); needed with `maxBytes`.
    public init(
        maxCount: Int = .max, maxBytes: Int = .max, eviction: Eviction, lifetime: Duration? = nil,
        computesOnce: Bool = false, cost: (@Sendable (Key, Value) -> Int)? = nil
    ) {
        precondition(maxBytes == .max || cost != nil, "a cache bounded by bytes needs a cost")
        self.maxCount = max(0, maxCount)
        self.maxBytes = max(0, maxBytes)
        self.eviction = eviction
        self.lifetime = lifetime
        self.computesOnce = computesOnce
        self.cost = cost
    }

    /// The value kept for `key`, else `make`'s, kept when it may be.
    ///
    /// - Parameter generation: what kept values belong to (the catalog in use): when it is not
    ///   the one they were kept for, the cache drops everything first. Nil: no generations.
    public func value(
        _ key: Key, generation: (any AnyObject & Sendable)? = nil, _ make: () throws -> Value
    ) rethrows -> Value {
        while true {
            let now = lifetime == nil ? nil : ContinuousClock.now
            let found: Found = state.withLock { state in
                if let generation { state.enter(generation) }
                if let value = lookUp(key, in: &state, now: now) { return .kept(value) }
                guard computesOnce else { return .make(nil) }
                if let flight = state.flights[key] { return .wait(flight) }
                let flight = Flight()
                state.flights[key] = flight
                return .make(flight)
            }
            switch found {
            case .kept(let value):
                return value
            case .wait(let flight):
                // Nil when its maker failed: then this caller tries itself.
                if let value = flight.wait() { return value }
            case .make(let flight):
                var made: Value?
                // The flight ends whatever happens, so that waiters never wait for ever; on
                // success `store` has taken it out of the state with the value kept.
                defer {
                    if let flight {
                        if made == nil { state.withLock { if $0.flights[key] === flight { $0.flights[key] = nil } } }
                        flight.finish(made)
                    }
                }
                let value = try make()
                made = value
                store(value, for: key, generation: generation, ending: flight)
                return value
            }
        }
    }

    /// The value kept for `key`, else `make`'s if it can be kept; nil (nothing made) when the
    /// cache keeps what it has and is full: for a caller with a cheaper way than making the
    /// value again on every call.
    public func keptValue(_ key: Key, _ make: () throws -> Value) rethrows -> Value? {
        if eviction == .keepFirst {
            let full = state.withLock { $0.index[key] == nil && $0.index.count >= maxCount }
            if full { return nil }
        }
        return try value(key, make)
    }

    /// The value kept for `key`, if any (of `generation`, when given: see `value`).
    public func cached(_ key: Key, generation: (any AnyObject & Sendable)? = nil) -> Value? {
        let now = lifetime == nil ? nil : ContinuousClock.now
        return state.withLock { state in
            if let generation { state.enter(generation) }
            return lookUp(key, in: &state, now: now)
        }
    }

    /// Keeps `value` for `key` if it may be: not when `generation` is given and is no longer the
    /// one kept values belong to (the value was made from an older catalog).
    public func keep(_ value: Value, for key: Key, generation: (any AnyObject & Sendable)? = nil) {
        store(value, for: key, generation: generation, ending: nil)
    }

    /// Drops every kept value.
    public func removeAll() { state.withLock { $0.removeAll() } }

    /// Entries kept now.
    public var count: Int { state.withLock { $0.index.count } }
    /// Bytes kept now, as `cost` counts them (0 without a cost).
    public var bytes: Int { state.withLock { $0.bytes } }

    // MARK: - Bookkeeping

    private enum Found {
        case kept(Value)
        case wait(Flight)
        case make(Flight?)
    }

    /// A value being made, which later callers of its key wait for (`computesOnce`).
    private final class Flight: Sendable {
        private let done = DispatchGroup()
        private let made = Mutex<Value?>(nil)

        init() { done.enter() }

        func finish(_ value: Value?) {
            made.withLock { $0 = value }
            done.leave()
        }

        func wait() -> Value? {
            done.wait()
            return made.withLock { $0 }
        }
    }

    /// An entry, linked into the order of use (or of keeping) by slot numbers.
    private struct Slot {
        var key: Key
        var value: Value
        var cost: Int
        var keptAt: ContinuousClock.Instant?
        var older = -1
        var newer = -1
    }

    private struct State {
        var index: [Key: Int] = [:]
        var slots: [Slot?] = []
        var free: [Int] = []
        var oldest = -1
        var newest = -1
        var bytes = 0
        var generation: (any AnyObject & Sendable)?
        var flights: [Key: Flight] = [:]

        /// Starts `generation` afresh unless it is the current one.
        mutating func enter(_ generation: any AnyObject & Sendable) {
            guard self.generation !== generation else { return }
            // Held, not only compared: a later generation can then never have its address.
            self.generation = generation
            removeAll()
        }

        mutating func removeAll() {
            index = [:]
            slots = []
            free = []
            (oldest, newest, bytes) = (-1, -1, 0)
        }

        mutating func unlink(_ slot: Int) {
            let (older, newer) = (slots[slot]!.older, slots[slot]!.newer)
            if older >= 0 { slots[older]!.newer = newer } else { oldest = newer }
            if newer >= 0 { slots[newer]!.older = older } else { newest = older }
        }

        mutating func linkNewest(_ slot: Int) {
            slots[slot]!.older = newest
            slots[slot]!.newer = -1
            if newest >= 0 { slots[newest]!.newer = slot } else { oldest = slot }
            newest = slot
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            if let gone = slots[slot] {
                index[gone.key] = nil
                bytes -= gone.cost
            }
            slots[slot] = nil
            free.append(slot)
        }

        mutating func insert(_ entry: Slot) {
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                slots[slot] = entry
            } else {
                slot = slots.count
                slots.append(entry)
            }
            linkNewest(slot)
            index[entry.key] = slot
            bytes += entry.cost
        }
    }

    private func lookUp(_ key: Key, in state: inout State, now: ContinuousClock.Instant?) -> Value? {
        guard let slot = state.index[key] else { return nil }
        if let lifetime, let now, let keptAt = state.slots[slot]!.keptAt, keptAt.duration(to: now) >= lifetime {
            state.remove(slot)
            return nil
        }
        if eviction == .leastRecentlyUsed, state.newest != slot {
            state.unlink(slot)
            state.linkNewest(slot)
        }
        return state.slots[slot]!.value
    }

    private func store(_ value: Value, for key: Key, generation: (any AnyObject & Sendable)?, ending flight: Flight?) {
        let size = cost?(key, value) ?? 0
        let keptAt = lifetime == nil ? nil : ContinuousClock.now
        state.withLock { state in
            if let flight, state.flights[key] === flight { state.flights[key] = nil }
            if let generation, state.generation !== generation { return }
            // A cache of no entries or no bytes keeps nothing, not even a value that costs nothing.
            guard size <= maxBytes, maxCount > 0, maxBytes > 0 else { return }
            if let slot = state.index[key] {
                // Another caller kept one meanwhile: the first kept stays, unless values age
                // (then the newer one replaces it).
                guard lifetime != nil else { return }
                state.remove(slot)
            }
            while state.index.count >= maxCount || state.bytes > maxBytes - size {
                guard eviction != .keepFirst, state.oldest >= 0 else { return }
                state.remove(state.oldest)
            }
            state.insert(Slot(key: key, value: value, cost: size, keptAt: keptAt))
        }
    }
}

/// The one key of a cache that keeps a single value (`KeyedCache<OneValue, V>`).
public struct OneValue: Hashable, Sendable {
    /// The key.
    public init() {}
}

extension KeyedCache where Key == OneValue {
    /// A cache of one value, kept for the cache's lifetime (or `lifetime`).
    public convenience init(lifetime: Duration? = nil, computesOnce: Bool = false) {
        self.init(maxCount: 1, eviction: .oldestFirst, lifetime: lifetime, computesOnce: computesOnce)
    }

    /// The kept value, else `make`'s, kept.
    public func value(_ make: () throws -> Value) rethrows -> Value { try value(OneValue(), make) }

    /// The value, if made and kept already.
    public var keptValue: Value? { cached(OneValue()) }
}
