import AgroDomain
import Foundation
import XCTest

@testable import AgroStore

/// The two implementations behind `compareUses` and the products of a pest on a culture, on
/// one catalog file: read by SQL alone (a one-shot query's catalog) and answered from the uses
/// kept in memory (a server's, after `keepIndexes()`). The suites that use it run the same
/// assertions on both.
enum KeptAndRead {
    /// The catalog at `path` opened twice: by SQL, then with its uses kept.
    static func both(_ path: String) throws -> [(name: String, catalog: SQLiteCatalog)] {
        let read = try SQLiteCatalog(path: path, maximumReaders: 1)
        let kept = try SQLiteCatalog(path: path, maximumReaders: 1)
        try kept.keepIndexes()
        return [("by SQL", read), ("kept in memory", kept)]
    }

    /// Fails unless the first implementation still keeps nothing and the second keeps the
    /// uses: otherwise a suite would run one implementation twice.
    static func checkBothRan(_ implementations: [(name: String, catalog: SQLiteCatalog)]) {
        XCTAssertNil(implementations[0].catalog.useIndexOnce.keptValue, "the SQL implementation read the uses into memory")
        XCTAssertNotNil(implementations[1].catalog.useIndexOnce.keptValue, "the uses were not kept")
    }
}
