import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import XCTest

@testable import AgroWeb

/// The work pool's queue (one timer lets go of every request that waited too long, whenever it
/// came) and the products requests run without it (`KnownPairs`): the same answers either way.
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

    static func request(_ target: String, method: HTTPRequest.Method = .get) -> Request {
        Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: target),
            body: RequestBody(buffer: ByteBuffer()))
    }

    func testOnlyAProductsPageOfAPestOnACultureIsAKnownPairCandidate() {
        let pair = KnownPairs.pair(of: Self.request("/api/v1/products?pest=a&culture=winter+wheat&lang=de&page=2&perPage=100"))
        XCTAssertEqual(pair?.pest, "a")
        XCTAssertEqual(pair?.culture, "winter wheat")
        XCTAssertNotNil(KnownPairs.pair(of: Self.request("/api/v1/products?culture=b&pest=a", method: .head)))
        for target in [
            "/api/v1/products?pest=a",  // a pest alone: listed by SQL
            "/api/v1/products?culture=b",
            "/api/v1/products?pest=a&culture=",
            "/api/v1/products?pest=a&culture=b&perPage=101",  // more rows than a cheap page reads
            "/api/v1/products?pest=a&culture=b&perPage=x",
            "/api/v1/products?pest=a&culture=b&page=0",
            "/api/v1/products?pest=a&culture=b&all=true",
            "/api/v1/products?pest=a&culture=b&letters=true",
            "/api/v1/products?pest=a&culture=b&substance=c",
            "/api/v1/products?pest=a&culture=b&pest=c",
            "/api/v1/products?pest=a&culture=b&n=1",
            "/api/v1/products?pest=" + String(repeating: "x", count: 201) + "&culture=b",
            "/api/v1/uses?pest=a&culture=b",
            "/products?pest=a&culture=b",
        ] {
            XCTAssertNil(KnownPairs.pair(of: Self.request(target)), target)
        }
        XCTAssertNil(KnownPairs.pair(of: Self.request("/api/v1/products?pest=a&culture=b", method: .post)))
    }

    /// A pair answered once through the pool is answered without it from then on: the same
    /// bytes, and an unknown name is never run outside the pool (it stays a 404 each time).
    func testAProductsPageAnsweredWithoutThePoolIsTheSame() throws {
        let server = WebProcess()
        let catalog = WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path
        try server.start(["--catalog", catalog], web: ["--cache-mb", "0"])
        defer { server.stop() }
        let targets = [
            "/api/v1/products?culture=winter%20wheat&pest=septoria%20tritici&perPage=5&lang=ru",
            "/api/v1/products?culture=winter%20wheat&pest=septoria%20tritici&perPage=5&page=2&lang=en",
            "/api/v1/products?culture=winter%20wheat&pest=no%20such%20pest&lang=en",
        ]
        for target in targets {
            let first = try server.get(target, headers: ["Accept-Encoding": "gzip"])
            for _ in 0..<3 {
                let again = try server.get(target, headers: ["Accept-Encoding": "gzip"])
                XCTAssertEqual(again.status, first.status, target)
                XCTAssertEqual(again.body, first.body, target)
                XCTAssertEqual(again.headers.filter { $0.key != "date" }, first.headers.filter { $0.key != "date" }, target)
            }
        }
        let known = try server.get(targets[0])
        XCTAssertEqual(known.status, 200, known.body)
        XCTAssertEqual(try server.get(targets[2]).status, 404)
        // The CLI's document for the same query (the first request went through the pool).
        let cli = try server.cli([
            "--catalog", catalog, "products", "--culture", "winter wheat", "--pest", "septoria tritici", "--per-page", "5",
            "--page", "2", "--format", "json",
        ])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let english = try server.get(targets[1])
        XCTAssertEqual(english.body, cli.stdout)
    }
}
