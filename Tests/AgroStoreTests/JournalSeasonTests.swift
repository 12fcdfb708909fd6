import AgroDomain
import Foundation
import GRDB
import XCTest

@testable import AgroStore

/// A season of winter wheat on "Field 7", written by hand from `Database/content` (uses
/// u-0109, u-0118, u-0121; the group limit frac-11-cereals: at most two QoI sprays per cereal
/// crop), checked by the journal as each spray is written, on the bundled catalog and a real
/// user database:
///
/// | # | day        | BBCH | product (registration)              | dose     | FRAC   | PHI |
/// |---|------------|------|-------------------------------------|----------|--------|-----|
/// | 1 | 2026-04-28 | 32   | azoxystrobin + cyproconazole (0028) | 0.6 l/ha | 11 + 3 | 30  |
/// | 2 | 2026-05-14 | 37   | pyraclostrobin + epoxiconazole (0030)| 1.2 l/ha | 11 + 3 | 35  |
/// | 3 | 2026-05-30 | 49   | azoxystrobin + cyproconazole (0028) | 0.7 l/ha | 11 + 3 | 30  |
/// | 4 | 2026-06-15 | 59   | prothioconazole + tebuconazole (0031)| 0.8 l/ha | 3      | 35  |
///
/// The third is the third QoI spray (an error); the fourth, 29 days before the expected harvest
/// of 14 July, breaks its 35-day interval and moves the earliest harvest to 20 July (15 June +
/// 35 days); the others allow 29 June (30 May + 30) and 18 June (14 May + 35).
final class JournalSeasonTests: XCTestCase {
    static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path
    let septoria = "zymoseptoria-tritici"
    let azoxystrobin = "azoxystrobin-cyproconazole-280-sc"
    let pyraclostrobin = "pyraclostrobin-epoxiconazole-183-se"
    let prothioconazole = "prothioconazole-tebuconazole-250-ec"
    /// 1 July 2026, noon UTC: the season is behind us.
    let now = Date(timeIntervalSince1970: Double(PlanDate("2026-07-01")!.day) * 86_400 + 43_200)

    private var directory: URL!
    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-journal-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func journal(at now: Date? = nil) throws -> Journal<UserStore> {
        Journal(
            store: try UserStore(path: directory.appendingPathComponent("user.sqlite").path),
            catalog: try SQLiteCatalog(path: Self.catalogPath, maximumReaders: 1), locale: "en", now: now ?? self.now)
    }

    private func field7(_ journal: Journal<UserStore>) throws -> Field {
        let field = Field(
            name: "Field 7", area: 50, location: FieldLocation(latitude: 51.17, longitude: 71.45), culture: "winter-wheat",
            sown: PlanDate("2025-09-20"), harvest: PlanDate("2026-07-14"), writtenAt: now)
        XCTAssertTrue(try journal.add(field))
        return field
    }

    private func spray(_ field: Field, _ day: String, _ bbch: Int, _ product: String, _ dose: Double) -> SprayRecord {
        SprayRecord(
            field: field.id, start: JournalTime(day + "T07:30")!, bbch: bbch,
            products: [AppliedProduct(product: product, dose: dose, unit: "l/ha", pests: [septoria])], water: 200,
            sprayer: "A. Serikbayev", weather: SprayWeather(wind: Reading(2.5, .measured), temperature: Reading(17, .forecast)),
            writtenAt: now)
    }

    private func rules(_ findings: [PlanFinding], _ severity: FindingSeverity) -> [PlanRule] {
        findings.filter { $0.severity == severity }.map(\.rule)
    }

    func testTheWorkedSeasonIsCheckedSprayBySpray() throws {
        let journal = try journal()
        let field = try field7(journal)

        let first = try journal.write(spray(field, "2026-04-28", 32, azoxystrobin, 0.6))
        XCTAssertEqual(first.number, 1)
        XCTAssertEqual(first.findings, [], "dose 0.5-0.75, BBCH 30-61, 77 days before harvest: nothing to say")

        // QoI twice in a row and the triazoles twice in a row, with no catalog limit on runs: advice.
        let second = try journal.write(spray(field, "2026-05-14", 37, pyraclostrobin, 1.2))
        XCTAssertEqual(second.number, 2)
        XCTAssertEqual(rules(second.findings, .error), [])
        XCTAssertEqual(rules(second.findings, .warning), [.resistance, .resistance])

        let third = try journal.write(spray(field, "2026-05-30", 49, azoxystrobin, 0.7))
        XCTAssertEqual(third.number, 3)
        XCTAssertEqual(third.errors, 1)
        let qoi = try XCTUnwrap(third.findings.first { $0.severity == .error })
        XCTAssertEqual(qoi.rule, .resistance)
        guard case let .groupApplications(group, count, limit) = qoi.kind else { return XCTFail("\(qoi)") }
        XCTAssertEqual([group.scheme, group.group], ["FRAC", "11"])
        XCTAssertEqual([count, limit], [3, 2])

        let fourth = try journal.write(spray(field, "2026-06-15", 59, prothioconazole, 0.8))
        XCTAssertEqual(fourth.number, 4)
        XCTAssertEqual(rules(fourth.findings, .error), [.preHarvestInterval])
        guard
            case let .preHarvestInterval(_, days, harvest, required) = fourth.findings.first(where: { $0.severity == .error })?
                .kind
        else { return XCTFail("\(fourth.findings)") }
        XCTAssertEqual([days, required], [29, 35])
        XCTAssertEqual(harvest, PlanDate("2026-07-14"))

        // The harvest gate: latest first.
        XCTAssertEqual(fourth.earliestHarvest, PlanDate("2026-07-20"))
        XCTAssertEqual(fourth.gates.map(\.product.id), [prothioconazole, azoxystrobin, pyraclostrobin])
        XCTAssertEqual(fourth.gates.map(\.earliest), ["2026-07-20", "2026-06-29", "2026-06-18"].map { PlanDate($0)! })
        XCTAssertEqual(fourth.gates.map(\.lastApplication), ["2026-06-15", "2026-05-30", "2026-05-14"].map { PlanDate($0)! })

        // Stored as written, marked, in spraying order.
        let stored = try journal.store.records(field: field.id)
        XCTAssertEqual(stored.map(\.errors), [0, 0, 1, 1])
        XCTAssertEqual(
            stored.map(\.record.start.description),
            ["2026-04-28", "2026-05-14", "2026-05-30", "2026-06-15"].map { $0 + "T07:30" })
        XCTAssertEqual(stored[0].record.weather.temperature?.source, .forecast, "a forecast stays a forecast")
        XCTAssertEqual(stored[0].record.weather.wind?.source, .measured)
    }

    func testARecordWrittenTwiceIsStoredOnceAndARevisionKeepsTheHistory() throws {
        let journal = try journal()
        let field = try field7(journal)
        let record = spray(field, "2026-06-15", 59, prothioconazole, 0.8)
        XCTAssertTrue(try journal.write(record).stored)
        let again = try journal.write(record)
        XCTAssertFalse(again.stored)
        XCTAssertEqual(try journal.store.records(field: nil).count, 1)
        // The same revision id with other contents is refused, nothing written.
        var other = record
        other.products[0].dose = 0.9
        XCTAssertThrowsError(try journal.write(other)) { XCTAssertEqual($0 as? JournalError, .revisionConflict(record.revision)) }

        // Three days on, a correction needs a reason.
        let later = try self.journal(at: now.addingTimeInterval(3 * 86_400))
        var corrected = record
        corrected.revision = UUID()
        corrected.start = JournalTime("2026-06-05T07:30")!
        corrected.writtenAt = later.now
        XCTAssertThrowsError(try later.write(corrected)) { XCTAssertEqual($0 as? JournalError, .reasonRequired(hours: 48)) }
        corrected.reason = "the date was copied from the next field"
        let check = try later.write(corrected)
        // 5 June + 35 days = 10 July: the expected harvest on 14 July keeps it.
        XCTAssertEqual(check.earliestHarvest, PlanDate("2026-07-10"))
        XCTAssertEqual(check.errors, 0)
        let history = try later.history(String(record.id.uuidString.prefix(8)))
        XCTAssertEqual(history.map(\.number), [1, 2])
        XCTAssertEqual(history.map(\.record.start.description), ["2026-06-15T07:30", "2026-06-05T07:30"])
        XCTAssertEqual(history[0].errors, 1, "the first revision keeps what was found then")
        XCTAssertEqual(try later.store.records(field: nil).map(\.number), [2])
    }

    func testBadRecordsAreRefusedAndNothingIsWritten() throws {
        let journal = try journal()
        let field = try field7(journal)
        func refused(_ record: SprayRecord, _ expected: JournalError, line: UInt = #line) {
            XCTAssertThrowsError(try journal.write(record), line: line) {
                XCTAssertEqual($0 as? JournalError, expected, line: line)
            }
        }
        // 1 July is today: 2 July is within a day's grace, 3 July is not.
        XCTAssertNoThrow(try journal.check(spray(field, "2026-07-02", 59, prothioconazole, 0.8)))
        refused(
            spray(field, "2026-07-03", 59, prothioconazole, 0.8),
            .dateInFuture(date: PlanDate("2026-07-03")!, today: PlanDate("2026-07-01")!))
        refused(spray(field, "2026-06-15", 59, prothioconazole, 0), .doseNotPositive(product: 1))
        refused(spray(field, "2026-06-15", 59, prothioconazole, .nan), .doseNotPositive(product: 1))
        refused(spray(field, "2026-06-15", 120, prothioconazole, 0.8), .stageOutOfRange(120))
        var unknown = spray(field, "2026-06-15", 59, prothioconazole, 0.8)
        unknown.field = UUID()
        refused(unknown, .unknownField(unknown.field.uuidString.lowercased()))
        var tooLarge = spray(field, "2026-06-15", 59, prothioconazole, 0.8)
        tooLarge.area = 60
        refused(tooLarge, .areaLargerThanField(treated: 60, field: 50))
        var windy = spray(field, "2026-06-15", 59, prothioconazole, 0.8)
        windy.weather.humidity = Reading(140, .measured)
        refused(windy, .readingOutOfRange(quantity: "humidity", value: 140))
        XCTAssertEqual(try journal.store.records(field: nil).count, 0)
        // A second field of the same name, case aside.
        let twin = Field(name: "field 7", area: 10, culture: "winter-wheat", writtenAt: now)
        XCTAssertThrowsError(try journal.add(twin)) { XCTAssertEqual($0 as? JournalError, .fieldNameTaken("field 7")) }
        XCTAssertEqual(try journal.store.fields().count, 1)
    }

    /// The journal is append-only below the program too: SQLite refuses to change or delete a
    /// stored revision.
    func testStoredRevisionsCannotBeChangedOrDeleted() throws {
        let journal = try journal()
        let field = try field7(journal)
        _ = try journal.write(spray(field, "2026-06-15", 59, prothioconazole, 0.8))
        for sql in ["UPDATE sprayRecord SET errors = 0", "DELETE FROM sprayRecord", "DELETE FROM field"] {
            XCTAssertThrowsError(try journal.store.queue.write { try $0.execute(sql: sql) }, sql)
        }
        XCTAssertEqual(try journal.store.records(field: nil).map(\.errors), [1])
    }

    /// A user database that can take no more (full, or read-only) refuses the record in one
    /// line naming the file, and keeps what it had.
    func testAFullDatabaseRefusesTheRecordAndKeepsWhatItHad() throws {
        let journal = try journal()
        let field = try field7(journal)
        _ = try journal.write(spray(field, "2026-04-28", 32, azoxystrobin, 0.6))
        // No page beyond those in use: the next append cannot grow the file.
        try journal.store.queue.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let big = SprayRecord(
            field: field.id, start: JournalTime("2026-05-14")!,
            products: [AppliedProduct(product: pyraclostrobin, dose: 1.2, unit: "l/ha")],
            notes: String(repeating: "n", count: 200_000), writtenAt: now)
        XCTAssertThrowsError(try journal.write(big)) { error in
            guard case let .cannotWrite(path, _)? = error as? UserStoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("user.sqlite"), path)
        }
        XCTAssertEqual(try journal.store.records(field: nil).count, 1)
        XCTAssertTrue(try journal.store.history(record: big.id).isEmpty)
    }
}
