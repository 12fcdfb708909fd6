import Foundation
import XCTest

/// What a field agronomist reads on the pages, in the words expected by hand: dates as the
/// language writes them, headings that read as a sentence, the search's words. The bundled
/// catalog (Propiconazole 250 g/L EC, KZ-DEMO-0025, expired 2025-06-30; MCPA 750 g/L SL,
/// KZ-DEMO-0005, registered until 2027-09-30), a real server on loopback.
final class WebReadingTests: BundledCatalogWebTestCase {
    func text(_ target: String) throws -> String {
        let answer = try server.get(target)
        XCTAssertEqual(answer.status, 200, target)
        return WebFieldPagesTests.text(answer.body)
    }

    /// Russian and Kazakh write a date day first with dots, English keeps the ISO date: on the
    /// product card (running and expired), the uses page's expired mark, the search and news.
    func testDatesReadAsTheLanguageWritesThem() throws {
        let expired = "/product/propiconazole-250-ec"
        XCTAssertTrue(try text(expired + "?lang=kk").contains("тіркеу мерзімі 30.06.2025 өтті"))
        XCTAssertTrue(try text(expired + "?lang=ru").contains("регистрация истекла 30.06.2025"))
        XCTAssertTrue(try text(expired + "?lang=en").contains("registration expired 2025-06-30"))
        let running = try text("/product/mcpa-750-sl?lang=kk")
        XCTAssertTrue(running.contains("Жарамдылық мерзімі 30.09.2027"), running)
        XCTAssertFalse(running.contains("2027-09-30"), running)

        let uses = try text("/uses?culture=spring-wheat&pest=zymoseptoria-tritici&lang=ru")
        XCTAssertTrue(uses.contains("Пропиконазол 250 г/л КЭ KZ-DEMO-0025 регистрация истекла 30.06.2025"), uses)

        // News: "Септориоз и ржавчина…" is dated 2025-07-08 in the demo content.
        let search = try text("/?lang=kk&q=%D1%81%D0%B5%D0%BF%D1%82%D0%BE%D1%80%D0%B8%D0%BE%D0%B7")  // септориоз
        XCTAssertTrue(search.contains("жаңалық 08.07.2025"), search)
        XCTAssertNil(search.range(of: #"\d{4}-\d{2}-\d{2}"#, options: .regularExpression), search)
        let news = try text("/news?lang=ru")
        XCTAssertNil(news.range(of: #"\b\d{4}-\d{2}-\d{2}\b"#, options: .regularExpression), news)
        XCTAssertNotNil(news.range(of: #"\b\d{2}\.\d{2}\.\d{4}\b"#, options: .regularExpression), news)

        // The tank's warning for the expired product, worded by the presentation layer.
        let tank = try text("/tank?product=propiconazole-250-ec&dose=0.5&area=10&water=200&tank=600&lang=ru")
        XCTAssertTrue(tank.contains("регистрация истекла 30.06.2025"), tank)
        XCTAssertFalse(tank.contains("2025-06-30"), tank)
    }

    /// The Kazakh heading of a uses page starts with the pest, whose name begins with a
    /// capital, and names the culture in quotes, as the Russian one does.
    func testKazakhUsesHeadingReadsAsASentence() throws {
        let body = try server.get("/uses?culture=spring-wheat&pest=zymoseptoria-tritici&lang=kk").body
        XCTAssertTrue(
            body.contains(
                "<h1 id=\"results\">Бидай жапырағының септориозы: «Жаздық бидай» дақылындағы тіркелген қолдану регламенттері</h1>"
            ),
            String(body.prefix(3000)))
        XCTAssertTrue(body.contains(">Сұрыптау <select name=\"sort\">"))
    }

    /// A registration number never breaks at its hyphens, and the number of applications (words,
    /// "маусымына 2 реттен артық емес") is free to wrap on a narrow screen: only ranges keep.
    func testApplicationsWrapAndRegistrationsKeep() throws {
        let css = try server.get("/static/app.css").body
        XCTAssertTrue(css.contains(".reg, span.date { white-space: nowrap; }"))
        for target in ["/uses?culture=spring-wheat&pest=zymoseptoria-tritici&lang=kk", "/product/tebuconazole-250-ec?lang=kk"] {
            let body = try server.get(target).body
            XCTAssertTrue(body.contains("<dd>маусымына 2 реттен артық емес</dd>"), target)
            XCTAssertFalse(body.contains("class=\"keep\">маусымына"), target)
        }
    }

    /// A region's contacts: the representative's and the dealer's numbers are buttons to tap
    /// (Abai region, KZ-10, in the demo contacts: Әйгерім Нұрланова, +7 700 000 01 01), the
    /// mail on a line of its own.
    func testRegionContactsAreButtonsToCall() throws {
        let body = try server.get("/regions?region=KZ-10&lang=kk").body
        XCTAssertTrue(body.contains("<strong>Әйгерім Нұрланова</strong> — Аймақтық менеджер"), body)
        XCTAssertTrue(
            body.contains(
                "<p class=\"reach\"><a class=\"button\" href=\"tel:+77000000101\">☎ +7 700 000 01 01</a> "
                    + "<a href=\"mailto:a.nurlanova.demo@example.com\">a.nurlanova.demo@example.com</a></p>"), body)
        XCTAssertTrue(body.contains("<a class=\"button\" href=\"tel:+77000000201\">☎ +7 700 000 02 01</a>"), body)
    }

    /// The protection scheme never breaks a BBCH window or a dose across lines (the maize
    /// scheme's pre-emergence stage: BBCH 0–8, S-metolachlor at 1.5 l/ha).
    func testSchemeKeepsRangesAndDosesWhole() throws {
        let body = try server.get("/scheme/maize?lang=kk").body
        XCTAssertTrue(body.contains("(<span class=\"keep\">BBCH 0–8</span>)"), body)
        XCTAssertTrue(body.contains("С-метолахлор 960 г/л КЭ</a> — <span class=\"keep\">1,5 л/га</span>"), body)
    }

    /// A plan given by ids reads by product names and dates in the page's language, as its
    /// findings do: "01.07.2026 · BBCH 65 — Пропиконазол 250 г/л КЭ 0,8 л/га".
    func testPlanApplicationsReadByNameAndLocalDate() throws {
        let plan = """
            {"culture": "spring-wheat", "sowing": "2026-05-05", "harvest": "2026-08-20", "area": 120, "applications": [
             {"date": "2026-07-01", "bbch": 65, "product": "propiconazole-250-ec", "dose": 0.8, "unit": "l/ha",
              "pests": ["zymoseptoria-tritici"]}]}
            """
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "text", value: plan)]
        let body = try XCTUnwrap(form.percentEncodedQuery).replacingOccurrences(of: "+", with: "%2B")
        let answer = try server.exchange(
            "POST", "/plan?lang=kk", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertTrue(
            answer.body.contains("<h2>Маусым жоспары: Жаздық бидай · 120 га · себу 05.05.2026 · егін жинау 20.08.2026</h2>"),
            answer.body)
        XCTAssertTrue(answer.body.contains("<p><strong>01.07.2026 · BBCH\u{00A0}65 — Пропиконазол 250 г/л КЭ 0,8 л/га</strong>"))
        XCTAssertFalse(answer.body.contains("propiconazole-250-ec 0,8"))
        // The registration expired on 2025-06-30: the finding says so with the Kazakh page's date.
        XCTAssertTrue(answer.body.contains("30.06.2025"), answer.body)
        XCTAssertFalse(answer.body.contains("2025-06-30"), answer.body)
    }
}
