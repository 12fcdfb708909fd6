import Foundation

/// Hands values from one producing thread to one consuming thread in batches, so that an
/// import's steps (reading the XML, mapping, writing) run on both cores at once.
///
/// At most `capacity` batches wait at a time: a producer faster than its consumer blocks
/// instead of growing memory. Batches keep the locking to one round per few hundred values.
final class BatchChannel<Element: Sendable>: @unchecked Sendable {
    // Every field below is read and written under `condition` only: that is what makes the
    // class safe to share between the two threads (hence @unchecked).
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var head = 0
    private var closed = false
    private var cancelled = false
    private let capacity: Int
    /// Batches the consumer is done with (`receive(returning:)`), freed by the producer in
    /// `send`: the consumer is the slower side (the catalog writer), and freeing a batch of
    /// mapped records was 2-3% of its time.
    private var spent: [[Element]] = []

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Queues a batch, waiting while `capacity` batches wait. False when the consumer has
    /// cancelled: the producer should stop.
    @discardableResult
    func send(_ batch: [Element]) -> Bool {
        var finished: [[Element]] = []
        condition.lock()
        while batches.count - head >= capacity, !cancelled { condition.wait() }
        guard !cancelled else {
            condition.unlock()
            return false
        }
        batches.append(batch)
        swap(&finished, &spent)
        condition.broadcast()
        condition.unlock()
        // Here, outside the lock and on this thread.
        finished.removeAll()
        return true
    }

    /// No more batches will come; the consumer gets the waiting ones, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Either side gives up: waiting batches are dropped, `send` returns false from now on
    /// and `receive` nil.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for one; nil once the producer has closed and every batch is
    /// taken, or after a cancel. `finished`, the batch received before, goes back to the
    /// producer to be freed there.
    func receive(returning finished: consuming [Element]? = nil) -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        if let finished, !finished.isEmpty, !closed, !cancelled { spent.append(finished) }
        while head == batches.count, !closed, !cancelled { condition.wait() }
        guard !cancelled, head < batches.count else { return nil }
        // Moved out of its slot: a reference left there made the slot the batch's last one
        // once it came back spent, and clearing the slots below then freed it on this thread.
        var batch: [Element] = []
        swap(&batch, &batches[head])
        head += 1
        // Taken batches are dropped in bulk rather than one by one from the front.
        if head == batches.count {
            batches.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return batch
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
}

/// The producing end of a `BatchChannel`: collects values and sends them `batchSize` at a time.
struct BatchSender<Element: Sendable> {
    let channel: BatchChannel<Element>
    let batchSize: Int
    private var pending: [Element] = []

    init(_ channel: BatchChannel<Element>, batchSize: Int) {
        self.channel = channel
        self.batchSize = batchSize
        pending.reserveCapacity(batchSize)
    }

    /// Adds a value; false when the consumer has cancelled.
    mutating func send(_ element: Element) -> Bool {
        pending.append(element)
        guard pending.count >= batchSize else { return true }
        return flush()
    }

    /// Sends what is pending; false when the consumer has cancelled.
    @discardableResult
    mutating func flush() -> Bool {
        guard !pending.isEmpty else { return !channel.isCancelled }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        return channel.send(batch)
    }
}
