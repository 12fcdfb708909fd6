import AgroDomain
import AgroPostgres
import AgroTestSupport
import Foundation
import XCTest

/// The farm store's contract on PostgreSQL: a server of the tests' own (`PostgresCluster`), a
/// new database for each test, the store signed in as a role that is no superuser.
final class PostgresFarmStoreTests: XCTestCase {
    nonisolated(unsafe) private static var cluster: PostgresCluster?
    private var url = ""
    private var store: PostgresFarmStore!

    override func setUpWithError() throws {
        if Self.cluster == nil { Self.cluster = try PostgresCluster.start() }
        url = try Self.cluster!.createDatabase()
        store = try PostgresFarmStore(url: url)
    }

    override func tearDown() {
        store?.close()
        store = nil
    }

    override class func tearDown() {
        cluster?.remove()
        cluster = nil
    }

    private var database: String { PostgresCluster.database(of: url) }

    private var contract: FarmStoreContract<PostgresFarmStore> {
        FarmStoreContract(store: store) { [cluster = Self.cluster!, database] tampering in
            switch tampering {
            case let .updateRevision(id):
                try cluster.psql("UPDATE spray_record SET body = '{}' WHERE revision = '\(id)'", database: database)
            case let .deleteRevision(id):
                try cluster.psql("DELETE FROM spray_record WHERE revision = '\(id)'", database: database)
            case let .deleteField(id):
                try cluster.psql("DELETE FROM field WHERE id = '\(id)'", database: database)
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

    // MARK: PostgreSQL's own

    /// Fields are never rewritten either, and TRUNCATE is refused; the server's own words say why.
    func testTheServerRefusesRewritingTheJournal() throws {
        let farm = Farm(name: "North")
        try store.addFarm(farm)
        XCTAssertTrue(try store.journal(farm: farm.id).addField(Field(name: "F", area: 1, culture: "c", writtenAt: Date())))
        let cluster = try XCTUnwrap(Self.cluster)
        for sql in ["UPDATE field SET name = 'G'", "TRUNCATE spray_record", "TRUNCATE field CASCADE"] {
            XCTAssertThrowsError(try cluster.psql(sql, database: database), sql) { error in
                XCTAssertTrue("\(error)".contains("the journal keeps every revision"), "\(error)")
            }
        }
        XCTAssertEqual(try store.journal(farm: farm.id).fields().map(\.name), ["F"])
    }

    /// The schema is versioned in `schema_migration`; opening the store again migrates nothing,
    /// and a database of a newer agro is refused rather than written to.
    func testMigrationsAreRecordedAndApplyOnce() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertEqual(try cluster.psql("SELECT version FROM schema_migration ORDER BY version", database: database), "1")
        XCTAssertEqual(try store.schemaVersion().current, 1)
        XCTAssertEqual(try store.schemaVersion().latest, 1)
        let again = try PostgresFarmStore(url: url)
        defer { again.close() }
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM schema_migration", database: database), "1")

        try cluster.psql("INSERT INTO schema_migration(version, description) VALUES (7, 'from the future')", database: database)
        XCTAssertThrowsError(try PostgresFarmStore(url: url)) {
            XCTAssertEqual($0 as? PostgresStoreError, .schemaTooNew(found: 7, known: 1))
        }
    }

    /// Three stores opening one new database at once (three instances starting) migrate it once.
    func testInstancesStartingTogetherMigrateOnce() throws {
        let fresh = try XCTUnwrap(Self.cluster).createDatabase()
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do { try PostgresFarmStore(url: fresh).close() } catch { failures.add("\(error)") }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(
            try XCTUnwrap(Self.cluster).psql(
                "SELECT count(*) FROM schema_migration", database: PostgresCluster.database(of: fresh)),
            "1")
    }

    /// The values are kept as JSON text beside the columns they are searched by, as in the
    /// SQLite store, with the findings' typed kinds.
    func testValuesAreKeptAsJSONBesideTheirColumns() throws {
        let farm = Farm(name: "North")
        try store.addFarm(farm)
        let field = Field(name: "Field 7", area: 50, culture: "winter-wheat", writtenAt: Date(timeIntervalSince1970: 0))
        XCTAssertTrue(try store.journal(farm: farm.id).addField(field))
        let body = try XCTUnwrap(Self.cluster).psql("SELECT body FROM field", database: database)
        let decoded = try JSONDecoder().decode(Field.self, from: Data(body.utf8))
        XCTAssertEqual(decoded, field)
        XCTAssertTrue(body.hasPrefix("{\"area\":50,"), "sorted keys: \(body)")
        XCTAssertEqual(
            try XCTUnwrap(Self.cluster).psql("SELECT name_key || '|' || sequence FROM field", database: database), "field 7|1")
    }

    /// URLs: what a fleet's configuration writes, and what it must not.
    func testURLsAreReadAndBadOnesRefused() throws {
        let location = try PostgresLocation(url: "postgresql://agro:s3cret@db.farm.lan:6543/journal?sslmode=require")
        XCTAssertEqual(
            [location.host, String(location.port), location.user, location.password ?? "", location.database],
            ["db.farm.lan", "6543", "agro", "s3cret", "journal"])
        XCTAssertEqual(location.tls, .require)
        XCTAssertEqual(location.description, "postgresql://agro@db.farm.lan:6543/journal?sslmode=require", "no password")
        let fromEnvironment = try PostgresLocation(url: "postgres://agro@[::1]/j", environment: ["PGPASSWORD": "p"])
        XCTAssertEqual(
            [fromEnvironment.host, String(fromEnvironment.port), fromEnvironment.password ?? ""], ["::1", "5432", "p"])
        for bad in [
            "mysql://agro@h/db", "postgresql://h/db", "postgresql://agro@h", "postgresql://agro@h/",
            "postgresql://agro:pw@h/db?sslmode=sometimes", "postgresql://agro@h/db?user=x", "not a url",
        ] {
            XCTAssertThrowsError(try PostgresLocation(url: bad), bad) { error in
                guard case let .invalidURL(shown) = error as? PostgresStoreError else { return XCTFail("\(error)") }
                XCTAssertFalse(shown.contains("pw@"), "the password is not repeated: \(shown)")
            }
        }
    }

    /// A wrong password or a server nobody listens on: the store says it cannot reach it.
    func testAServerThatRefusesIsUnavailable() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertThrowsError(try PostgresFarmStore(url: url.replacingOccurrences(of: cluster.password, with: "wrong"))) {
            guard case let .storeUnavailable(reason) = $0 as? FarmError else { return XCTFail("\($0)") }
            XCTAssertTrue(reason.contains("password authentication failed"), reason)
            XCTAssertFalse(reason.contains(cluster.password))
        }
        XCTAssertThrowsError(try PostgresFarmStore(url: "postgresql://agro@127.0.0.1:1/agro")) {
            guard case .storeUnavailable = $0 as? FarmError else { return XCTFail("\($0)") }
        }
    }
}
