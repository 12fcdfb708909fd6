import AgroDomain
import Dispatch
import Foundation
import Synchronization

/// The bounded pool every request's catalog work and rendering runs in: at most `workers`
/// requests at once, at most `queueLimit` waiting (each for at most `queueTimeout` seconds);
/// a request beyond that is refused at once (503 with Retry-After) instead of delaying every
/// other one. The work runs on threads of its own (a task executor over a Dispatch queue),
/// never on Swift's cooperative pool, which reads requests and writes answers: so static
/// files, `/healthz` and cached answers, which skip the pool, stay fast while it is full.
final class WorkPool: Sendable {
    /// Why a request was not run.
    enum Refusal: Error {
        case queueFull, waitedTooLong
    }

    let workers: Int
    let queueLimit: Int
    let queueTimeout: Double
    private struct State {
        var running = 0
        /// Waiting requests, longest waiting first, each with the instant it came (uptime ns).
        var waiting: [(since: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        /// Whether a timer will let go of the longest waiting request when its time is up: one
        /// timer for the queue, not one per request (thousands a second under load, each waking
        /// a thread ten seconds later).
        var sweepScheduled = false
    }
    private let state = Mutex(State())
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
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

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
            case queued
            case refused
        }
        let admission: Admission = state.withLock { state in
            if state.running < workers {
                state.running += 1
                return .now
            }
            guard state.waiting.count < queueLimit else { return .refused }
            return .queued
        }
        switch admission {
        case .now: return
        case .refused: throw Refusal.queueFull
        case .queued:
            let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                enum Queued {
                    case admitted, waiting
                    case sweep(at: UInt64)
                }
                let queued: Queued = state.withLock { state in
                    // A worker freed since the admission above would otherwise wait for the next.
                    if state.running < workers, state.waiting.isEmpty {
                        state.running += 1
                        return .admitted
                    }
                    let now = DispatchTime.now().uptimeNanoseconds
                    state.waiting.append((now, continuation))
                    guard !state.sweepScheduled else { return .waiting }
                    state.sweepScheduled = true
                    return .sweep(at: now + timeoutNanoseconds)
                }
                switch queued {
                case .admitted: continuation.resume(returning: true)
                case .waiting: break
                case let .sweep(instant): scheduleSweep(at: instant)
                }
            }
            if !admitted { throw Refusal.waitedTooLong }
        }
    }

    private var timeoutNanoseconds: UInt64 { UInt64(max(0, queueTimeout) * 1e9) }

    private func scheduleSweep(at instant: UInt64) {
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: instant)) { [weak self] in
            self?.sweep()
        }
    }

    /// Waiters queued for `queueTimeout` or longer are let go without a worker; the timer is
    /// set again for the longest waiting of the others, if any.
    private func sweep() {
        let (expired, next): ([CheckedContinuation<Bool, Never>], UInt64?) = state.withLock { state in
            let now = DispatchTime.now().uptimeNanoseconds
            // Waiters are in the order they came, so the expired ones are at the front.
            let count = state.waiting.prefix { $0.since + timeoutNanoseconds <= now }.count
            let expired = state.waiting.prefix(count).map(\.continuation)
            state.waiting.removeFirst(count)
            guard let oldest = state.waiting.first else {
                state.sweepScheduled = false
                return (expired, nil)
            }
            return (expired, oldest.since + timeoutNanoseconds)
        }
        if let next { scheduleSweep(at: next) }
        for continuation in expired { continuation.resume(returning: false) }
    }

    /// The worker goes to the longest waiting request, else back to the pool.
    private func release() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}

/// Runs jobs on a concurrent Dispatch queue: the pool's admission bounds how many requests
/// use it, so its threads are bounded too.
@available(macOS 15.0, *)
final class DispatchTaskExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "agro.web.work", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
