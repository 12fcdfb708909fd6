import Foundation

/// Writes that arrive together, stored together: each caller hands in its entry for a key (a
/// farm) and waits; one of them (the first to find no write of that key under way) stores every
/// entry waiting for the key, in one transaction, and hands each caller its own outcome.
///
/// A farm's changes take its numbers one after another under a lock held to the commit, and a
/// commit waits for the disk: one write at a time was one disk sync per record, the most a farm
/// could take (Benchmarks/journal/README.md, "Sync"). Gathered, a disk sync serves every write
/// that came while the last one was under way. A caller returns only once its entry is committed
/// (or refused), so an acknowledged change is on disk as before.
public final class GroupCommit<Key: Hashable & Sendable, Entry: Sendable, Outcome: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `condition`'s lock.

    private final class Slot {
        let entry: Entry
        var outcome: Result<Outcome, any Error>?
        init(_ entry: Entry) { self.entry = entry }
    }

    private let condition = NSCondition()
    private var waiting: [Key: [Slot]] = [:]
    private var writing: Set<Key> = []
    private let largest: Int

    /// Gathers at most `largest` entries in one write.
    public init(largest: Int = 256) {
        self.largest = max(1, largest)
    }

    /// Stores `entry` with whatever else is waiting for `key`; its outcome once committed.
    /// `write` stores a key's entries in one transaction and answers each one's outcome, in
    /// order; the caller that leads a group runs its own `write` for everyone in it.
    public func submit(
        _ entry: Entry, for key: Key, write: (Key, [Entry]) -> [Result<Outcome, any Error>]
    ) throws -> Outcome {
        let slot = Slot(entry)
        condition.lock()
        defer { condition.unlock() }
        waiting[key, default: []].append(slot)
        while true {
            if let outcome = slot.outcome { return try outcome.get() }
            if writing.contains(key) {
                condition.wait()
                continue
            }
            writing.insert(key)
            let group = Array(waiting[key, default: []].prefix(largest))
            waiting[key]?.removeFirst(group.count)
            if waiting[key]?.isEmpty == true { waiting[key] = nil }
            condition.unlock()
            let outcomes = write(key, group.map(\.entry))
            precondition(outcomes.count == group.count, "a group write answers one outcome per entry")
            condition.lock()
            for (slot, outcome) in zip(group, outcomes) { slot.outcome = outcome }
            writing.remove(key)
            condition.broadcast()
        }
    }
}
