import Foundation

/// Work running on a thread of its own, joined for its result.
///
/// Catalog builds overlap a few long CPU-bound steps (parsing, mapping, SQLite writes and
/// checks) on the two or so cores of the machines they run on. Those steps block inside
/// libxml2 and SQLite for hundreds of milliseconds, so they get plain threads rather than
/// Swift's cooperative pool, which must not be blocked.
package final class WorkerThread<Value: Sendable>: @unchecked Sendable {
    // `outcome` is written once by the thread and read by `join()`, both under `condition`:
    // that is what makes the class safe to share (hence @unchecked).
    private let condition = NSCondition()
    private var outcome: Result<Value, any Error>?

    /// Starts `body` at once on a new thread named `name`.
    package init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try body() }
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the work to end; returns its value or rethrows its error.
    package func join() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return try outcome.get() }
            condition.wait()
        }
    }
}
