import AgroTestSupport
import Foundation
import XCTest

/// `agro journal sync` between real processes: two devices (each its own user data) and one
/// `agro web --farm-journal`; a server killed with SIGKILL in the middle of a stream of syncs.
/// Expected counts written by hand from what each device wrote.
final class FarmSyncTests: XCTestCase {
    private var server: WebProcess!

    override func setUpWithError() throws {
        server = WebProcess(extraEnvironment: ["AGRO_BCRYPT_COST": "4"])
        XCTAssertEqual(try server.cli(["farms", "add", "Kamenka"]).status, 0)
        let added = try server.cli(
            ["users", "add", "anna", "--farm", "Kamenka", "--role", "agronomist"],
            extraEnvironment: ["AGRO_PASSWORD": "pass-anna-1"])
        XCTAssertEqual(added.status, 0, added.stderr)
        try server.start(web: ["--farm-journal"])
    }

    override func tearDown() { server = nil }

    private func sync(_ device: WebProcess, password: String = "pass-anna-1", port: Int? = nil) throws -> WebProcess.CLIResult {
        try device.cli(
            ["journal", "sync", "--server", "http://127.0.0.1:\(port ?? server.port)", "--user", "anna"],
            extraEnvironment: ["AGRO_PASSWORD": password])
    }

    private func records(_ device: WebProcess) throws -> [[String: Any]] {
        let list = try device.cli(["journal", "list", "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8))
        return (object as? [String: Any])?["items"] as? [[String: Any]] ?? object as? [[String: Any]] ?? []
    }

    func testTwoDevicesShareTheFarmsJournal() throws {
        let first = WebProcess(), second = WebProcess()
        XCTAssertEqual(
            try first.cli(["field", "add", "Field 7", "--area", "50", "--culture", "winter wheat", "--harvest", "2026-07-14"])
                .status, 0)
        // The worked season's first three sprays; the third breaks the FRAC 11 limit.
        for (date, stage, product, dose) in [
            ("2026-04-28", "32", "azoxystrobin-cyproconazole-280-sc", "0.6"),
            ("2026-05-14", "37", "pyraclostrobin-epoxiconazole-183-se", "1.2"),
            ("2026-05-30", "49", "azoxystrobin-cyproconazole-280-sc", "0.7"),
        ] {
            let written = try first.cli(
                ["journal", "add", "--field", "Field 7", "--date", date, "--stage", stage, "--product", product, "--dose", dose])
            XCTAssertTrue([0, 20].contains(written.status), written.stderr)
        }
        let sent = try sync(first)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        // One field and three records went; nothing came back that the device did not have.
        XCTAssertTrue(sent.stdout.contains("sent: 4; received: 0"), sent.stdout)
        XCTAssertTrue(sent.stdout.contains("up to number 4"), sent.stdout)

        let fetched = try sync(second)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("sent: 0; received: 4"), fetched.stdout)
        let seen = try records(second)
        XCTAssertEqual(seen.map { $0["bbch"] as? Int }, [32, 37, 49])
        XCTAssertEqual(seen.map { $0["errors"] as? Int }, [0, 0, 1])

        // The second device writes a fourth spray; the first fetches it, and nothing twice.
        let fourth = try second.cli(
            [
                "journal", "add", "--field", "Field 7", "--date", "2026-06-15", "--stage", "59", "--product",
                "prothioconazole-tebuconazole-250-ec", "--dose", "0.8",
            ])
        XCTAssertTrue([0, 20].contains(fourth.status), fourth.stderr)
        XCTAssertTrue(try sync(second).stdout.contains("sent: 1; received: 0"))
        XCTAssertTrue(try sync(first).stdout.contains("sent: 0; received: 1"))
        XCTAssertEqual(try records(first).map { $0["bbch"] as? Int }, [32, 37, 49, 59])

        // A wrong password: exit 100 and the server's words; the server down: exit 103, and
        // what was written offline stays and goes next time.
        let refused = try sync(first, password: "not-the-password")
        XCTAssertEqual(refused.status, 100, refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        let port = server.port
        server.stop()
        let offline = try first.cli(
            [
                "journal", "add", "--field", "Field 7", "--date", "2026-06-20", "--stage", "61", "--product",
                "prothioconazole-tebuconazole-250-ec", "--dose", "0.8",
            ])
        XCTAssertTrue([0, 20].contains(offline.status), offline.stderr)
        let unreachable = try sync(first, port: port)
        XCTAssertEqual(unreachable.status, 103, unreachable.stderr)
        try server.start(web: ["--farm-journal"])
        let later = try sync(first)
        XCTAssertTrue(later.stdout.contains("sent: 1; received: 0"), later.stdout + later.stderr)
        XCTAssertTrue(try sync(second).stdout.contains("received: 1"))
        XCTAssertEqual(try records(second).count, 5)
    }

    /// A stream of syncs, each one new field, while the server is killed with SIGKILL: every
    /// change the server acknowledged is there after a restart, each once, numbered 1, 2, ...
    func testAcknowledgedChangesSurviveSIGKILL() throws {
        try syncsSurviveSIGKILL(web: ["--farm-journal"])
    }

    /// The same on PostgreSQL (a cluster of the test's own): the instance killed, the store not.
    func testAcknowledgedChangesSurviveSIGKILLOnPostgreSQL() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let url = try serve(on: cluster)
        try syncsSurviveSIGKILL(web: ["--journal-db", url])
    }

    /// The farm's store turned read-only under a running instance (PostgreSQL refusing writes,
    /// as after a fail-over to a standby or on a full disk): a device's sync ends with one line
    /// and exit 103, the device keeps the record it could not send, the store keeps what it had,
    /// and once the store takes writes again the record goes, without restarting agro.
    func testAReadOnlyStoreRefusesCleanlyAndTheDeviceKeepsItsRecord() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let url = try serve(on: cluster)
        let database = PostgresCluster.database(of: url)
        let device = WebProcess()
        XCTAssertEqual(
            try device.cli(["field", "add", "Field 7", "--area", "50", "--culture", "winter wheat"]).status, 0)
        func spray(_ date: String, _ stage: String) throws {
            let written = try device.cli(
                [
                    "journal", "add", "--field", "Field 7", "--date", date, "--stage", stage, "--product",
                    "prothioconazole-tebuconazole-250-ec", "--dose", "0.8",
                ])
            XCTAssertTrue([0, 20].contains(written.status), written.stderr)
        }
        try spray("2026-05-14", "37")
        XCTAssertTrue(try sync(device).stdout.contains("sent: 2; received: 0"))
        try spray("2026-06-15", "59")

        // Read-only for every transaction from now on, the instance's open connections included.
        func readOnly(_ on: Bool) throws {
            try cluster.psql(
                on ? "ALTER SYSTEM SET default_transaction_read_only = on" : "ALTER SYSTEM RESET default_transaction_read_only",
                database: database, superuser: true)
            try cluster.psql("SELECT pg_reload_conf()", database: database, superuser: true)
        }
        try readOnly(true)
        let refused = try sync(device)
        XCTAssertEqual(refused.status, 103, refused.stdout + refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertEqual(try records(device).count, 2, "the device keeps the record it could not send")
        XCTAssertEqual(
            try cluster.psql("SELECT count(*) FROM spray_record", database: database, superuser: true)
                .trimmingCharacters(in: .whitespacesAndNewlines), "1")

        try readOnly(false)
        let sent = try sync(device)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("sent: 1; received: 0"), sent.stdout)
        XCTAssertTrue(try sync(WebProcess()).stdout.contains("received: 3"), "the field and both records")
    }

    /// The server restarted on a new database of `cluster`, with the farm and its agronomist;
    /// the database's URL.
    private func serve(on cluster: PostgresCluster) throws -> String {
        let url = try cluster.createDatabase()
        server.stop()
        XCTAssertEqual(try server.cli(["farms", "add", "Kamenka", "--journal-db", url]).status, 0)
        XCTAssertEqual(
            try server.cli(
                ["users", "add", "anna", "--farm", "Kamenka", "--role", "agronomist", "--journal-db", url],
                extraEnvironment: ["AGRO_PASSWORD": "pass-anna-1"]
            ).status, 0)
        try server.start(web: ["--journal-db", url])
        return url
    }

    private func syncsSurviveSIGKILL(web: [String]) throws {
        let signIn = try server.exchange(
            "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
            body: Data(#"{"user": "anna", "password": "pass-anna-1"}"#.utf8))
        let cookie = try XCTUnwrap(signIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let acknowledged = LockedIDs()
        // Only `exchange` is used from the thread, before the server is restarted.
        nonisolated(unsafe) let server = self.server!
        let writer = Thread {
            for index in 0..<100_000 {
                let id = UUID().uuidString
                let body =
                    #"{"changes": [{"kind": "field", "field": {"id": "\#(id)", "name": "F\#(index)", "area": 1, "culture": "winter-wheat", "writtenAt": 0}}]}"#
                guard
                    let answer = try? server.exchange(
                        "POST", "/api/v1/sync", headers: ["Content-Type": "application/json", "Cookie": cookie],
                        body: Data(body.utf8))
                else { return }
                if answer.status == 200 { acknowledged.add(id) } else { return }
            }
        }
        writer.start()
        // Long enough for some hundreds of writes, at a moment the test does not choose.
        Thread.sleep(forTimeInterval: 1.5 + Double.random(in: 0...1))
        let pid = try XCTUnwrap(server.process?.processIdentifier)
        kill(pid, SIGKILL)
        server.process?.waitUntilExit()
        while writer.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
        let written = acknowledged.ids
        XCTAssertGreaterThan(written.count, 10)

        try server.start(web: web)
        XCTAssertEqual(
            try server.exchange(
                "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
                body: Data(#"{"user": "anna", "password": "pass-anna-1"}"#.utf8)
            ).status, 200)
        let again = try server.exchange(
            "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
            body: Data(#"{"user": "anna", "password": "pass-anna-1"}"#.utf8))
        let fresh = try XCTUnwrap(again.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        var ids: [String] = [], sequences: [Int] = [], since = 0
        while true {
            let page = try XCTUnwrap(
                try server.get("/api/v1/sync?since=\(since)", headers: ["Cookie": fresh]).json as? [String: Any])
            let changes = page["changes"] as? [[String: Any]] ?? []
            for change in changes {
                sequences.append(change["sequence"] as? Int ?? -1)
                ids.append(((change["change"] as? [String: Any])?["field"] as? [String: Any])?["id"] as? String ?? "")
            }
            since = sequences.last ?? since
            if page["more"] as? Bool != true { break }
        }
        XCTAssertEqual(sequences, (0..<sequences.count).map { $0 + 1 })
        XCTAssertEqual(Set(ids).count, ids.count, "a change stored twice")
        let missing = written.subtracting(ids.map { $0.uppercased() })
        XCTAssertTrue(missing.isEmpty, "\(missing.count) acknowledged changes lost")
    }
}

/// The ids the server acknowledged, written by the writer thread, read by the test.
private final class LockedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var set = Set<String>()

    func add(_ id: String) { lock.withLock { _ = set.insert(id.uppercased()) } }
    var ids: Set<String> { lock.withLock { set } }
}
