import Foundation
import XCTest

/// One journal for a farm over the JSON API (`agro web --farm-journal`): accounts made with
/// `agro farms add` and `agro users add`, sessions, roles, another farm's records, and sync by
/// numbers: what is stored once, what is refused whole. Expected numbers counted by hand.
final class FarmJournalAPITests: XCTestCase {
    private var server: WebProcess!
    private var cookies: [String: String] = [:]

    override func setUpWithError() throws {
        // Quick hashes for the test's accounts; checking takes the cost the hash was made with.
        server = WebProcess(extraEnvironment: ["AGRO_BCRYPT_COST": "4"])
        for farm in ["Kamenka", "Other farm"] {
            XCTAssertEqual(try server.cli(["farms", "add", farm]).status, 0)
        }
        for (login, farm, role) in [
            ("anna", "Kamenka", "agronomist"), ("ivan", "kamenka", "inspector"), ("olga", "Other farm", "owner"),
        ] {
            let added = try server.cli(
                ["users", "add", login, "--farm", farm, "--role", role], extraEnvironment: ["AGRO_PASSWORD": "pass-\(login)-1"])
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        try server.start(web: ["--farm-journal"])
    }

    override func tearDown() { server = nil }

    private func signIn(_ login: String, password: String? = nil) throws -> WebProcess.Answer {
        let answer = try server.exchange(
            "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
            body: Data(#"{"user": "\#(login)", "password": "\#(password ?? "pass-\(login)-1")"}"#.utf8))
        if let cookie = answer.headers["set-cookie"], let pair = cookie.split(separator: ";").first {
            cookies[login] = String(pair)
        }
        return answer
    }

    private func call(
        _ method: String, _ target: String, as login: String?, _ json: String? = nil, headers: [String: String] = [:]
    ) throws -> WebProcess.Answer {
        var all = headers
        if let login, let cookie = cookies[login] { all["Cookie"] = cookie }
        if json != nil { all["Content-Type"] = "application/json" }
        return try server.exchange(method, target, headers: all, body: Data((json ?? "").utf8))
    }

    private func field(_ id: String, _ name: String) -> String {
        #"{"kind": "field", "field": {"id": "\#(id)", "name": "\#(name)", "area": 50, "culture": "winter-wheat", "harvest": "2026-07-14", "writtenAt": 0}}"#
    }

    private func record(_ id: String, revision: String, field: String, start: String, dose: Double = 0.6, revises: String? = nil)
        -> String
    {
        let corrects = revises.map { #""revises": "\#($0)", "reason": "dose misread", "# } ?? ""
        return """
            {"kind": "record", "record": {\(corrects)"id": "\(id)", "revision": "\(revision)", "field": "\(field)", "start": "\(start)",
             "bbch": 32, "products": [{"product": "azoxystrobin-cyproconazole-280-sc", "dose": \(dose), "unit": "l/ha", "pests": []}],
             "weather": {}, "writtenAt": 0}}
            """
    }

    private static let field7 = "6f1c1d2e-0000-4000-8000-000000000007"
    private static let record1 = "6f1c1d2e-0000-4000-8000-0000000000a1"

    func testSessionsRolesAndFarms() throws {
        XCTAssertEqual(try call("GET", "/api/v1/journal", as: nil).status, 401)
        XCTAssertEqual(try call("GET", "/api/v1/sync?since=0", as: nil).status, 401)
        let wrong = try signIn("anna", password: "not-her-password")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertNil(wrong.headers["set-cookie"])
        XCTAssertFalse(wrong.body.contains("not-her-password"))
        // An unknown login is refused in the same words: nothing tells which logins exist.
        let unknown = try signIn("nobody", password: "whatever-1")
        XCTAssertEqual(unknown.status, 401)
        XCTAssertEqual(
            (unknown.json as? [String: [String: Any]])?["error"]?["message"] as? String,
            (wrong.json as? [String: [String: Any]])?["error"]?["message"] as? String)

        let anna = try signIn("anna")
        XCTAssertEqual(anna.status, 200, anna.body)
        let cookie = try XCTUnwrap(anna.headers["set-cookie"])
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] { XCTAssertTrue(cookie.contains(attribute), cookie) }
        XCTAssertFalse(cookie.contains("Secure"), "plain http on loopback: " + cookie)
        XCTAssertEqual((anna.json as? [String: Any])?["role"] as? String, "agronomist")
        XCTAssertEqual(((anna.json as? [String: Any])?["farm"] as? [String: Any])?["name"] as? String, "Kamenka")
        // Behind nginx with TLS, the cookie is Secure.
        let secure = try server.exchange(
            "POST", "/api/v1/session", headers: ["Content-Type": "application/json", "X-Forwarded-Proto": "https"],
            body: Data(#"{"user": "olga", "password": "pass-olga-1"}"#.utf8))
        XCTAssertTrue(secure.headers["set-cookie"]?.contains("; Secure") == true, secure.headers.description)

        let sync = try call(
            "POST", "/api/v1/sync", as: "anna",
            #"{"changes": [\#(field(Self.field7, "Field 7")), \#(record(Self.record1, revision: Self.record1, field: Self.field7, start: "2026-04-28"))]}"#
        )
        XCTAssertEqual(sync.status, 200, sync.body)

        // Another farm's owner: no such record, no such field, nothing in the farm's numbers.
        XCTAssertEqual(try signIn("olga").status, 200)
        XCTAssertEqual(try call("GET", "/api/v1/journal/\(Self.record1)", as: "olga").status, 404)
        XCTAssertEqual(try call("GET", "/api/v1/journal/\(Self.record1)", as: "anna").status, 200)
        XCTAssertEqual((try call("GET", "/api/v1/journal", as: "olga").json as? [Any])?.count, 0)
        let theirs = try XCTUnwrap(try call("GET", "/api/v1/sync?since=0", as: "olga").json as? [String: Any])
        XCTAssertEqual(theirs["last"] as? Int, 0)
        // Every journal route, with another farm's session: nothing of Kamenka's, as if it did not exist.
        XCTAssertEqual((try call("GET", "/api/v1/fields", as: "olga").json as? [Any])?.count, 0)
        XCTAssertEqual(try call("GET", "/api/v1/journal?field=\(Self.field7)", as: "olga").status, 404)
        XCTAssertEqual(try call("GET", "/api/v1/journal/harvest?field=\(Self.field7)", as: "olga").status, 404)
        let export = try call("GET", "/api/v1/journal/export?format=csv", as: "olga")
        XCTAssertEqual(export.status, 200)
        XCTAssertEqual(export.body.split(separator: "\n").count, 1, "the header only: " + export.body)
        XCTAssertEqual(
            try call("POST", "/api/v1/journal/\(Self.record1)", as: "olga", #"{"bbch": 33, "reason": "x"}"#).status, 404)
        XCTAssertEqual(
            try call(
                "POST", "/api/v1/journal", as: "olga",
                #"{"field": "\#(Self.field7)", "start": "2026-05-01", "products": [{"product": "tebuconazole-250-ec", "dose": 0.75}]}"#
            ).status,
            404)
        for page in ["/journal/field/\(Self.field7)", "/journal/field/\(Self.field7)/record", "/journal/record/\(Self.record1)"] {
            XCTAssertEqual(try call("GET", page, as: "olga").status, 404, page)
        }
        XCTAssertEqual(try call("GET", "/journal/record/\(Self.record1)", as: "anna").status, 200)
        // Olga writing on Kamenka's field from her farm: the field is not there for her.
        let foreign = try call(
            "POST", "/api/v1/sync", as: "olga",
            #"{"changes": [\#(record("6f1c1d2e-0000-4000-8000-0000000000b1", revision: "6f1c1d2e-0000-4000-8000-0000000000b1", field: Self.field7, start: "2026-05-01"))]}"#
        )
        XCTAssertEqual(foreign.status, 400, foreign.body)
        XCTAssertEqual(
            try call("GET", "/api/v1/sync?since=0", as: "anna").json.flatMap { ($0 as? [String: Any])?["last"] as? Int }, 2)

        // The inspector reads and exports, and may not write.
        XCTAssertEqual(try signIn("ivan").status, 200)
        XCTAssertEqual(try call("GET", "/api/v1/journal/export?format=csv", as: "ivan").status, 200)
        let write = try call("POST", "/api/v1/fields", as: "ivan", #"{"name": "F8", "area": 3, "culture": "winter wheat"}"#)
        XCTAssertEqual(write.status, 403, write.body)
        XCTAssertEqual(try call("POST", "/api/v1/sync", as: "ivan", #"{"changes": []}"#).status, 403)

        // A form posted from another site's page is refused, whoever's cookie it carries.
        let crossSite = try call(
            "POST", "/api/v1/fields", as: "anna", #"{"name": "F9", "area": 3, "culture": "winter wheat"}"#,
            headers: ["Origin": "http://evil.example"])
        XCTAssertEqual(crossSite.status, 403, crossSite.body)

        // Signed out: the same cookie replayed is refused.
        XCTAssertEqual(try call("DELETE", "/api/v1/session", as: "anna").status, 204)
        XCTAssertEqual(try call("GET", "/api/v1/journal", as: "anna").status, 401)
        XCTAssertEqual(try call("GET", "/api/v1/session", as: "anna").status, 401)
    }

    func testSignInAttemptsAreLimitedPerAccount() throws {
        for _ in 0..<5 { XCTAssertEqual(try signIn("anna", password: "guess-guess").status, 401) }
        let limited = try signIn("anna")
        XCTAssertEqual(limited.status, 429, limited.body)
        XCTAssertNotNil(limited.headers["retry-after"])
        // Another account from the same client is not locked out by anna's.
        XCTAssertEqual(try signIn("olga").status, 200)
    }

    func testSyncNumbersEachChangeOnceAndRefusesABadBatchWhole() throws {
        XCTAssertEqual(try signIn("anna").status, 200)
        let batch =
            #"{"changes": [\#(field(Self.field7, "Field 7")), \#(record(Self.record1, revision: Self.record1, field: Self.field7, start: "2026-04-28"))]}"#
        let first = try XCTUnwrap(try call("POST", "/api/v1/sync", as: "anna", batch).json as? [String: Any])
        let receipts = try XCTUnwrap(first["receipts"] as? [[String: Any]])
        XCTAssertEqual(receipts.map { $0["sequence"] as? Int }, [1, 2])
        XCTAssertEqual(receipts.map { $0["stored"] as? Bool }, [true, true])
        // Sent again (the answer was lost): the same numbers, nothing stored twice.
        let again = try XCTUnwrap(try call("POST", "/api/v1/sync", as: "anna", batch).json as? [String: Any])
        XCTAssertEqual((again["receipts"] as? [[String: Any]])?.map { $0["sequence"] as? Int }, [1, 2])
        XCTAssertEqual((again["receipts"] as? [[String: Any]])?.map { $0["stored"] as? Bool }, [false, false])
        XCTAssertEqual(again["last"] as? Int, 2)

        // A batch whose third change cannot be read: refused naming it, nothing of it stored.
        let bad = try call(
            "POST", "/api/v1/sync", as: "anna",
            #"{"changes": [\#(field("6f1c1d2e-0000-4000-8000-000000000008", "Field 8")), \#(record("6f1c1d2e-0000-4000-8000-0000000000a2", revision: "6f1c1d2e-0000-4000-8000-0000000000a2", field: Self.field7, start: "2026-05-14")), {"kind": "record", "record": {"id": "nonsense"}}]}"#
        )
        XCTAssertEqual(bad.status, 400, bad.body)
        XCTAssertTrue(bad.body.contains("3"), bad.body)
        // A batch whose second change breaks a rule (a dose of zero): refused whole as well.
        let zero = try call(
            "POST", "/api/v1/sync", as: "anna",
            #"{"changes": [\#(field("6f1c1d2e-0000-4000-8000-000000000008", "Field 8")), \#(record("6f1c1d2e-0000-4000-8000-0000000000a3", revision: "6f1c1d2e-0000-4000-8000-0000000000a3", field: Self.field7, start: "2026-05-14", dose: 0))]}"#
        )
        XCTAssertEqual(zero.status, 400, zero.body)
        let after = try XCTUnwrap(try call("GET", "/api/v1/sync?since=0", as: "anna").json as? [String: Any])
        XCTAssertEqual(after["last"] as? Int, 2)
        XCTAssertEqual((after["changes"] as? [Any])?.count, 2)

        // Beyond the last number, and more changes than a batch takes.
        XCTAssertEqual(try call("GET", "/api/v1/sync?since=3", as: "anna").status, 400)
        let many = (0..<1_001).map { _ in field(UUID().uuidString, UUID().uuidString) }.joined(separator: ",")
        let tooMany = try call("POST", "/api/v1/sync", as: "anna", #"{"changes": [\#(many)]}"#)
        XCTAssertEqual(tooMany.status, 413, String(tooMany.body.prefix(300)))
        XCTAssertEqual((try call("GET", "/api/v1/sync?since=0", as: "anna").json as? [String: Any])?["last"] as? Int, 2)

        // Two phones correct the same record offline: both revisions kept, in order, each naming
        // the revision it corrects.
        let a = "6f1c1d2e-0000-4000-8000-0000000000c1", b = "6f1c1d2e-0000-4000-8000-0000000000c2"
        for (revision, dose) in [(a, 0.5), (b, 0.7)] {
            let sent = try call(
                "POST", "/api/v1/sync", as: "anna",
                #"{"changes": [\#(record(Self.record1, revision: revision, field: Self.field7, start: "2026-04-28", dose: dose, revises: Self.record1))]}"#
            )
            XCTAssertEqual(sent.status, 200, sent.body)
        }
        let history = try XCTUnwrap(try call("GET", "/api/v1/journal/\(Self.record1)", as: "anna").json as? [[String: Any]])
        XCTAssertEqual(history.map { $0["revisionNumber"] as? Int }, [1, 2, 3])
        XCTAssertEqual(
            history.map { (($0["products"] as? [[String: Any]])?.first?["dose"] as? Double) }, [0.6, 0.5, 0.7])
        // Each of the two says the other was written apart from it; the first writing says nothing.
        XCTAssertEqual(history.map { $0["writtenApartFrom"] as? [Int] }, [[], [3], [2]])
        // Paged: one change at a time from 2, then the end.
        let page = try XCTUnwrap(try call("GET", "/api/v1/sync?since=2&limit=1", as: "anna").json as? [String: Any])
        XCTAssertEqual((page["changes"] as? [[String: Any]])?.map { $0["sequence"] as? Int }, [3])
        XCTAssertEqual(page["more"] as? Bool, true)
        XCTAssertEqual(page["last"] as? Int, 4)
    }
}

/// The sign-in page, as a person on a phone uses it (no script): in Kazakh, a wrong password
/// keeps the login and says why in Kazakh; the right one leads back with a session.
final class SignInPageTests: XCTestCase {
    func testSignInAndOutOnThePage() throws {
        let server = WebProcess(extraEnvironment: ["AGRO_BCRYPT_COST": "4"])
        XCTAssertEqual(try server.cli(["farms", "add", "Kamenka"]).status, 0)
        XCTAssertEqual(
            try server.cli(
                ["users", "add", "anna", "--farm", "Kamenka", "--role", "agronomist"],
                extraEnvironment: ["AGRO_PASSWORD": "pass-anna-1"]
            ).status, 0)
        try server.start(web: ["--farm-journal"])
        let form = try server.get("/sign-in?lang=kk")
        XCTAssertEqual(form.status, 200)
        // The words of Localizable/kk.json, written here by hand.
        for words in [
            "Кіру", "Кіру аты", "Құпиясөз",
            "Шаруашылықтың алқаптар журналы: шаруашылық берген кіру атымен және құпиясөзбен кіріңіз.",
        ] { XCTAssertTrue(form.body.contains(words), words) }
        func post(_ body: String, cookie: String? = nil) throws -> WebProcess.Answer {
            var headers = ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "agro_lang=kk"]
            if let cookie { headers["Cookie"] = "agro_lang=kk; " + cookie }
            return try server.exchange("POST", "/sign-in", headers: headers, body: Data(body.utf8))
        }
        let wrong = try post("user=anna&password=guess-guess&next=%2Fjournal")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertTrue(wrong.body.contains("логин немесе құпиясөз қате"), wrong.body)
        XCTAssertTrue(wrong.body.contains(#"value="anna""#), "the login typed is kept")
        XCTAssertFalse(wrong.body.contains("guess-guess"), "the password is never written back")
        let right = try post("user=anna&password=pass-anna-1&next=%2Fjournal")
        XCTAssertEqual(right.status, 303)
        XCTAssertEqual(right.headers["location"], "/journal")
        let cookie = try XCTUnwrap(right.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        // Somewhere else than this site is not a place to go back to.
        XCTAssertEqual(try post("user=anna&password=pass-anna-1&next=%2F%2Fevil.example").headers["location"], "/")
        let signedIn = try server.get("/sign-in?lang=kk", headers: ["Cookie": cookie])
        XCTAssertTrue(signedIn.body.contains("Сіз anna ретінде кірдіңіз (Kamenka, агроном-маман)"), signedIn.body)
        let out = try server.exchange("POST", "/sign-out", headers: ["Cookie": cookie])
        XCTAssertEqual(out.status, 303)
        XCTAssertEqual(try server.get("/api/v1/session", headers: ["Cookie": cookie]).status, 401)
    }
}
