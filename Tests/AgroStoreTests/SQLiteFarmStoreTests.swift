import AgroDomain
import AgroStore
import Foundation
import GRDB
import XCTest

/// The farm store's contract on SQLite: a new farm database in a temporary folder for each test.
final class SQLiteFarmStoreTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("journal.sqlite").path }
    private var store: SQLiteFarmStore!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-farm-\(UUID())")
        store = try SQLiteFarmStore(path: path)
    }

    override func tearDownWithError() throws {
        store = nil
        try? FileManager.default.removeItem(at: directory)
    }

    private var contract: FarmStoreContract<SQLiteFarmStore> {
        FarmStoreContract(store: store) { [path] tampering in
            // Another connection to the file, as the sqlite3 shell would open it.
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                switch tampering {
                case let .updateRevision(id):
                    try db.execute(sql: "UPDATE sprayRecord SET body = '{}' WHERE revision = ?", arguments: [id.uuidString])
                case let .deleteRevision(id):
                    try db.execute(sql: "DELETE FROM sprayRecord WHERE revision = ?", arguments: [id.uuidString])
                case let .deleteField(id):
                    try db.execute(sql: "DELETE FROM field WHERE id = ?", arguments: [id.uuidString])
                }
            }
        }
    }

    func testFarmsAndLoginsAreUniqueCaseAside() throws { try contract.farmsAndLoginsAreUniqueCaseAside() }
    func testSessionsExpireAndEnd() throws { try contract.sessionsExpireAndEnd() }
    func testChangesAreNumberedPerFarmWithoutGaps() throws { try contract.changesAreNumberedPerFarmWithoutGaps() }
    func testConcurrentWritesTakeEveryNumberOnce() throws { try contract.concurrentWritesTakeEveryNumberOnce() }
    func testWritesAtOnceAreAnsweredEachAsAlone() throws { try contract.writesAtOnceAreAnsweredEachAsAlone() }
    func testAChangeSentTwiceIsStoredOnce() throws { try contract.aChangeSentTwiceIsStoredOnce() }
    func testFieldNamesAreUniquePerFarmCaseAside() throws { try contract.fieldNamesAreUniquePerFarmCaseAside() }
    func testFarmsSeeOnlyTheirOwnJournal() throws { try contract.farmsSeeOnlyTheirOwnJournal() }
    func testChangesArePagedAndFindSequencesByID() throws { try contract.changesArePagedAndFindSequencesByID() }
    func testTheJournalIsAppendOnly() throws { try contract.theJournalIsAppendOnly() }
    func testSyncStoresABatchOnceAndAllOrNothing() throws { try contract.syncStoresABatchOnceAndAllOrNothing() }
}
