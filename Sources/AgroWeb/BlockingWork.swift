import AgroDomain
import Dispatch

/// Blocking work (SQLite queries, JSON encoding) run outside Swift's cooperative thread pool.
///
/// Hummingbird runs handlers as tasks on that pool, which has one thread per core and also
/// reads requests and writes answers. A catalog query blocks its thread for a millisecond or
/// more; on two cores two such queries left no thread to move the other connections along,
/// so answers waited behind queries that were not theirs. The work goes to Dispatch's global
/// queue instead, and the task waits for it without holding a thread. The request's
/// `CatalogDeadline` goes with it (task-local values do not cross into Dispatch by themselves).
/// Inside a `WorkPool` worker the work is already on threads of its own and runs where it is:
/// two more thread hops per request cost more than they saved (Benchmarks/web/README.md).
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        if WorkPool.inWorker { return work() }
        let deadline = CatalogDeadline.current
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: CatalogDeadline.$current.withValue(deadline, operation: work))
            }
        }
    }
}
