import AgroDomain
import AgroPostgres
import AgroTestSupport
import Foundation
import XCTest

/// PostgreSQL stopped and restarted (`pg_ctl`) under a store in use: during the outage every
/// call fails with `FarmError.storeUnavailable` (what the web answers 503 for), and afterwards
/// the same store object works again, without being opened anew.
final class PostgresRestartTests: XCTestCase {
    private var cluster: PostgresCluster!
    private var store: PostgresFarmStore!

    override func setUpWithError() throws {
        cluster = try PostgresCluster.start()
        store = try PostgresFarmStore(url: try cluster.createDatabase(), connections: 3)
    }

    override func tearDown() {
        store?.close()
        store = nil
        cluster?.remove()
        cluster = nil
    }

    private func field(_ name: String) -> Field {
        Field(name: name, area: 10, culture: "winter-wheat", writtenAt: Date(timeIntervalSince1970: 1_780_000_000))
    }

    private func assertUnavailable(_ body: () throws -> some Any, _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try body(), message, line: line) { error in
            guard case .storeUnavailable = error as? FarmError else {
                return XCTFail("\(message): \(error)", line: line)
            }
        }
    }

    func testCallsFailDuringTheOutageAndSucceedAfterwards() throws {
        let farm = Farm(name: "North")
        try store.addFarm(farm)
        let journal = store.journal(farm: farm.id)
        XCTAssertTrue(try journal.addField(field("Field 1")))
        // Every pooled connection in use once, so that each is open when the server goes.
        let store = self.store!
        DispatchQueue.concurrentPerform(iterations: 3) { _ in _ = try? store.farms() }

        try cluster.stop()
        assertUnavailable({ try store.lastSequence(farm: farm.id) }, "a read on a connection the server closed")
        assertUnavailable({ try journal.addField(field("Field 2")) }, "a write with no server")
        assertUnavailable({ try store.farms() }, "a second read, still no server")

        try cluster.start()
        XCTAssertTrue(try journal.addField(field("Field 2")), "the same store, connected again")
        XCTAssertEqual(try store.changes(farm: farm.id, since: 0, limit: 10).map(\.sequence), [1, 2])
        XCTAssertEqual(try store.farms(), [farm])
    }

    /// Writers keep writing through two restarts. Each write is acknowledged, or refused as
    /// unavailable and sent again later (as a device keeps its unsent changes); in the end every
    /// change is stored once, numbered 1...N without a gap.
    func testWritesThroughRestartsAreStoredOnceEach() throws {
        let farm = Farm(name: "North")
        try store.addFarm(farm)
        let journal = store.journal(farm: farm.id)
        let base = field("Field 1")
        XCTAssertTrue(try journal.addField(base))

        let state = WriterState()
        let writers = DispatchGroup()
        for writer in 0..<2 {
            DispatchQueue.global().async(group: writers) {
                var index = 0
                while !state.stopped {
                    index += 1
                    let record = SprayRecord(
                        field: base.id, start: JournalTime("2026-05-01T08:00")!,
                        products: [AppliedProduct(product: "p-\(writer)-\(index)", dose: 1, unit: "l/ha")],
                        writtenAt: Date(timeIntervalSince1970: 1_780_000_000))
                    do {
                        _ = try journal.append(record, findings: [])
                        state.acknowledged(record)
                    } catch FarmError.storeUnavailable(let reason) {
                        state.reason(reason)
                        state.unsent(record)
                        usleep(20_000)
                    } catch {
                        state.failed("\(error)")
                    }
                }
            }
        }
        usleep(300_000)
        try cluster.restart()
        usleep(300_000)
        try cluster.restart()
        // Until each writer has had acknowledgements after the second restart.
        let acknowledgedBefore = state.counts.acknowledged
        let deadline = Date() + 30
        while state.counts.acknowledged < acknowledgedBefore + 10, Date() < deadline { usleep(50_000) }
        state.stop()
        writers.wait()

        XCTAssertEqual(state.failures, [], "only storeUnavailable while the server is away")
        XCTAssertGreaterThan(state.counts.acknowledged, acknowledgedBefore, "writes succeeded after the restarts")
        XCTAssertGreaterThan(state.counts.unsent, 0, "the writers met the outage")
        XCTAssertFalse(state.reasons.contains(""), "each refusal says why")
        // The unsent ones, sent again now: each stored at most once, whether or not its first
        // sending reached the server before the connection went.
        for record in state.unsentRecords { _ = try journal.append(record, findings: []) }

        let all = state.acknowledgedRecords + state.unsentRecords
        let changes = try store.changes(farm: farm.id, since: 0, limit: 100_000)
        XCTAssertEqual(changes.map(\.sequence), Array(1...Int64(1 + all.count)), "every change once, no gap")
        let stored = Set(changes.map(\.change.id))
        XCTAssertEqual(stored, Set([base.id] + all.map(\.revision)))
    }
}

/// What the writer threads saw.
private final class WriterState: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var acknowledgedList: [SprayRecord] = []
    private var unsentList: [SprayRecord] = []
    private var failureList: [String] = []
    private var reasonList: [String] = []
    func reason(_ text: String) { lock.withLock { reasonList.append(text) } }
    var reasons: [String] { lock.withLock { reasonList } }

    var stopped: Bool { lock.withLock { done } }
    func stop() { lock.withLock { done = true } }
    func acknowledged(_ record: SprayRecord) { lock.withLock { acknowledgedList.append(record) } }
    func unsent(_ record: SprayRecord) { lock.withLock { unsentList.append(record) } }
    func failed(_ text: String) { lock.withLock { failureList.append(text) } }
    var counts: (acknowledged: Int, unsent: Int) { lock.withLock { (acknowledgedList.count, unsentList.count) } }
    var acknowledgedRecords: [SprayRecord] { lock.withLock { acknowledgedList } }
    var unsentRecords: [SprayRecord] { lock.withLock { unsentList } }
    var failures: [String] { lock.withLock { failureList } }
}
