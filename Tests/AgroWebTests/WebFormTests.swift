import Foundation
import XCTest

@testable import AgroWeb

/// Numbers typed into a page's form, read as the page's language writes them.
final class TypedNumberTests: XCTestCase {
    func testNumbersAsEachLanguageWritesThem() {
        // Russian and Kazakh: a decimal comma, thousands grouped by a space of any width.
        let comma: [(String, Double?)] = [
            ("2 000", 2000), ("2\u{00A0}000", 2000), ("2\u{202F}000", 2000), ("12 500,5", 12500.5), ("0,75", 0.75),
            ("0.75", 0.75), (" 3000 ", 3000), ("1 234 567", 1_234_567), ("-1", -1),
            ("20 00", nil), ("2 0000", nil), ("0,5л", nil), ("abc", nil), ("1,5,0", nil), ("inf", nil), ("nan", nil),
            ("", nil), ("1e400", nil),
        ]
        for (text, expected) in comma {
            XCTAssertEqual(TypedNumber.parse(text, decimalComma: true), expected, "ru/kk \"\(text)\"")
        }
        // English: a decimal point, thousands grouped by commas or a space; a lone comma is decimal.
        let point: [(String, Double?)] = [
            ("2,000", 2000), ("1,234.5", 1234.5), ("2 000", 2000), ("0.75", 0.75), ("0,75", 0.75), ("1,234,567", 1_234_567),
            ("2,00,0", nil), ("12 34", nil),
        ]
        for (text, expected) in point {
            XCTAssertEqual(TypedNumber.parse(text, decimalComma: false), expected, "en \"\(text)\"")
        }
    }
}

/// The tank and plan forms as a person fills them in on a phone: what was typed stays in the
/// fields, a mistake is marked beside its field in the page's language with the field's own
/// label, names that fit several entries come as links, and nothing names a command-line flag
/// or a query parameter. Expectations written by hand from the bundled catalog.
final class WebFormTests: BundledCatalogWebTestCase {
    private func text(_ html: String) -> String { WebFieldPagesTests.text(html) }

    /// The markup of the label holding field `id`: the field and its message.
    private func label(of id: String, in html: String) -> String {
        guard let field = html.range(of: "id=\"\(id)\"") else { return "" }
        let start = html[..<field.lowerBound].range(of: "<label>", options: .backwards)?.lowerBound ?? field.lowerBound
        let end = html[field.upperBound...].range(of: "</label>")?.upperBound ?? html.endIndex
        return String(html[start..<end])
    }

    /// No flag of the command line, no query parameter's name, no interface key.
    private func assertNoMachineWords(_ html: String, file: StaticString = #filePath, line: UInt = #line) {
        let words = text(html)
        for word in ["--tank", "--dose", "--area", "--water", "--product", "dose=", "tank=", "area=", "water=", "product="] {
            XCTAssertFalse(words.contains(word), "\(word) in \(words)", file: file, line: line)
        }
        XCTAssertNil(words.range(of: WebFieldPagesTests.rawKey, options: .regularExpression), words, file: file, line: line)
    }

    func testTankMarksTheDoseOfTheRowAtFaultInKazakhAndKeepsWhatWasTyped() throws {
        let answer = try server.get(
            "/tank?product=tebuconazole-250-ec&dose=0%2C75&unit=l%2Fha&product=tribenuron-750-wg&dose=2%D0%BE&unit=g%2Fha"
                + "&area=100&water=200&tank=3000&lang=kk")
        XCTAssertEqual(answer.status, 200, answer.body)
        let html = answer.body
        // The second row's dose, as typed ("2о", a Cyrillic o), kept and marked in Kazakh.
        let dose = label(of: "f-dose2", in: html)
        XCTAssertTrue(dose.contains("value=\"2о\""), dose)
        XCTAssertTrue(dose.contains("aria-invalid=\"true\""), dose)
        XCTAssertTrue(text(dose).contains("Мөлшер: «2о» — сан емес"), text(dose))
        // The list above the form names the row as its legend does.
        XCTAssertTrue(text(html).contains("Препарат 2 · Мөлшер: «2о» — сан емес"), text(html))
        // The other fields keep what was typed and carry no mark.
        XCTAssertTrue(label(of: "f-dose1", in: html).contains("value=\"0,75\""))
        XCTAssertFalse(label(of: "f-dose1", in: html).contains("field-error"))
        XCTAssertTrue(label(of: "f-product2", in: html).contains("value=\"tribenuron-750-wg\""))
        XCTAssertTrue(label(of: "f-tank", in: html).contains("value=\"3000\""))
        XCTAssertTrue(html.contains("<option value=\"g/ha\" selected>"), "the second row's unit stays chosen")
        XCTAssertFalse(html.contains("id=\"result\""), "no result from a refused form")
        assertNoMachineWords(html)
    }

    func testTankTakesThousandsWrittenWithASpace() throws {
        for (lang, tank) in [("ru", "2%20000"), ("kk", "2%C2%A0000"), ("en", "2%2C000")] {
            let html = try server.get(
                "/tank?product=tebuconazole-250-ec&dose=0%2C5&unit=l%2Fha&area=100&water=200&tank=\(tank)&lang=\(lang)"
            ).body
            XCTAssertTrue(html.contains("id=\"result\""), "\(lang): \(text(html))")
            XCTAssertFalse(html.contains("field-error"), "\(lang): \(text(html))")
            // 100 ha at 200 l/ha is 20 000 l: ten loads of a 2000 l tank.
            let result = text(
                html.components(separatedBy: "id=\"result\"").last?.components(separatedBy: "</section>").first ?? "")
            XCTAssertTrue(result.contains("10"), "\(lang): \(result)")
            XCTAssertTrue(result.contains("2000"), "\(lang): \(result)")
        }
    }

    func testTankNumbersOutOfReachAreMarkedWithoutFlags() throws {
        for lang in ["en", "ru", "kk"] {
            let html = try server.get(
                "/tank?product=tebuconazole-250-ec&dose=0&area=&water=200&tank=-5&lang=\(lang)"
            ).body
            let words = text(html)
            switch lang {
            case "ru":
                XCTAssertTrue(text(label(of: "f-dose1", in: html)).contains("Норма: нужно число больше нуля, а не 0"), words)
                XCTAssertTrue(text(label(of: "f-area", in: html)).contains("Площадь, га: заполните это поле"), words)
                XCTAssertTrue(text(label(of: "f-tank", in: html)).contains("а не -5"), words)
            case "kk":
                XCTAssertTrue(text(label(of: "f-dose1", in: html)).contains("Мөлшер: нөлден үлкен сан керек, 0 емес"), words)
                XCTAssertTrue(text(label(of: "f-area", in: html)).contains("Алқап, га: бұл өрісті толтырыңыз"), words)
            default:
                XCTAssertTrue(text(label(of: "f-dose1", in: html)).contains("Dose: give a number above zero, not 0"), words)
                XCTAssertTrue(text(label(of: "f-area", in: html)).contains("Area, ha: fill this in"), words)
            }
            assertNoMachineWords(html)
        }
    }

    /// A dose outside the label's range is put beside that row's dose, in the page's words.
    func testTankDoseOutsideTheLabelIsMarkedOnItsRow() throws {
        let html = try server.get(
            "/tank?product=tribenuron-750-wg&dose=20&unit=g%2Fha&product=tebuconazole-250-ec&dose=9&unit=l%2Fha"
                + "&area=10&water=200&tank=600&lang=ru"
        ).body
        let dose = text(label(of: "f-dose2", in: html))
        XCTAssertTrue(dose.contains("Норма: "), dose)
        XCTAssertTrue(dose.contains("9 л/га"), dose)
        XCTAssertFalse(label(of: "f-dose1", in: html).contains("field-error"))
        assertNoMachineWords(html)
    }

    /// A plan form with a typo: the form comes back filled, the dose marked in Kazakh with the
    /// label beside it, no line of an internal file, no English column name.
    func testPlanFormKeepsWhatWasTypedAndMarksTheDoseInKazakh() throws {
        let form =
            "culture=winter-wheat&sowing=2025-09-10&harvest=2026-07-28&area=120&date1=2026-04-28&bbch1=25"
            + "&product1=tribenuron-750-wg&dose1=2%D0%BE&unit1=g%2Fha&pests1=descurainia-sophia"
        let answer = try server.exchange(
            "POST", "/plan?lang=kk", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        XCTAssertEqual(answer.status, 200, answer.body)
        let html = answer.body
        let dose = label(of: "f-dose1", in: html)
        XCTAssertTrue(dose.contains("value=\"2о\""), dose)
        XCTAssertTrue(text(dose).contains("Мөлшер: «2о» — сан емес"), text(dose))
        XCTAssertTrue(text(html).contains("1-өңдеу · Мөлшер: «2о» — сан емес"), text(html))
        // Everything else as typed.
        XCTAssertTrue(html.contains("<option value=\"winter-wheat\" selected>"), "the culture stays chosen")
        XCTAssertTrue(label(of: "f-sowing", in: html).contains("value=\"2025-09-10\""))
        XCTAssertTrue(label(of: "f-area", in: html).contains("value=\"120\""))
        XCTAssertTrue(label(of: "f-bbch1", in: html).contains("value=\"25\""))
        XCTAssertTrue(label(of: "f-product1", in: html).contains("value=\"tribenuron-750-wg\""))
        XCTAssertTrue(label(of: "f-pests1", in: html).contains("value=\"descurainia-sophia\""))
        XCTAssertTrue(html.contains("<option value=\"g/ha\" selected>"))
        let words = text(html)
        XCTAssertNil(words.range(of: #"\d-жол"#, options: .regularExpression), "no line of a file the person never wrote")
        XCTAssertFalse(words.contains("dose"), words)
        XCTAssertFalse(words.contains("2.о"), words)
        assertNoMachineWords(html)
    }

    /// A checked plan keeps its form filled; numbers as Russian writes them are read.
    func testPlanFormStaysFilledAfterACheckAndReadsRussianNumbers() throws {
        let form =
            "culture=winter-wheat&harvest=2026-07-28&area=1%20200&date1=2026-04-28&bbch1=25"
            + "&product1=tribenuron-750-wg&dose1=20&unit1=g%2Fha&pests1=descurainia-sophia"
        let html = try server.exchange(
            "POST", "/plan?lang=ru", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8)
        ).body
        XCTAssertTrue(html.contains("id=\"report\""), text(html))
        XCTAssertTrue(text(html).contains("1200 га"), text(html))
        XCTAssertTrue(label(of: "f-area", in: html).contains("value=\"1 200\""))
        XCTAssertTrue(label(of: "f-dose1", in: html).contains("value=\"20\""))
        XCTAssertTrue(html.contains("<option value=\"winter-wheat\" selected>"))
        XCTAssertFalse(html.contains("field-error"), text(html))
    }

    /// A pest typed by a name several pests share: the candidates as links that check the
    /// plan again with the one chosen.
    func testPlanPestTypedByASharedNameOffersTheCandidatesAsLinks() throws {
        let form =
            "culture=winter-wheat&date1=2026-05-20&bbch1=37&product1=tebuconazole-250-ec&dose1=0%2C5&unit1=l%2Fha"
            + "&pests1=%D1%81%D0%B5%D0%BF%D1%82%D0%BE%D1%80%D0%B8%D0%BE%D0%B7"
        let html = try server.exchange(
            "POST", "/plan?lang=ru", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8)
        ).body
        let pests = label(of: "f-pests1", in: html)
        XCTAssertTrue(text(pests).contains("Вредный объект: «септориоз» подходит к нескольким; выберите:"), text(pests))
        XCTAssertTrue(pests.contains("value=\"септориоз\""), pests)
        let links = pests.components(separatedBy: "<a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertGreaterThan(links.count, 1, pests)
        let chosen = try XCTUnwrap(links.first { $0.contains("zymoseptoria-tritici") }, "\(links)")
        XCTAssertTrue(chosen.hasPrefix("/plan?"), chosen)
        // Following the link checks the plan with the pest chosen and the rest as typed.
        let checked = try server.get(chosen.replacingOccurrences(of: "&amp;", with: "&") + "&lang=ru").body
        XCTAssertTrue(checked.contains("id=\"report\""), text(checked))
        XCTAssertTrue(label(of: "f-pests1", in: checked).contains("value=\"zymoseptoria-tritici\""))
        XCTAssertTrue(label(of: "f-dose1", in: checked).contains("value=\"0,5\""))
        assertNoMachineWords(checked)
    }

    /// A pasted plan with a mistake keeps the text in its box and says what is wrong beside it.
    func testPastedPlanStaysInItsBoxWithTheProblemBesideIt() throws {
        let plan = #"{"culture": "winter-wheat", "applications": []}"#
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "text", value: plan)]
        let body = try XCTUnwrap(form.percentEncodedQuery)
        let html = try server.exchange(
            "POST", "/plan?lang=en", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)
        ).body
        XCTAssertTrue(html.contains("{&quot;culture&quot;: &quot;winter-wheat&quot;"), "the text stays in its box")
        let box = html.components(separatedBy: "id=\"f-text\"").last ?? ""
        XCTAssertTrue(box.contains("class=\"field-error\""), box)
        XCTAssertTrue(text(html).contains("or paste the plan: "), text(html))
    }
}

/// A pasted plan's name retyped as an id for a choice's link: only a whole field changes.
final class PlanTextLinkTests: XCTestCase {
    func testAWholeFieldIsRetypedAndNothingElse() throws {
        let json = #"{"culture": "winter-wheat", "applications": [{"product": "tebu", "pests": ["Септориоз", "septoria x"]}]}"#
        let link = try XCTUnwrap(Pages.planTextLink(json, replacing: "септориоз", with: "zymoseptoria-tritici"))
        let text = try XCTUnwrap(
            URLComponents(string: link)?.queryItems?.first { $0.name == "text" }?.value)
        XCTAssertEqual(
            text,
            #"{"culture": "winter-wheat", "applications": [{"product": "tebu", "pests": ["zymoseptoria-tritici", "septoria x"]}]}"#
        )
        let csv = "culture,product,dose,unit,pests\nwinter-wheat,tebu,0.5,l/ha,септориоз;aphid\n"
        let retyped = try XCTUnwrap(
            URLComponents(string: try XCTUnwrap(Pages.planTextLink(csv, replacing: "септориоз", with: "p-1")))?.queryItems?
                .first?.value)
        XCTAssertEqual(retyped, "culture,product,dose,unit,pests\nwinter-wheat,tebu,0.5,l/ha,p-1;aphid\n")
        XCTAssertNil(Pages.planTextLink(csv, replacing: "септ", with: "p-1"), "a part of a field is no name")
    }
}

/// A search of more words than the search takes keeps the search box with what was typed
/// and says the limit beside it, in the page's language.
final class WebSearchFormTests: BundledCatalogWebTestCase {
    func testTooLongASearchKeepsTheBoxAndSaysTheLimitBesideIt() throws {
        let words = (1...12).map { "сөз\($0)" }.joined(separator: " ")
        let query = try XCTUnwrap(words.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let answer = try server.get("/?q=\(query)&lang=kk")
        XCTAssertEqual(answer.status, 400)
        let html = answer.body
        let box = try XCTUnwrap(html.range(of: "<input id=\"q\"")).lowerBound
        let input = String(html[box...].prefix { $0 != ">" })
        XCTAssertTrue(input.contains("value=\"\(words)\""), input)
        XCTAssertTrue(input.contains("aria-invalid=\"true\" aria-describedby=\"q-error\""), input)
        let message = try XCTUnwrap(
            html.components(separatedBy: "<p class=\"field-error\" id=\"q-error\">").dropFirst().first?.components(
                separatedBy: "</p>"
            ).first)
        XCTAssertEqual(message, "іздеу ең көбі 10 сөз бен 200 таңбаны қабылдайды")
        XCTAssertFalse(WebFieldPagesTests.text(html).contains("q="))
    }
}
