import Foundation
import XCTest

/// The field journal's pages on loopback (`agro web --journal`), posted as a browser without
/// JavaScript posts them: a field added, a record checked before saving and after, what was
/// typed kept beside its message, the findings in kk/ru/en; and no page without `--journal`.
/// Expectations written by hand from Database/content (Tebuconazole 250 g/L EC on winter
/// wheat: 0.5-1.0 l/ha, BBCH 30-59) and the Localizable files.
final class JournalPagesTests: XCTestCase {
    private var server: WebProcess!

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func start(journal: Bool) throws {
        server = WebProcess()
        try server.start(["--catalog", BundledCatalogWebTestCase.catalog], web: journal ? ["--journal"] : [])
    }

    private func form(_ pairs: [(String, String)]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(
            pairs.map { name, value in
                name + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
            }.joined(separator: "&").utf8)
    }

    private func post(_ target: String, _ pairs: [(String, String)]) throws -> WebProcess.Answer {
        try server.exchange(
            "POST", target, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form(pairs))
    }

    private func text(_ html: String) -> String { WebFieldPagesTests.text(html) }

    /// The value of the input with id `id`, its entities decoded.
    private func value(of id: String, in html: String) -> String? {
        guard let field = html.range(of: "id=\"\(id)\"") else { return nil }
        let tag = html[field.upperBound...].prefix { $0 != ">" }
        guard let start = tag.range(of: "value=\"") else { return nil }
        return text(String(tag[start.upperBound...].prefix { $0 != "\"" }))
    }

    /// The field's error message, beside it.
    private func error(of id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)-error\">") else { return nil }
        return text(String(html[start.upperBound...].prefix { $0 != "<" }))
    }

    /// The records the API lists.
    private func stored() throws -> [[String: Any]] {
        let answer = try server.get("/api/v1/journal")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [[String: Any]], answer.body)
    }

    private func addField() throws -> String {
        let added = try post(
            "/journal?lang=kk",
            [
                ("name", "Field 7"), ("area", "12,5"), ("culture", "winter-wheat"), ("sown", "2025-09-10"),
                ("harvest", "2026-07-28"),
            ])
        XCTAssertEqual(added.status, 303, added.body)
        let location = try XCTUnwrap(added.headers["location"])
        XCTAssertTrue(location.hasPrefix("/journal/field/"), location)
        return location
    }

    private func record(dose: String, action: String, id: String) -> [(String, String)] {
        [
            ("id", id), ("start", "2026-05-20T07:30"), ("bbch", "32"), ("product1", "tebuconazole-250-ec"),
            ("dose1", dose), ("unit1", "l/ha"), ("pests1", "zymoseptoria-tritici"), ("water", "200"),
            ("area", "12,5"), ("operator", "A. Serikbayev"), ("wind", "2,5"), ("windSource", "forecast"),
            ("action", action),
        ]
    }

    func testNoJournalPagesWithoutTheFlag() throws {
        try start(journal: false)
        for path in ["/journal", "/journal/field/field-7", "/journal/field/x/record", "/journal/record/0b6d3f44"] {
            XCTAssertEqual(try server.get(path).status, 404, path)
        }
        XCTAssertEqual(try post("/journal", [("name", "Field 7")]).status, 404)
        XCTAssertFalse(try server.get("/?lang=en").body.contains("href=\"/journal\""), "the menu links no journal")
    }

    func testAFieldAndARecordCheckedBeforeAndAfterSavingInEachLanguage() throws {
        try start(journal: true)
        XCTAssertTrue(try server.get("/?lang=en").body.contains("<a href=\"/journal\">Field journal</a>"), "the menu links it")

        // A field whose area is not a number: kept as typed, marked beside it in Kazakh.
        let refused = try post(
            "/journal?lang=kk", [("name", "Field 7"), ("area", "12о"), ("culture", "winter-wheat")])
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(value(of: "f-name", in: refused.body), "Field 7")
        XCTAssertEqual(value(of: "f-area", in: refused.body), "12о")
        XCTAssertEqual(
            error(of: "f-area", in: refused.body), "Алқап, га: «12о» — сан емес; мысалы, 0,75 немесе 2 000 деп жазыңыз")
        let fieldPage = try addField()
        // "12,5" read with the Kazakh decimal comma.
        XCTAssertTrue(text(try server.get(fieldPage + "?lang=en").body).contains("Area, ha 12.5"))

        let formPage = fieldPage + "/record"
        let blank = try server.get(formPage + "?lang=ru")
        XCTAssertEqual(blank.status, 200)
        XCTAssertEqual(value(of: "f-area", in: blank.body), "12,5", "the area defaults to the field's")
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        XCTAssertTrue(value(of: "f-start", in: blank.body)?.hasPrefix(today) == true, "the time defaults to now")

        // A dose that is not a number: nothing checked, what was typed kept, the label in Russian.
        let id = "5f0e8c2a-9d3b-4b7e-8f1a-2c4d6e8f0a1b"
        let typo = try post(formPage + "?lang=ru", record(dose: "1,5о", action: "save", id: id))
        XCTAssertEqual(typo.status, 400)
        XCTAssertEqual(value(of: "f-dose1", in: typo.body), "1,5о")
        XCTAssertEqual(value(of: "f-operator", in: typo.body), "A. Serikbayev")
        XCTAssertEqual(value(of: "f-wind", in: typo.body), "2,5")
        XCTAssertTrue(typo.body.contains("<option value=\"forecast\" selected>"), "the reading's source kept")
        XCTAssertEqual(error(of: "f-dose1", in: typo.body), "Норма: «1,5о» — не число; пишите, например, 0,75 или 2 000")
        XCTAssertEqual(try stored().count, 0, "nothing stored")

        // 1.5 l/ha is above the registered 0.5-1.0: checked before saving, nothing stored yet.
        let expected = [
            "ru": ("норма", "Тебуконазол 250 г/л КЭ: доза 1,5 л/га вне зарегистрированной нормы расхода 0,5–1 л/га"),
            "kk": ("мөлшер", "Тебуконазол 250 г/л КЭ: 1,5 л/га мөлшері тіркелген шығын нормасынан (0,5–1 л/га) тыс"),
            "en": ("dose", "Tebuconazole 250 g/L EC: 1.5 l/ha is outside the registered 0.5-1 l/ha"),
        ]
        for (code, (rule, message)) in expected {
            let dose = code == "en" ? "1.5" : "1,5"
            let checked = try post(formPage + "?lang=\(code)", record(dose: dose, action: "check", id: id))
            XCTAssertEqual(checked.status, 200, checked.body)
            let words = text(checked.body)
            XCTAssertTrue(words.contains("✗ [\(rule)] \(message)"), "[\(code)] \(words)")
            XCTAssertEqual(value(of: "f-dose1", in: checked.body), dose)
            XCTAssertNil(words.range(of: WebFieldPagesTests.rawKey, options: .regularExpression), words)
            XCTAssertNil(words.range(of: #"\bfinding\.[a-z]"#, options: .regularExpression), words)
        }
        XCTAssertEqual(try stored().count, 0, "a check stores nothing")

        // Saved: to the record's page, its findings there in each language; twice, stored once.
        for _ in 1...2 {
            let saved = try post(formPage + "?lang=kk", record(dose: "1,5", action: "save", id: id))
            XCTAssertEqual(saved.status, 303, saved.body)
            XCTAssertEqual(saved.headers["location"], "/journal/record/\(id)?saved=1")
        }
        let list = try stored()
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual((list.first?["weather"] as? [String: [String: Any]])?["wind"]?["source"] as? String, "forecast")
        XCTAssertEqual(list.first?["water"] as? Double, 200)
        for (code, (rule, message)) in expected {
            let page = try server.get("/journal/record/\(id)?saved=1&lang=\(code)")
            XCTAssertEqual(page.status, 200)
            let words = text(page.body)
            XCTAssertTrue(words.contains("✗ [\(rule)] \(message)"), "[\(code)] \(words)")
            if code != "en" { XCTAssertFalse(words.contains("outside the registered"), words) }
        }
        // The field's list marks it.
        let field = try server.get(fieldPage + "?lang=ru").body
        XCTAssertTrue(
            field.contains("class=\"has-errors\"><p class=\"targets\"><a href=\"/journal/record/\(id)\">20.05.2026 07:30</a>"),
            field)
        XCTAssertTrue(text(field).contains("1 нарушение"), text(field))

        // A later spray of the same product on the same day: the interval is its finding, and
        // the first record's page still shows what was found when it was written.
        let second = "7a1c3e5f-0b2d-4e6f-8a9b-1c2d3e4f5a6b"
        XCTAssertEqual(try post(formPage + "?lang=en", record(dose: "0.75", action: "save", id: second)).status, 303)
        let later = text(try server.get("/journal/record/\(second)?lang=en").body)
        XCTAssertTrue(later.contains("✗ [interval] Tebuconazole 250 g/L EC: 0 days after application 1"), later)
        let first = text(try server.get("/journal/record/\(id)?lang=en").body)
        XCTAssertTrue(first.contains("the record has 1 error; it is kept and marked"), first)
        XCTAssertFalse(first.contains("[interval]"), first)
    }
}

/// The same pages on a farm's shared journal (`agro web --farm-journal`): a signed-in
/// agronomist adds a field and saves a record through them; an inspector reads and checks but
/// cannot save; no session, no journal.
final class FarmJournalPagesTests: XCTestCase {
    private var server: WebProcess!

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func form(_ pairs: [(String, String)]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(
            pairs.map { $0.0 + "=" + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1) }
                .joined(separator: "&").utf8)
    }

    private func signIn(_ login: String) throws -> String {
        let answer = try server.exchange(
            "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
            body: Data(#"{"user": "\#(login)", "password": "pass-\#(login)-1"}"#.utf8))
        let cookie = try XCTUnwrap(answer.headers["set-cookie"], answer.body)
        return String(cookie.split(separator: ";")[0])
    }

    func testASignedInAgronomistWritesThroughThePages() throws {
        server = WebProcess(extraEnvironment: ["AGRO_BCRYPT_COST": "4"])
        XCTAssertEqual(try server.cli(["farms", "add", "Kamenka"]).status, 0)
        for (login, role) in [("anna", "agronomist"), ("ivan", "inspector")] {
            let added = try server.cli(
                ["users", "add", login, "--farm", "Kamenka", "--role", role],
                extraEnvironment: ["AGRO_PASSWORD": "pass-\(login)-1"])
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        try server.start(["--catalog", BundledCatalogWebTestCase.catalog], web: ["--farm-journal"])
        let unsigned = try server.get("/journal?lang=en")
        XCTAssertEqual(unsigned.status, 303, "no session: to the sign-in page")
        XCTAssertEqual(unsigned.headers["location"], "/sign-in?next=/journal%3Flang%3Den")

        let anna = try signIn("anna"), ivan = try signIn("ivan")
        let origin = "http://127.0.0.1:\(server.port)"
        func post(_ target: String, _ pairs: [(String, String)], as cookie: String) throws -> WebProcess.Answer {
            try server.exchange(
                "POST", target,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Origin": origin],
                body: form(pairs))
        }
        let added = try post(
            "/journal?lang=en", [("name", "Field 7"), ("area", "50"), ("culture", "winter-wheat")], as: anna)
        XCTAssertEqual(added.status, 303, added.body)
        let fieldPage = try XCTUnwrap(added.headers["location"])
        let record: [(String, String)] = [
            ("start", "2026-05-20T07:30"), ("bbch", "32"), ("product1", "tebuconazole-250-ec"), ("dose1", "0.75"),
            ("unit1", "l/ha"), ("pests1", "zymoseptoria-tritici"),
        ]
        // The inspector sees the field and may check a record, not save it.
        XCTAssertEqual(try server.get(fieldPage + "?lang=en", headers: ["Cookie": ivan]).status, 200)
        let checked = try post(fieldPage + "/record?lang=en", record + [("action", "check")], as: ivan)
        XCTAssertEqual(checked.status, 200, checked.body)
        XCTAssertTrue(checked.body.contains("id=\"checked\""))
        XCTAssertEqual(try post(fieldPage + "/record?lang=en", record + [("action", "save")], as: ivan).status, 403)
        let saved = try post(fieldPage + "/record?lang=en", record + [("action", "save")], as: anna)
        XCTAssertEqual(saved.status, 303, saved.body)
        let list = try server.get(fieldPage + "?lang=en", headers: ["Cookie": ivan]).body
        XCTAssertTrue(list.contains("<a href=\"/journal/record/"), list)
        XCTAssertTrue(list.contains("<a href=\"/journal\">Field journal</a>"), "the menu links the journal")
    }
}
