import AgroStore
import Dispatch
import Foundation

/// The bounded pool every request's catalog work and rendering runs in: at most `workers`
/// requests at once, at most `queueLimit` waiting (each for at most `queueTimeout` seconds);
/// a request beyond that is refused at once (503 with Retry-After) instead of delaying every
/// other one. The work runs on threads of its own (a task executor over a Dispatch queue),
/// never on Swift's cooperative pool, which reads requests and writes answers: so static
/// files, `/healthz` and cached answers, which skip the pool, stay fast while it is full.
final class WorkPool: @unchecked Sendable {
    /// Why a request was not run.
    enum Refusal: Error {
        case queueFull, waitedTooLong
    }

    let workers: Int
    let queueLimit: Int
    let queueTimeout: Double
    private let lock = NSLock()
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0
    private let executor: (any Sendable)?

    init(workers: Int, queueLimit: Int, queueTimeout: Double) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.queueTimeout = queueTimeout
        if #available(macOS 15.0, *) { executor = DispatchTaskExecutor() } else { executor = nil }
    }

    /// Whether the current task runs in a worker of a pool (on its threads, off Swift's
    /// cooperative pool): `BlockingWork` then runs its work where it is, without a thread hop.
    @TaskLocal static var inWorker = false

    /// Requests running and waiting now.
    var load: (running: Int, waiting: Int) { lock.withLock { (running, waiting.count) } }

    /// Runs `body` when a worker is free, within `deadline` seconds of catalog reads
    /// (`CatalogDeadline`).
    func run<T>(deadline: Double, _ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await CatalogDeadline.$current.withValue(
            DispatchTime.now().uptimeNanoseconds + UInt64(max(0, deadline) * 1e9)
        ) {
            if #available(macOS 15.0, *), let executor = executor as? DispatchTaskExecutor {
                return try await Self.$inWorker.withValue(true) {
                    try await withTaskExecutorPreference(executor) { try await body() }
                }
            }
            return try await body()
        }
    }

    private func acquire() async throws {
        enum Admission {
            case now
            case queued(UInt64)
            case refused
        }
        let admission: Admission = lock.withLock {
            if running < workers {
                running += 1
                return .now
            }
            guard waiting.count < queueLimit else { return .refused }
            nextID += 1
            return .queued(nextID)
        }
        switch admission {
        case .now: return
        case .refused: throw Refusal.queueFull
        case let .queued(id):
            let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.withLock { waiting.append((id, continuation)) }
                DispatchQueue.global().asyncAfter(deadline: .now() + queueTimeout) { [weak self] in
                    self?.expire(id)
                }
            }
            if !admitted { throw Refusal.waitedTooLong }
        }
    }

    /// A waiter still queued after `queueTimeout` is let go without a worker.
    private func expire(_ id: UInt64) {
        let expired: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }

    /// The worker goes to the longest waiting request, else back to the pool.
    private func release() {
        let next: CheckedContinuation<Bool, Never>? = lock.withLock {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            return waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}

/// Runs jobs on a concurrent Dispatch queue: the pool's admission bounds how many requests
/// use it, so its threads are bounded too.
@available(macOS 15.0, *)
final class DispatchTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "agro.web.work", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
