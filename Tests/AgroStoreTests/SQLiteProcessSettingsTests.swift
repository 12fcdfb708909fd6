import AgroStore
import GRDB
import XCTest

final class SQLiteProcessSettingsTests: XCTestCase {
    /// The setting is process-wide and SQLite refuses it once started: a test process has
    /// opened connections before, so the call must leave SQLite as it is, and say so.
    func testRefusedOnceSQLiteHasStarted() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
        XCTAssertFalse(SQLiteProcessSettings.disableMemoryStatistics())
        let value = try queue.read { db in try Int.fetchOne(db, sql: "SELECT 41 + 1") }
        XCTAssertEqual(value, 42)
    }
}
