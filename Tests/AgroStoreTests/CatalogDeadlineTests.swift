import AgroDomain
import Dispatch
import GRDB
import XCTest

@testable import AgroStore

/// A deadline set for a piece of work stops its catalog reads, even one statement that would
/// run for ever; without one, reads run as before. And a search is refused past its size.
final class CatalogDeadlineTests: StoreTestCase {
    func testAPassedDeadlineStopsReads() throws {
        XCTAssertThrowsError(
            try CatalogDeadline.$current.withValue(DispatchTime.now().uptimeNanoseconds) {
                try catalog.search("wheat", kinds: nil, page: .all, locale: "en")
            }
        ) { XCTAssertTrue($0 is CatalogDeadline.Exceeded, "\($0)") }
        XCTAssertFalse(try catalog.search("wheat", kinds: nil, page: .all, locale: "en").items.isEmpty)
    }

    func testARunawayStatementIsInterruptedAtTheDeadline() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        XCTAssertThrowsError(
            try CatalogDeadline.within(seconds: 0.3) {
                try catalog.read { db in
                    // Counts for ever: only the interruption ends it.
                    try Int.fetchOne(
                        db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
                }
            }
        ) { XCTAssertTrue($0 is CatalogDeadline.Exceeded, "\($0)") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        XCTAssertLessThan(seconds, 10, "interrupted after \(seconds) s")
        // The connection is usable again afterwards.
        XCTAssertEqual(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT 1") }, 1)
    }

    func testASearchTakesAtMostTenWords() throws {
        let eleven = (1...11).map { "w\($0)" }.joined(separator: " ")
        XCTAssertThrowsError(try catalog.search(eleven, kinds: nil, page: .all, locale: "en")) { error in
            XCTAssertEqual(error as? SearchQueryError, SearchQueryError(maximumWords: 10, maximumLength: 200))
        }
        XCTAssertThrowsError(try catalog.search(String(repeating: "x", count: 201), kinds: nil, page: .all, locale: "en"))
        XCTAssertNoThrow(
            try catalog.search((1...10).map { "w\($0)" }.joined(separator: " "), kinds: nil, page: .all, locale: "en"))
    }
}
