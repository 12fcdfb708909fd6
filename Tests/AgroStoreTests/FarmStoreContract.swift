import AgroDomain
import AgroStore
import Foundation
import XCTest

/// What every `FarmStore` must do, written from the protocol's documentation, and run against
/// each store (SQLite, PostgreSQL) by a test class of its own that names each behaviour.
///
/// The checks of the records themselves run the journal's engine on the bundled catalog
/// (`Database/catalog.sqlite`), with the season of `JournalSeasonTests`: a third QoI spray of
/// winter wheat breaks FRAC 11's limit of two per crop.
struct FarmStoreContract<Store: FarmStore> {
    /// A change made to the database behind the store's back, as someone with its password could.
    enum Tampering {
        /// Changes a stored revision's body.
        case updateRevision(UUID)
        /// Deletes a stored revision.
        case deleteRevision(UUID)
        /// Deletes a stored field.
        case deleteField(UUID)
    }

    let store: Store
    /// Does the tampering with SQL; throws when the database refuses it.
    let tamper: (Tampering) throws -> Void

    static var catalogPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Database/catalog.sqlite").path
    }
    /// 1 July 2026, noon UTC: the season is behind us.
    static var now: Date { Date(timeIntervalSince1970: Double(PlanDate("2026-07-01")!.day) * 86_400 + 43_200) }
    let septoria = "zymoseptoria-tritici"
    let azoxystrobin = "azoxystrobin-cyproconazole-280-sc"
    let pyraclostrobin = "pyraclostrobin-epoxiconazole-183-se"

    // MARK: Helpers

    private func farm(_ name: String) throws -> Farm {
        let farm = Farm(name: name)
        try store.addFarm(farm)
        return farm
    }

    private func field(_ name: String, id: UUID = UUID()) -> Field {
        Field(
            id: id, name: name, area: 50, culture: "winter-wheat", sown: PlanDate("2025-09-20"),
            harvest: PlanDate("2026-07-14"), writtenAt: Self.now)
    }

    private func spray(_ field: Field, _ day: String, _ product: String, _ dose: Double, id: UUID = UUID()) -> SprayRecord {
        SprayRecord(
            id: id, field: field.id, start: JournalTime(day + "T07:30")!, bbch: 37,
            products: [AppliedProduct(product: product, dose: dose, unit: "l/ha", pests: [septoria])], water: 200,
            writtenAt: Self.now)
    }

    private func sync(_ account: Account) throws -> JournalSync<Store> {
        JournalSync(
            store: store, account: account, catalog: try SQLiteCatalog(path: Self.catalogPath, maximumReaders: 1),
            locale: "en", now: Self.now)
    }

    private func numbers(_ farm: Farm) throws -> [Int64] {
        try store.changes(farm: farm.id, since: 0, limit: 10_000).map(\.sequence)
    }

    private func assertThrows<E: Error & Equatable>(
        _ expected: E, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> some Any
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? E, expected, "\(error)", file: file, line: line)
        }
    }

    // MARK: Farms, accounts, sessions

    func farmsAndLoginsAreUniqueCaseAside() throws {
        let north = try farm("North")
        let south = try farm("South")
        assertThrows(FarmError.farmNameTaken("NORTH")) { try store.addFarm(Farm(name: "NORTH")) }
        XCTAssertEqual(try store.farms(), [north, south])

        try store.addAccount(Account(login: "Anna", farm: north.id, role: .owner), passwordHash: "hash-a")
        try store.addAccount(Account(login: "boris", farm: south.id, role: .inspector), passwordHash: "hash-b")
        try store.addAccount(Account(login: "Aigul", farm: north.id, role: .agronomist), passwordHash: "hash-c")
        assertThrows(FarmError.loginTaken("ANNA")) {
            try store.addAccount(Account(login: "ANNA", farm: south.id, role: .agronomist), passwordHash: "x")
        }
        let nowhere = UUID()
        XCTAssertThrowsError(try store.addAccount(Account(login: "vera", farm: nowhere, role: .owner), passwordHash: "x")) {
            guard case .unknownFarm = $0 as? FarmError else { return XCTFail("\($0)") }
        }
        // By login, case aside: Aigul before Anna before boris.
        XCTAssertEqual(try store.accounts(farm: nil).map(\.login), ["Aigul", "Anna", "boris"])
        XCTAssertEqual(try store.accounts(farm: north.id).map(\.login), ["Aigul", "Anna"])
        XCTAssertEqual(try store.accounts(farm: south.id), [Account(login: "boris", farm: south.id, role: .inspector)])

        let credentials = try XCTUnwrap(try store.credentials(login: "aNNa"))
        XCTAssertEqual(credentials.account, Account(login: "Anna", farm: north.id, role: .owner))
        XCTAssertEqual(credentials.passwordHash, "hash-a")
        XCTAssertNil(try store.credentials(login: "vera"))

        XCTAssertTrue(try store.setPasswordHash(login: "ANNA", "hash-a2"))
        XCTAssertEqual(try store.credentials(login: "anna")?.passwordHash, "hash-a2")
        XCTAssertFalse(try store.setPasswordHash(login: "vera", "x"))
        XCTAssertTrue(try store.removeAccount(login: "BORIS"))
        XCTAssertFalse(try store.removeAccount(login: "boris"))
        XCTAssertEqual(try store.accounts(farm: nil).map(\.login), ["Aigul", "Anna"])
        // The login is free again.
        try store.addAccount(Account(login: "Boris", farm: north.id, role: .agronomist), passwordHash: "hash-d")
    }

    func sessionsExpireAndEnd() throws {
        let north = try farm("North")
        let anna = Account(login: "Anna", farm: north.id, role: .owner)
        let boris = Account(login: "Boris", farm: north.id, role: .inspector)
        try store.addAccount(anna, passwordHash: "h1")
        try store.addAccount(boris, passwordHash: "h2")
        let now = Self.now
        try store.addSession(Session(tokenDigest: "d-anna-1", login: "Anna", expires: now + 3600))
        try store.addSession(Session(tokenDigest: "d-anna-2", login: "Anna", expires: now + 7200))
        try store.addSession(Session(tokenDigest: "d-boris", login: "Boris", expires: now + 3600))

        XCTAssertEqual(try store.account(sessionDigest: "d-anna-1", now: now), anna)
        XCTAssertEqual(try store.account(sessionDigest: "d-anna-2", now: now), anna)
        XCTAssertNil(try store.account(sessionDigest: "d-unknown", now: now))
        // Valid up to its expiry, not after.
        XCTAssertEqual(try store.account(sessionDigest: "d-anna-1", now: now + 3599), anna)
        XCTAssertNil(try store.account(sessionDigest: "d-anna-1", now: now + 3601))

        try store.endSession(digest: "d-anna-1")
        XCTAssertNil(try store.account(sessionDigest: "d-anna-1", now: now))
        XCTAssertEqual(try store.account(sessionDigest: "d-anna-2", now: now), anna, "only the session signed out ends")

        XCTAssertTrue(try store.setPasswordHash(login: "anna", "h1-new"))
        XCTAssertNil(try store.account(sessionDigest: "d-anna-2", now: now), "a new password ends the sessions")
        XCTAssertEqual(try store.account(sessionDigest: "d-boris", now: now), boris)

        XCTAssertTrue(try store.removeAccount(login: "boris"))
        XCTAssertNil(try store.account(sessionDigest: "d-boris", now: now), "a removed account's sessions end")
    }

    // MARK: Numbering

    func changesAreNumberedPerFarmWithoutGaps() throws {
        let north = try farm("North")
        let south = try farm("South")
        let a = store.journal(farm: north.id)
        let b = store.journal(farm: south.id)
        XCTAssertEqual(try store.lastSequence(farm: north.id), 0)
        let field1 = field("Field 1")
        XCTAssertTrue(try a.addField(field1))
        XCTAssertTrue(try a.append(spray(field1, "2026-04-28", azoxystrobin, 0.6), findings: []))
        XCTAssertTrue(try b.addField(field("Field 1")))
        XCTAssertTrue(try a.addField(field("Field 2")))
        XCTAssertTrue(try b.addField(field("Field 2")))
        XCTAssertTrue(try a.append(spray(field1, "2026-05-14", pyraclostrobin, 1.2), findings: []))

        XCTAssertEqual(try numbers(north), [1, 2, 3, 4])
        XCTAssertEqual(try numbers(south), [1, 2])
        XCTAssertEqual(try store.lastSequence(farm: north.id), 4)
        XCTAssertEqual(try store.lastSequence(farm: south.id), 2)
        let kinds = try store.changes(farm: north.id, since: 0, limit: 10).map { change -> String in
            switch change.change {
            case let .field(field): return "field " + field.name
            case let .record(record): return "record " + record.start.description
            }
        }
        XCTAssertEqual(kinds, ["field Field 1", "record 2026-04-28T07:30", "field Field 2", "record 2026-05-14T07:30"])
    }

    /// Writers on several threads (as several instances would): every number from 1 to the
    /// count, each once.
    func concurrentWritesTakeEveryNumberOnce() throws {
        let north = try farm("North")
        let journal = store.journal(farm: north.id)
        let base = field("Field 1")
        XCTAssertTrue(try journal.addField(base))
        let writers = 4, each = 15
        let plans: [[JournalChange]] = (0..<writers).map { writer in
            (0..<each).map { index in
                index % 5 == 4
                    ? .field(field("Field \(writer)-\(index)")) : .record(spray(base, "2026-05-\(10 + index)", azoxystrobin, 0.6))
            }
        }
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for change in plans[writer] {
                do {
                    switch change {
                    case let .field(field): _ = try journal.addField(field)
                    case let .record(record): _ = try journal.append(record, findings: [])
                    }
                } catch { failures.add("\(error)") }
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(try numbers(north), Array(1...Int64(1 + writers * each)))
        XCTAssertEqual(try store.lastSequence(farm: north.id), Int64(1 + writers * each))
    }

    /// Writers at once, gathered into shared transactions: revisions of the same records, one
    /// revision sent by every writer, a spray on a field the farm does not have. Each is answered
    /// as it would be alone, and the numbers stay whole.
    func writesAtOnceAreAnsweredEachAsAlone() throws {
        let north = try farm("North")
        let journal = store.journal(farm: north.id)
        let base = field("Field 1")
        XCTAssertTrue(try journal.addField(base))
        let records = (0..<3).map { spray(base, "2026-05-1\($0)", azoxystrobin, 0.6) }
        for record in records { XCTAssertTrue(try journal.append(record, findings: [])) }
        let writers = 6
        let elsewhere = spray(field("Nowhere"), "2026-05-20", azoxystrobin, 0.6)
        let answers = FailureList()
        DispatchQueue.concurrentPerform(iterations: writers) { _ in
            var attempts: [(SprayRecord, String)] = records.map { record in
                var revision = record
                revision.revision = UUID()
                revision.revises = record.revision
                revision.products[0].dose = 0.7
                return (revision, "stored")
            }
            attempts.append((records[0], "again"))
            var unknown = elsewhere
            unknown.revision = UUID()
            attempts.append((unknown, "unknown field"))
            for (record, expected) in attempts {
                do {
                    let answer = try journal.append(record, findings: []) ? "stored" : "again"
                    answers.add(answer == expected ? "right" : "\(answer), not \(expected)")
                } catch JournalError.unknownField {
                    answers.add(expected == "unknown field" ? "right" : "unknown field")
                } catch {
                    answers.add("\(error)")
                }
            }
        }
        XCTAssertEqual(answers.all, Array(repeating: "right", count: writers * 5))
        XCTAssertEqual(try numbers(north), Array(1...Int64(1 + 3 + writers * 3)))
        for record in records {
            XCTAssertEqual(try journal.history(record: record.id).map(\.number), Array(1...(1 + writers)))
        }
    }

    func aChangeSentTwiceIsStoredOnce() throws {
        let north = try farm("North")
        let journal = store.journal(farm: north.id)
        let field1 = field("Field 1")
        XCTAssertTrue(try journal.addField(field1))
        XCTAssertFalse(try journal.addField(field1), "the same field id again: left as it is")
        var renamed = field1
        renamed.name = "Field 1 renamed"
        XCTAssertFalse(try journal.addField(renamed), "an id stored already is never rewritten")
        let record = spray(field1, "2026-04-28", azoxystrobin, 0.6)
        XCTAssertTrue(try journal.append(record, findings: []))
        XCTAssertFalse(try journal.append(record, findings: []))

        XCTAssertEqual(try numbers(north), [1, 2], "no number used by the second sending")
        XCTAssertEqual(try journal.fields().map(\.name), ["Field 1"])
        XCTAssertEqual(try journal.history(record: record.id).count, 1)
        XCTAssertEqual(
            try store.sequences(farm: north.id, of: [field1.id, record.revision]), [field1.id: 1, record.revision: 2])

        // A third writing, after a revision, still keeps one row and its first number.
        var revision = record
        revision.revision = UUID()
        revision.products[0].dose = 0.7
        revision.revises = record.revision
        XCTAssertTrue(try journal.append(revision, findings: []))
        XCTAssertFalse(try journal.append(record, findings: []))
        XCTAssertEqual(try store.sequences(farm: north.id, of: [record.revision, revision.revision]).values.sorted(), [2, 3])
        XCTAssertEqual(try journal.history(record: record.id).map(\.number), [1, 2])
        XCTAssertEqual(try journal.history(record: record.id).map(\.record.products[0].dose), [0.6, 0.7])
        XCTAssertEqual(try journal.records(field: nil).map(\.record.revision), [revision.revision], "the latest revision")
    }

    func fieldNamesAreUniquePerFarmCaseAside() throws {
        let north = try farm("North")
        let south = try farm("South")
        let a = store.journal(farm: north.id)
        XCTAssertTrue(try a.addField(field("Field 7")))
        assertThrows(JournalError.fieldNameTaken("FIELD 7")) { try a.addField(field("FIELD 7")) }
        XCTAssertTrue(try store.journal(farm: south.id).addField(field("field 7")), "another farm's name is its own")
        XCTAssertEqual(try numbers(north), [1], "a refused field takes no number")
    }

    // MARK: Isolation

    func farmsSeeOnlyTheirOwnJournal() throws {
        let north = try farm("North")
        let south = try farm("South")
        let a = store.journal(farm: north.id)
        let b = store.journal(farm: south.id)
        let fieldA = field("North 1")
        XCTAssertTrue(try a.addField(fieldA))
        let record = spray(fieldA, "2026-04-28", azoxystrobin, 0.6)
        XCTAssertTrue(try a.append(record, findings: []))
        XCTAssertTrue(try b.addField(field("South 1")))

        XCTAssertEqual(try b.fields().map(\.name), ["South 1"])
        XCTAssertEqual(try b.records(field: nil), [])
        XCTAssertEqual(try b.records(field: fieldA.id), [])
        XCTAssertEqual(try b.sprays(field: fieldA.id), [])
        XCTAssertNil(try b.revision(record.revision))
        XCTAssertEqual(try b.history(record: record.id), [])
        XCTAssertEqual(try b.recordIDs(prefix: String(record.id.uuidString.prefix(6))), [])
        XCTAssertEqual(try a.recordIDs(prefix: String(record.id.uuidString.lowercased().prefix(6))), [record.id])
        XCTAssertEqual(try store.changes(farm: south.id, since: 0, limit: 100).map(\.change.id), [try b.fields()[0].id])
        XCTAssertEqual(try store.sequences(farm: south.id, of: [fieldA.id, record.revision]), [:])

        // Farm B's device sends a record for farm A's field: refused whole, nothing stored.
        let southOwner = Account(login: "sasha", farm: south.id, role: .owner)
        XCTAssertThrowsError(try sync(southOwner).apply([.record(spray(fieldA, "2026-05-01", azoxystrobin, 0.6))])) {
            guard case .malformedChange(position: 1, _) = $0 as? FarmError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try numbers(south), [1])
        XCTAssertEqual(try numbers(north), [1, 2])

        // A field of B's with A's field's id (a device copying ids) is B's own: A's stays as it was.
        _ = try? b.addField(field("Copied", id: fieldA.id))
        XCTAssertEqual(try a.fields(), [fieldA])
        XCTAssertFalse(try b.fields().contains(fieldA), "B never sees A's field")
    }

    // MARK: Reading the changes

    func changesArePagedAndFindSequencesByID() throws {
        let north = try farm("North")
        let journal = store.journal(farm: north.id)
        let field1 = field("Field 1")
        XCTAssertTrue(try journal.addField(field1))
        var records: [SprayRecord] = []
        for day in ["2026-04-28", "2026-05-05", "2026-05-12", "2026-05-19"] {
            records.append(spray(field1, day, azoxystrobin, 0.6))
            XCTAssertTrue(try journal.append(records.last!, findings: []))
        }
        XCTAssertEqual(try store.changes(farm: north.id, since: 0, limit: 2).map(\.sequence), [1, 2])
        XCTAssertEqual(try store.changes(farm: north.id, since: 2, limit: 2).map(\.sequence), [3, 4])
        XCTAssertEqual(try store.changes(farm: north.id, since: 4, limit: 2).map(\.sequence), [5])
        XCTAssertEqual(try store.changes(farm: north.id, since: 5, limit: 2), [])
        XCTAssertEqual(try store.changes(farm: north.id, since: 1, limit: 1).map(\.change), [.record(records[0])])

        let ids = [records[2].revision, field1.id, UUID(), records[0].revision]
        XCTAssertEqual(
            try store.sequences(farm: north.id, of: ids), [records[2].revision: 4, field1.id: 1, records[0].revision: 2],
            "an id that is not stored has no number")
        XCTAssertEqual(try store.sequences(farm: north.id, of: []), [:])

        let owner = Account(login: "anna", farm: north.id, role: .owner)
        let page = try sync(owner).changes(since: 1, limit: 3)
        XCTAssertEqual(page.changes.map(\.sequence), [2, 3, 4])
        XCTAssertEqual(page.last, 5)
        XCTAssertTrue(page.more)
        XCTAssertFalse(try sync(owner).changes(since: 4).more)
        assertThrows(FarmError.sinceBeyondLast(since: 6, last: 5)) { try sync(owner).changes(since: 6) }
    }

    // MARK: Append-only

    func theJournalIsAppendOnly() throws {
        let north = try farm("North")
        let journal = store.journal(farm: north.id)
        let field1 = field("Field 1")
        XCTAssertTrue(try journal.addField(field1))
        let record = spray(field1, "2026-04-28", azoxystrobin, 0.6)
        XCTAssertTrue(try journal.append(record, findings: []))

        XCTAssertThrowsError(try tamper(.updateRevision(record.revision)), "a revision is never changed")
        XCTAssertThrowsError(try tamper(.deleteRevision(record.revision)), "a revision is never deleted")
        XCTAssertThrowsError(try tamper(.deleteField(field1.id)), "a field is never deleted")
        XCTAssertEqual(try journal.history(record: record.id).map(\.record), [record])
        XCTAssertEqual(try journal.fields(), [field1])
        XCTAssertEqual(try numbers(north), [1, 2])
    }

    // MARK: Sync end to end

    func syncStoresABatchOnceAndAllOrNothing() throws {
        let north = try farm("North")
        let anna = Account(login: "anna", farm: north.id, role: .agronomist)
        let field7 = field("Field 7")
        let batch: [JournalChange] = [
            .field(field7), .record(spray(field7, "2026-04-28", azoxystrobin, 0.6)),
            .record(spray(field7, "2026-05-14", pyraclostrobin, 1.2)),
            .record(spray(field7, "2026-05-30", azoxystrobin, 0.7)),
        ]

        // A malformed third change (a dose of 0): refused with its position, nothing stored.
        var broken = batch
        broken[2] = .record(spray(field7, "2026-05-14", pyraclostrobin, 0))
        XCTAssertThrowsError(try sync(anna).apply(broken)) {
            guard case .malformedChange(position: 3, _) = $0 as? FarmError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try store.lastSequence(farm: north.id), 0)
        XCTAssertEqual(try store.journal(farm: north.id).fields(), [])

        let first = try sync(anna).apply(batch)
        XCTAssertEqual(first.map(\.id), batch.map(\.id))
        XCTAssertEqual(first.map(\.sequence), [1, 2, 3, 4])
        XCTAssertEqual(first.map(\.stored), [true, true, true, true])
        // The third QoI spray of the crop: FRAC 11 allows two.
        XCTAssertEqual(first.map(\.errors), [0, 0, 0, 1])

        // Sent again (the answer was lost): the same numbers, nothing stored twice.
        let again = try sync(anna).apply(batch)
        XCTAssertEqual(again.map(\.sequence), [1, 2, 3, 4])
        XCTAssertEqual(again.map(\.stored), [false, false, false, false])
        XCTAssertEqual(again.map(\.errors), [0, 0, 0, 1])
        XCTAssertEqual(try store.lastSequence(farm: north.id), 4)

        // Cut off after two changes, then sent whole with one more: the new one gets 5.
        let more = batch + [.record(spray(field7, "2026-06-01", pyraclostrobin, 1.2))]
        XCTAssertEqual(try sync(anna).apply(Array(more.prefix(2))).map(\.stored), [false, false])
        XCTAssertEqual(try sync(anna).apply(more).map(\.sequence), [1, 2, 3, 4, 5])

        // What another device fetches: the changes as written, the findings with their kinds.
        let page = try sync(Account(login: "office", farm: north.id, role: .inspector)).changes(since: 0)
        XCTAssertEqual(page.changes.map(\.change), more)
        XCTAssertEqual(page.changes.map(\.sequence), [1, 2, 3, 4, 5])
        let qoi = try XCTUnwrap(page.changes[3].findings.first { $0.severity == .error })
        XCTAssertEqual(qoi.rule, .resistance)
        guard case let .groupApplications(group, count, limit) = qoi.kind else { return XCTFail("\(qoi)") }
        XCTAssertEqual([group.scheme, group.group], ["FRAC", "11"])
        XCTAssertEqual([count, limit], [3, 2])
        XCTAssertEqual(page.changes[0].findings, [], "a field has no findings")
        let stored = try store.journal(farm: north.id).records(field: field7.id)
        XCTAssertEqual(
            stored.map(\.record.start.date), ["2026-04-28", "2026-05-14", "2026-05-30", "2026-06-01"].map { PlanDate($0)! })
        XCTAssertEqual(stored.prefix(3).map(\.errors), [0, 0, 1])
        // The limit's error belongs to the first spray over it (the season's third QoI), and stays there.
        XCTAssertFalse(stored[3].findings.contains { if case .groupApplications = $0.kind { true } else { false } })

        // An inspector reads but does not write.
        XCTAssertThrowsError(try sync(Account(login: "office", farm: north.id, role: .inspector)).apply([])) {
            XCTAssertEqual($0 as? FarmError, .notAllowed(role: .inspector))
        }
    }
}

/// Errors collected from several threads.
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
