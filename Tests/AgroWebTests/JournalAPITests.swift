import Foundation
import XCTest

/// The journal over the JSON API (`agro web --journal`), as the phone app uses it: a field, the
/// worked season of JournalSeasonTests posted as records, the findings in the request's
/// language, the same record posted twice, a revision, the export; and the same answers as the
/// command line on the same user database. Expectations written by hand from Database/content.
final class JournalAPITests: XCTestCase {
    private var server: WebProcess!

    override func setUpWithError() throws {
        server = WebProcess()
        try server.start(web: ["--journal"])
    }

    override func tearDown() { server = nil }

    private func post(_ target: String, _ json: String) throws -> WebProcess.Answer {
        try server.exchange("POST", target, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    private func record(_ start: String, _ bbch: Int, _ product: String, _ dose: Double, id: String? = nil) -> String {
        let identity = id.map { #""id": "\#($0)", "# } ?? ""
        return """
            {\(identity)"field": "Field 7", "start": "\(start)", "bbch": \(bbch), "water": 200, "operator": "A. Serikbayev",
             "products": [{"product": "\(product)", "dose": \(dose), "unit": "l/ha", "pests": ["zymoseptoria-tritici"]}],
             "weather": {"wind": {"value": 2.5, "source": "measured"}, "temperature": {"value": 17, "source": "forecast"}}}
            """
    }

    func testTheSeasonOverTheAPI() throws {
        let field = try post(
            "/api/v1/fields",
            #"{"name": "Field 7", "area": 50, "culture": "winter wheat", "latitude": 51.17, "longitude": 71.45, "harvest": "2026-07-14"}"#
        )
        XCTAssertEqual(field.status, 201, field.body)
        XCTAssertEqual((field.json as? [String: Any])?["area"] as? Double, 50)

        XCTAssertEqual(
            try post("/api/v1/journal", record("2026-04-28T07:30", 32, "azoxystrobin-cyproconazole-280-sc", 0.6)).status, 201)
        XCTAssertEqual(
            try post("/api/v1/journal", record("2026-05-14T07:30", 37, "pyraclostrobin-epoxiconazole-183-se", 1.2)).status, 201)
        // The third QoI spray: stored (201), marked, the finding in Russian.
        let third = try post(
            "/api/v1/journal?lang=ru",
            record("2026-05-30T07:30", 49, "azoxystrobin-cyproconazole-280-sc", 0.7, id: "0b6d3f44-3a4c-4f0e-9d1e-2d5a7c9e1f00"))
        XCTAssertEqual(third.status, 201, third.body)
        let written = try XCTUnwrap(third.json as? [String: Any])
        XCTAssertEqual(written["spray"] as? Int, 3)
        let document = try XCTUnwrap(written["record"] as? [String: Any])
        XCTAssertEqual(document["errors"] as? Int, 1)
        let findings = try XCTUnwrap(document["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["resistance"])
        XCTAssertTrue((findings.first?["message"] as? String ?? "").contains("FRAC 11"), "\(findings)")
        XCTAssertTrue(
            (findings.first?["message"] as? String ?? "").range(of: "[а-я]", options: .regularExpression) != nil, "\(findings)")
        // Sent again (the phone lost the answer): the same revision, stored once.
        let again = try post(
            "/api/v1/journal",
            record("2026-05-30T07:30", 49, "azoxystrobin-cyproconazole-280-sc", 0.7, id: "0b6d3f44-3a4c-4f0e-9d1e-2d5a7c9e1f00"))
        XCTAssertEqual(again.status, 200, again.body)
        XCTAssertEqual((again.json as? [String: Any])?["stored"] as? Bool, false)

        let fourth = try post("/api/v1/journal", record("2026-06-15T07:30", 59, "prothioconazole-tebuconazole-250-ec", 0.8))
        XCTAssertEqual((fourth.json as? [String: Any])?["earliestHarvest"] as? String, "2026-07-20", fourth.body)

        let list = try XCTUnwrap(try server.get("/api/v1/journal?field=Field%207").json as? [[String: Any]])
        XCTAssertEqual(list.map { $0["bbch"] as? Int }, [32, 37, 49, 59])
        XCTAssertEqual(list.map { $0["errors"] as? Int }, [0, 0, 1, 1])
        let weather = try XCTUnwrap(list.first?["weather"] as? [String: [String: Any]])
        XCTAssertEqual(weather["temperature"]?["source"] as? String, "forecast")

        // A revision moves the late fungicide to 5 June: 5 June + 35 days = 10 July.
        let revised = try post("/api/v1/journal/0b6d3f44", #"{"bbch": 47, "reason": "stage misread"}"#)
        XCTAssertEqual(revised.status, 201, revised.body)
        let history = try XCTUnwrap(try server.get("/api/v1/journal/0b6d3f44").json as? [[String: Any]])
        XCTAssertEqual(history.map { $0["revisionNumber"] as? Int }, [1, 2])
        XCTAssertEqual(history.map { $0["bbch"] as? Int }, [49, 47])

        let harvest = try XCTUnwrap(try server.get("/api/v1/journal/harvest").json as? [[String: Any]])
        XCTAssertEqual(harvest.first?["earliestHarvest"] as? String, "2026-07-20")

        let export = try server.get("/api/v1/journal/export?from=2026-05-01")
        XCTAssertEqual(export.status, 200)
        XCTAssertEqual(export.headers["content-type"], "text/csv; charset=utf-8")
        let lines = export.body.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, export.body)
        XCTAssertTrue(lines[0].hasPrefix("record,revision,field,latitude,longitude,crop,cropEPPO,product,authorisation"))
        XCTAssertTrue(lines[3].contains("KZ-DEMO-0031"), export.body)

        // The command line reads the same journal.
        let cli = try server.cli(["journal", "export", "--from", "2026-05-01"])
        XCTAssertEqual(cli.stdout, export.body)
    }

    func testBadRequestsAreOneMessageInTheLanguageAndWriteNothing() throws {
        XCTAssertEqual(
            try post("/api/v1/fields", #"{"name": "Field 7", "area": 50, "culture": "winter-wheat"}"#).status, 201)
        let cases: [(String, Int, String)] = [
            (
                record("2026-06-15", 59, "prothioconazole-tebuconazole-250-ec", 0.8).replacingOccurrences(
                    of: "Field 7", with: "Field 9"), 404, "Field 9"
            ),
            (record("2026-06-15", 59, "prothioconazole-tebuconazole-250-ec", -1), 400, "оң сан"),
            (
                #"{"field": "Field 7", "start": "2026-06-15", "products": [{"product": "prothioconazole-tebuconazole-250-ec", "dose": "abc"}]}"#,
                400, "JSON"
            ),
            (
                #"{"field": "Field 7", "start": "yesterday", "products": [{"product": "prothioconazole-tebuconazole-250-ec", "dose": 1}]}"#,
                400, "start="
            ),
            ("not json", 400, "JSON"),
        ]
        for (body, status, words) in cases {
            let answer = try post("/api/v1/journal?lang=kk", body)
            XCTAssertEqual(answer.status, status, "\(body): \(answer.body)")
            let message = ((answer.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
            XCTAssertTrue(message.contains(words), "\(body): \(message)")
            XCTAssertFalse(message.contains("--"), "no command-line flag: \(message)")
        }
        XCTAssertEqual((try server.get("/api/v1/journal").json as? [Any])?.count, 0, "nothing half-written")
    }

    /// Without accounts the journal is served on loopback only, and only when asked for.
    func testTheJournalIsServedOnlyWhenAskedOnLoopback() throws {
        let plain = WebProcess()
        try plain.start()
        XCTAssertEqual(try plain.get("/api/v1/journal").status, 404)
        let open = try plain.cli(["web", "--journal", "--host", "0.0.0.0", "--port", "0"])
        XCTAssertEqual(open.status, 64, open.stderr)
        XCTAssertTrue(open.stderr.contains("--host"), open.stderr)
    }
}
