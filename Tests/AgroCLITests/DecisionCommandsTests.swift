import AgroTestSupport
import Foundation
import XCTest

/// `agro uses`, `agro plan check`, `agro tank` and `agro product --alternatives` end to end on
/// the bundled catalog. Expected answers come from the JSON sources in Database/content.
final class DecisionCommandsTests: XCTestCase {
    let cli = CLIRunner()
    static let examples = CLIRunner.root.appendingPathComponent("Database/examples")

    private func json(_ result: CLIRunner.Result) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
    }

    func testUsesListsOneRowPerUseFromTheSources() throws {
        // Uses against Septoria tritici on winter wheat or a group above it, from uses.json.
        let cultures = try CatalogCommandsTests.ancestry("winter-wheat")
        var expected: [String: [String: Any]] = [:]
        for use in try CatalogCommandsTests.entries("uses.json") {
            let pests = (use["pests"] as? [Any] ?? []).compactMap {
                ($0 as? String) ?? (($0 as? [String: Any])?["pest"] as? String)
            }
            guard pests.contains("zymoseptoria-tritici"), !cultures.isDisjoint(with: use["cultures"] as? [String] ?? []) else {
                continue
            }
            expected[use["id"] as! String] = use
        }
        XCTAssertFalse(expected.isEmpty)
        let result = try cli.run([
            "uses", "--pest", "zymoseptoria-tritici", "--culture", "winter wheat", "--all", "--format", "json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let items = try XCTUnwrap(try json(result)["items"] as? [[String: Any]])
        XCTAssertEqual(Set(items.map { $0["id"] as! String }), Set(expected.keys))
        for item in items {
            let use = try XCTUnwrap(expected[item["id"] as! String])
            XCTAssertEqual(item["productId"] as? String, use["product"] as? String)
            let dose = try XCTUnwrap(item["dose"] as? [String: Any])
            let range = (use["dose"] as? [Double]) ?? [(use["dose"] as! Double), (use["dose"] as! Double)]
            XCTAssertEqual((dose["from"] as? NSNumber)?.doubleValue, range[0])
            XCTAssertEqual((dose["to"] as? NSNumber)?.doubleValue, range[1])
            XCTAssertEqual(dose["unit"] as? String, use["unit"] as? String)
            XCTAssertEqual(item["phiDays"] as? Int, use["phi"] as? Int)
            XCTAssertEqual(item["maxApplications"] as? Int, use["maxApplications"] as? Int)
            let bbch = item["bbch"] as? [String: Int]
            XCTAssertEqual(bbch?["from"], (use["bbch"] as? [Int])?.first)
            XCTAssertNotNil(item["registrationNumber"] as? String)
            XCTAssertFalse((item["groups"] as? [String] ?? []).isEmpty, "every fungicide here has a FRAC group")
        }
    }

    /// The table's pre-harvest interval is in days, in the reader's words ("30 дней"), like the
    /// interval beside it; the rows are the JSON's rows in the same order.
    func testUsesTableWritesThePHIInDays() throws {
        let query = ["uses", "--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--all"]
        let items = try XCTUnwrap(
            try json(try cli.run(["--lang", "ru"] + query + ["--format", "json"]))["items"] as? [[String: Any]])
        let csv = try cli.run(["--lang", "ru"] + query + ["--format", "csv"]).stdout
        let rows = csv.split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, items.count, csv)
        for (item, row) in zip(items, rows) {
            let phi = try XCTUnwrap(item["phiDays"] as? Int)
            XCTAssertTrue(row.contains("," + RussianPlural.days(phi) + ","), "\(phi): \(row)")
        }
    }

    /// Wheat against septoria: wheat's own use (propiconazole, expired) then the six products on
    /// each of its members, each row naming its member (`member` in JSON, a column in the
    /// table); by hand from uses.json (u-0100 on wheat, u-0095...u-0122 on winter and spring wheat).
    func testUsesOnAGroupListItsMembersUsesNamingTheMember() throws {
        let query = ["uses", "--pest", "zymoseptoria-tritici", "--culture", "wheat", "--all"]
        let items = try XCTUnwrap(
            try json(try cli.run(["--lang", "kk"] + query + ["--format", "json"]))["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 13)
        XCTAssertEqual(items.first?["productId"] as? String, "propiconazole-250-ec")
        XCTAssertTrue(items.first?["member"] is NSNull, "registered on wheat itself")
        let members = items.dropFirst().compactMap { ($0["member"] as? [String: Any])?["name"] as? String }
        XCTAssertEqual(members, Array(repeating: "Жаздық бидай", count: 6) + Array(repeating: "Күздік бидай", count: 6))
        let table = try cli.run(["--lang", "kk"] + query + ["--format", "csv"]).stdout
        XCTAssertTrue(table.hasPrefix("Препарат,Тіркелген дақыл,"), table)
        XCTAssertTrue(table.contains("Тебуконазол 250 г/л КЭ,Күздік бидай,"), table)
        // Winter wheat has no member: no such column.
        let winter = try cli.run([
            "--lang", "kk", "uses", "--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--format", "csv",
        ])
        XCTAssertFalse(winter.stdout.contains("Тіркелген дақыл"), winter.stdout)
    }

    func testUsesNeedsAPestOrACultureAndAValidSort() throws {
        XCTAssertEqual(try cli.run(["uses"]).status, 64)
        XCTAssertEqual(try cli.run(["uses", "--culture", "winter-wheat", "--sort", "price"]).status, 64)
        XCTAssertEqual(try cli.run(["uses", "--culture", "winter-wheat", "--group", "XYZ 1"]).status, 64)
        XCTAssertEqual(try cli.run(["uses", "--culture", "no-such-culture-zzz"]).status, 3)
    }

    func testPassingPlanExitsZero() throws {
        for name in ["winter-wheat-kz.json", "winter-wheat-kz.csv"] {
            let result = try cli.run(["plan", "check", Self.examples.appendingPathComponent(name).path, "--format", "json"])
            XCTAssertEqual(result.status, 0, name + result.stdout + result.stderr)
            let document = try json(result)
            XCTAssertEqual(document["passed"] as? Bool, true)
            XCTAssertEqual(document["violations"] as? Int, 0)
        }
    }

    func testFailingPlanExitsTwentyWithTheThreeRules() throws {
        let result = try cli.run([
            "plan", "check", Self.examples.appendingPathComponent("winter-wheat-kz-fails.json").path, "--format", "json",
        ])
        XCTAssertEqual(result.status, 20, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "))
        let findings = try XCTUnwrap(try json(result)["findings"] as? [[String: Any]])
        for finding in findings {
            XCTAssertEqual(Set(finding.keys), ["application", "rule", "severity", "message", "source"])
        }
        let errors = findings.filter { $0["severity"] as? String == "error" }
        // By hand: tribenuron 30 g/ha > 25 (application 1), a third FRAC 11 spray in cereals
        // (application 4) and 3 of 3 FRAC sprays with FRAC 11 (> 50 %, whole plan), lambda-
        // cyhalothrin 13 days before harvest with a 20-day PHI (application 5).
        let pairs = errors.map { "\(($0["application"] as? Int).map(String.init) ?? "plan"):\($0["rule"] as! String)" }
        XCTAssertEqual(pairs, ["1:dose", "4:resistance", "5:pre_harvest_interval", "plan:resistance"])
    }

    /// The decision commands are catalog queries: a lone `agro` answers them, global options
    /// before the command included (`agro --format json plan check FILE`).
    func testALoneQueryProgramAnswersTheDecisionCommands() throws {
        let folder = cli.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lone = folder.appendingPathComponent("agro")
        try FileManager.default.copyItem(at: CLIRunner.binary, to: lone)
        let home = ["AGRO_HOME": CLIRunner.root.path]
        let plan = Self.examples.appendingPathComponent("winter-wheat-kz-fails.json").path
        for (arguments, status) in [
            (["--format", "json", "plan", "check", plan], Int32(20)),
            (["--lang", "ru", "uses", "--pest", "zymoseptoria-tritici", "--culture", "winter-wheat"], 0),
            (
                [
                    "tank", "--product", "tebuconazole-250-ec", "--dose", "0.75", "--area", "10", "--water", "200", "--tank",
                    "600",
                ], 0
            ),
            (["--format", "csv", "product", "tebuconazole-250-ec", "--alternatives"], 0),
        ] {
            let result = try cli.run(arguments, extraEnvironment: home, executable: lone.path)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("agro-full"), result.stderr)
        }
    }

    func testPlanFileProblemsGetOneLine() throws {
        let missing = try cli.run(["plan", "check", "/nonexistent/plan.json"])
        XCTAssertEqual(missing.status, 74)
        let bad = cli.home.appendingPathComponent("bad.json")
        try Data(#"{"culture": "winter-wheat", "applications": [{"product": "x", "dose": 0, "unit": "l/ha"}]}"#.utf8).write(
            to: bad)
        let result = try cli.run(["plan", "check", bad.path])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "agro: plan: application 1: the dose must be a positive number\n")
        XCTAssertEqual(result.stdout, "")
    }

    func testAnOversizedPlanIsRefusedUnread() throws {
        // 4 MiB is the documented limit of a plan file; one byte more, on a file and on stdin.
        let big = cli.home.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 4 * 1_048_576 + 1).write(to: big)
        let fromFile = try cli.run(["plan", "check", big.path])
        XCTAssertEqual(fromFile.status, 64)
        XCTAssertEqual(fromFile.stderr, "agro: \(big.path) is larger than 4 MiB: a season plan is far smaller\n")
        let fromInput = try cli.run(["plan", "check", "-"], input: String(repeating: " ", count: 4 * 1_048_576 + 1))
        XCTAssertEqual(fromInput.status, 64, fromInput.stderr)
    }

    func testTankArithmeticAndIncompatibilityWarning() throws {
        // 120 ha × 200 l/ha = 24,000 l = 8 loads of 3,000 l (15 ha each). Fenoxaprop product at
        // 0.8 l/ha: 12 l per load, 96 l; 2,4-D ester at 0.7 l/ha: 10.5 l per load, 84 l;
        // 84 l × 850 g/l = 71,400 g. tank-incompatibilities.json marks the pair.
        let result = try cli.run([
            "tank", "--product", "fenoxaprop-69-ew", "--product", "2-4-d-ehe-850-ec", "--dose", "0.8", "--dose", "0.7",
            "--area", "120", "--water", "200", "--tank", "3000", "--format", "json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try json(result)
        let plan = try XCTUnwrap(document["plan"] as? [String: Any])
        XCTAssertEqual(plan["loads"] as? Int, 8)
        XCTAssertEqual(plan["lastLoadWater"] as? Double, 0)
        let products = try XCTUnwrap(plan["products"] as? [[String: Any]])
        XCTAssertEqual((products[0]["perFullLoad"] as? NSNumber)?.doubleValue ?? 0, 12, accuracy: 1e-9)
        XCTAssertEqual((products[1]["total"] as? NSNumber)?.doubleValue ?? 0, 84, accuracy: 1e-9)
        let grams = try XCTUnwrap((products[1]["substances"] as? [[String: Any]])?.first?["grams"] as? NSNumber)
        XCTAssertEqual(grams.doubleValue, 71400, accuracy: 1e-6)
        XCTAssertEqual((document["warnings"] as? [String])?.count, 1)
    }

    func testTankBadNumbersGetOneLineAndStatus64() throws {
        let base = ["tank", "--product", "tebuconazole-250-ec", "--area", "100", "--water", "200"]
        for extra in [
            ["--dose", "0.5", "--tank", "0"], ["--dose=-1", "--tank", "3000"], ["--dose", "5", "--tank", "3000"],
            ["--dose", "0.5", "--tank", "3000", "--unit", "l/t"],
        ] {
            let result = try cli.run(base + extra)
            XCTAssertEqual(result.status, 64, "\(extra): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("agro: "), result.stderr)
        }
    }

    func testAlternativesPutAnotherModeOfActionFirst() throws {
        let result = try cli.run([
            "product", "tebuconazole-250-ec", "--alternatives", "--culture", "winter-wheat", "--pest", "puccinia-triticina",
            "--format", "json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let items = try XCTUnwrap(try json(result)["items"] as? [[String: Any]])
        XCTAssertFalse(items.isEmpty)
        let relations = items.map { $0["relation"] as! String }
        // Ranked: every other-mode-of-action item before every same-substance one, those before same-group ones.
        let rank = ["other_mode_of_action": 0, "same_substance": 1, "same_mode_of_action": 2]
        XCTAssertEqual(relations.map { rank[$0]! }, relations.map { rank[$0]! }.sorted())
        // Tebuconazole is in prothioconazole-tebuconazole-250-ec: a same-substance alternative.
        XCTAssertEqual(
            items.first { $0["id"] as? String == "prothioconazole-tebuconazole-250-ec" }?["relation"] as? String, "same_substance"
        )
        XCTAssertFalse(items.contains { $0["id"] as? String == "tebuconazole-250-ec" })
    }
}
