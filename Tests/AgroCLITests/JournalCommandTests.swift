import Foundation
import XCTest

/// The journal from the command line, as a person uses it: a field, the worked season of
/// `JournalSeasonTests` (winter wheat, the third QoI spray, the late fungicide), what each
/// command prints in the person's language, exit statuses, and the export's columns. Every
/// expectation is written by hand from `Database/content`.
final class JournalCommandTests: XCTestCase {
    let runner = CLIRunner()

    private func add(_ date: String, _ bbch: Int, _ product: String, _ dose: String, lang: String = "en") throws
        -> CLIRunner.Result
    {
        try runner.run([
            "journal", "add", "--field", "Field 7", "--date", date, "--stage", String(bbch), "--product", product,
            "--dose", dose, "--pest", "zymoseptoria-tritici", "--water", "200", "--operator", "A. Serikbayev",
            "--wind", "2,5", "--lang", lang,
        ])
    }

    private func season() throws {
        let field = try runner.run([
            "field", "add", "Field 7", "--area", "50", "--culture", "winter-wheat", "--at", "51.17,71.45", "--sown",
            "2025-09-20", "--harvest", "2026-07-14",
        ])
        XCTAssertEqual(field.status, 0, field.stderr)
        XCTAssertTrue(field.stdout.contains("Field 7"), field.stdout)
        XCTAssertEqual(try add("2026-04-28T07:30", 32, "azoxystrobin-cyproconazole-280-sc", "0.6").status, 0)
        XCTAssertEqual(try add("2026-05-14T07:30", 37, "pyraclostrobin-epoxiconazole-183-se", "1,2").status, 0)
    }

    func testTheSeasonFromTheCommandLine() throws {
        try season()
        // The third QoI spray: kept, marked, exit 20, worded in Kazakh.
        let third = try add("2026-05-30T07:30", 49, "azoxystrobin-cyproconazole-280-sc", "0.7", lang: "kk")
        XCTAssertEqual(third.status, 20, third.stderr)
        XCTAssertTrue(third.stderr.contains("жазбада 1 бұзушылық бар"), third.stderr)
        XCTAssertEqual(third.stderr.split(separator: "\n").count, 1, third.stderr)
        XCTAssertTrue(third.stdout.contains("FRAC 11"), third.stdout)
        XCTAssertTrue(third.stdout.contains("Field 7: 30.05.2026 07:30 күнгі 3-өңдеу жазылды"), third.stdout)

        let fourth = try add("2026-06-15T07:30", 59, "prothioconazole-tebuconazole-250-ec", "0.8")
        XCTAssertEqual(fourth.status, 20, fourth.stderr)
        XCTAssertTrue(fourth.stdout.contains("Field 7: earliest harvest 2026-07-20"), fourth.stdout)
        XCTAssertTrue(fourth.stdout.contains("the expected harvest 2026-07-14 is 6 days too early"), fourth.stdout)

        let harvest = try runner.run(["journal", "harvest", "--lang", "ru"])
        XCTAssertEqual(harvest.status, 0, harvest.stderr)
        XCTAssertTrue(harvest.stdout.contains("Field 7: уборка не ранее 20.07.2026"), harvest.stdout)
        XCTAssertTrue(harvest.stdout.contains("обработка 15.06.2026, срок ожидания 35 дн."), harvest.stdout)
        XCTAssertTrue(harvest.stdout.contains("ожидаемая уборка 14.07.2026 на 6 дней раньше допустимого"), harvest.stdout)

        // The export: one row per product, the columns of Regulation (EU) 2023/564.
        let export = try runner.run(["journal", "export"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let rows = CSVReader.rows(export.stdout)
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 5)
        func column(_ name: String) throws -> [String] {
            let index = try XCTUnwrap(header.firstIndex(of: name), name)
            return rows.dropFirst().map { $0[index] }
        }
        XCTAssertEqual(try column("authorisation"), ["KZ-DEMO-0028", "KZ-DEMO-0030", "KZ-DEMO-0028", "KZ-DEMO-0031"])
        XCTAssertEqual(try column("quantity"), ["30", "60", "35", "40"], "dose x 50 ha, in litres")
        XCTAssertEqual(try column("quantityUnit"), ["l", "l", "l", "l"])
        XCTAssertEqual(try column("bbch"), ["32", "37", "49", "59"])
        // Winter wheat's own code in the EPPO Global Database.
        XCTAssertEqual(try column("cropEPPO"), ["TRZAW", "TRZAW", "TRZAW", "TRZAW"])
        XCTAssertEqual(try column("latitude"), ["51.17", "51.17", "51.17", "51.17"])
        XCTAssertEqual(try column("errors"), ["0", "0", "1", "1"])
        XCTAssertEqual(try column("rules"), ["", "", "resistance", "pre_harvest_interval"])
        XCTAssertEqual(try column("start"), ["2026-04-28T07:30", "2026-05-14T07:30", "2026-05-30T07:30", "2026-06-15T07:30"])
        let json = try runner.run(["journal", "export", "--from", "2026-05-01", "--to", "2026-05-31", "--format", "json"])
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(exported.map { $0["bbch"] as? Int }, [37, 49])
        XCTAssertEqual(exported.map { $0["cropEPPO"] as? String }, ["TRZAW", "TRZAW"])
    }

    func testARevisionKeepsTheFirstAndTheSameIdIsStoredOnce() throws {
        try season()
        let id = "6f1c1d5e-0c7a-4a57-9a52-3f0d3b6c0a11"
        var arguments = [
            "journal", "add", "--field", "field 7", "--date", "2026-06-15", "--stage", "59", "--product",
            "prothioconazole-tebuconazole-250-ec", "--dose", "0.8", "--pest", "zymoseptoria-tritici", "--id", id,
        ]
        XCTAssertEqual(try runner.run(arguments).status, 20)
        let again = try runner.run(arguments)
        XCTAssertEqual(again.status, 20, "the same findings, stored once")
        XCTAssertTrue(again.stdout.contains("stored already"), again.stdout)
        let list = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try runner.run(["journal", "list", "--format", "json"]).stdout.utf8))
                as? [String: Any])
        XCTAssertEqual((list["items"] as? [Any])?.count, 3, "\(list)")

        // Within 48 hours a correction needs no reason; 5 June + 35 days keeps the harvest.
        let revise = try runner.run(["journal", "revise", String(id.prefix(8)), "--date", "2026-06-05"])
        XCTAssertEqual(revise.status, 0, revise.stderr)
        XCTAssertTrue(revise.stdout.contains("spray 3, revision 2 recorded"), revise.stdout)
        let show = try runner.run(["journal", "show", id])
        XCTAssertTrue(show.stdout.contains("Revision 1") && show.stdout.contains("Revision 2"), show.stdout)
        XCTAssertTrue(show.stdout.contains("wind") == false, "no weather was written")
        arguments[arguments.firstIndex(of: "2026-06-15")!] = "2026-06-16"
        let conflict = try runner.run(arguments)
        XCTAssertEqual(conflict.status, 64, conflict.stderr)
    }

    func testBadInputIsOneLineInTheUsersLanguage() throws {
        try season()
        let day: Double = 86_400
        let future = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / day).rounded(.down) * day + 3 * day)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let cases: [([String], Int32, String)] = [
            (["--field", "Field 9"], 3, "«Field 9» деген егістік жоқ"),
            (["--dose", "abc"], 64, "abc"),
            (["--date", formatter.string(from: future)], 64, "болашақ күн"),
            (["--product", "no-such-product"], 3, "no-such-product"),
            (["--humidity", "140"], 64, "ылғалдылық 140"),
        ]
        for (change, status, words) in cases {
            var arguments = [
                "journal", "add", "--field", "Field 7", "--date", "2026-06-15", "--product",
                "prothioconazole-tebuconazole-250-ec", "--dose", "0.8", "--lang", "kk",
            ]
            for pair in stride(from: 0, to: change.count, by: 2) {
                if let index = arguments.firstIndex(of: change[pair]) {
                    arguments[index + 1] = change[pair + 1]
                } else {
                    arguments += [change[pair], change[pair + 1]]
                }
            }
            let result = try runner.run(arguments)
            XCTAssertEqual(result.status, status, "\(change) \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(change) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(words), "\(change) \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Error:") || result.stderr.contains("Fatal"), result.stderr)
        }
        let list = try runner.run(["journal", "list", "--format", "json"])
        let items = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["items"] as? [Any]
        XCTAssertEqual(items?.count, 2, "nothing half-written")
        // Written minutes ago: a correction needs no reason yet (after 48 hours it does:
        // JournalSeasonTests, with the clock set).
        let old = try XCTUnwrap(items?.first as? [String: Any])["id"] as? String
        let revise = try runner.run(["journal", "revise", try XCTUnwrap(old), "--stage", "33"])
        XCTAssertEqual(revise.status, 0, "written today: within 48 hours")
    }

    /// Writers killed with SIGKILL at random moments: every record a writer acknowledged (it
    /// exited on its own) is in the journal once, a killed one is there whole or not at all, and
    /// the database still opens.
    func testAcknowledgedRecordsSurviveWritersKilledMidway() throws {
        try season()
        var acknowledged: [String] = [], killed: [String] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let id = UUID().uuidString.lowercased()
            let process = Process()
            process.executableURL = CLIRunner.binary
            process.arguments = [
                "journal", "add", "--field", "Field 7", "--date", "2026-06-\(10 + round % 10)", "--product",
                "tebuconazole-250-ec", "--dose", "0.75", "--pest", "zymoseptoria-tritici", "--id", id,
            ]
            process.environment = runner.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0..<400_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit {
                acknowledged.append(id)
            } else {
                killed.append(id)
            }
        }
        let list = try runner.run(["journal", "list", "--format", "json", "--all"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let items = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        let ids = items.compactMap { $0["id"] as? String }.map { $0.lowercased() }
        for id in acknowledged { XCTAssertEqual(ids.filter { $0 == id }.count, 1, "acknowledged \(id)") }
        for id in killed { XCTAssertLessThanOrEqual(ids.filter { $0 == id }.count, 1, "killed \(id)") }
        XCTAssertEqual(ids.count, 2 + ids.filter { acknowledged.contains($0) || killed.contains($0) }.count)
        XCTAssertTrue(items.allSatisfy { ($0["products"] as? [Any])?.count == 1 }, "no record half-written")
    }
}
