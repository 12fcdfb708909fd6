import Foundation
import XCTest

@testable import AgroWeb

/// The work pool's queue: one timer lets go of every request that waited too long, whenever it
/// came, and a freed worker goes to the longest waiting request.
final class WorkPoolTests: XCTestCase {
    /// A worker held until `release()`.
    final class Hold: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var released = false

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow: Bool = lock.withLock {
                    if released { return true }
                    self.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func release() {
            let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
                released = true
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume()
        }
    }

    enum Outcome: Equatable {
        case ran, refusedFull, waitedTooLong
    }

    static func outcome(_ pool: WorkPool) async -> Outcome {
        do {
            try await pool.run(deadline: 5) {}
            return .ran
        } catch WorkPool.Refusal.queueFull {
            return .refusedFull
        } catch {
            return .waitedTooLong
        }
    }

    static func waiter(_ pool: WorkPool) -> Task<Outcome, Never> {
        Task { await outcome(pool) }
    }

    static func logged(_ index: Int, in order: OrderLog, _ pool: WorkPool) -> Task<Void, any Error> {
        Task { try await pool.run(deadline: 5) { order.append(index) } }
    }

    func testEveryRequestWaitingPastTheTimeoutIsLetGoWheneverItCame() async throws {
        let pool = WorkPool(workers: 1, queueLimit: 3, queueTimeout: 2)
        let hold = Hold()
        let busy = Task { try await pool.run(deadline: 5) { await hold.wait() } }
        while pool.load.running == 0 { await Task.yield() }
        // Three waiters arriving apart: the one timer, set for the first, must be set again
        // for the later ones; a fourth finds the queue full.
        var waiters: [Task<Outcome, Never>] = []
        for index in 0..<3 {
            if index > 0 { try await Task.sleep(nanoseconds: 200_000_000) }
            waiters.append(Self.waiter(pool))
            while pool.load.waiting < index + 1 { await Task.yield() }
        }
        let fourth = await Self.outcome(pool)
        XCTAssertEqual(fourth, .refusedFull)
        var outcomes: [Outcome] = []
        for waiter in waiters { outcomes.append(await waiter.value) }
        XCTAssertEqual(outcomes, [.waitedTooLong, .waitedTooLong, .waitedTooLong])
        XCTAssertEqual(pool.load.waiting, 0)
        hold.release()
        try await busy.value
        // The worker is free again: a request runs.
        let after = await Self.outcome(pool)
        XCTAssertEqual(after, .ran)
        XCTAssertEqual(pool.load.running, 0)
    }

    func testAFreedWorkerGoesToTheLongestWaitingRequest() async throws {
        let pool = WorkPool(workers: 1, queueLimit: 8, queueTimeout: 30)
        let hold = Hold()
        let busy = Task { try await pool.run(deadline: 5) { await hold.wait() } }
        while pool.load.running == 0 { await Task.yield() }
        let order = OrderLog()
        var waiters: [Task<Void, any Error>] = []
        for index in 0..<4 {
            waiters.append(Self.logged(index, in: order, pool))
            while pool.load.waiting < index + 1 { await Task.yield() }
        }
        hold.release()
        try await busy.value
        for waiter in waiters { try await waiter.value }
        XCTAssertEqual(order.values, [0, 1, 2, 3])
        XCTAssertEqual(pool.load.running, 0)
        XCTAssertEqual(pool.load.waiting, 0)
    }

    final class OrderLog: @unchecked Sendable {
        private let lock = NSLock()
        private var logged: [Int] = []
        func append(_ value: Int) { lock.withLock { logged.append(value) } }
        var values: [Int] { lock.withLock { logged } }
    }
}
