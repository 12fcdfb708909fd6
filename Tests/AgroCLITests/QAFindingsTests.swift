import Foundation
import XCTest

/// Defects found by using the CLI in Kazakh, Russian and English, each pinned through the built
/// program and the bundled catalog. Expected texts are written by hand from Database/content and
/// Localizable.
final class QAFindingsTests: XCTestCase {
    let cli = CLIRunner()

    /// `agro culture wheat` named both of wheat's members "Barley" (the first culture of the
    /// names table), in every language.
    func testCultureMembersAreNamedAfterThemselves() throws {
        // cultures.json: spring-wheat and winter-wheat have wheat as their parent.
        let expected = [
            "en": ["spring-wheat": "Spring wheat", "winter-wheat": "Winter wheat"],
            "ru": ["spring-wheat": "Пшеница яровая", "winter-wheat": "Пшеница озимая"],
            "kk": ["spring-wheat": "Жаздық бидай", "winter-wheat": "Күздік бидай"],
        ]
        for (locale, members) in expected {
            let document = try cli.json(["--lang", locale, "culture", "wheat"])
            let culture = try XCTUnwrap(document["culture"] as? [String: Any], locale)
            let children = try XCTUnwrap(culture["children"] as? [[String: Any]], locale)
            var found: [String: String] = [:]
            for child in children { found[child["id"] as? String ?? ""] = child["name"] as? String }
            XCTAssertEqual(found, members, locale)
            // And the card a person reads.
            let card = try cli.run(["--lang", locale, "culture", "wheat"])
            XCTAssertEqual(card.status, 0, card.stderr)
            for name in members.values {
                XCTAssertTrue(card.stdout.contains(name), "\(locale): \(name) missing from\n\(card.stdout)")
            }
        }
    }

    /// `agro --lang kk catalog info` (and `db status`) showed the Russian title and attribution
    /// although catalog.json has Kazakh ones.
    func testCatalogTitleIsInTheReadersLanguage() throws {
        // catalog.json, title.kk / title.en and the start of attribution.kk.
        let kazakh = "Демо Агро Қазақстан — өсімдіктерді қорғау құралдарының демонстрациялық анықтамалығы"
        let english = "Demo Agro Kazakhstan — demo crop-protection reference catalog"
        let kazakhAttribution = "Ойдан шығарылған компанияның демонстрациялық каталогы."
        for command in [["catalog", "info"], ["db", "status"]] {
            let kk = try cli.run(["--lang", "kk"] + command)
            XCTAssertEqual(kk.status, 0, kk.stderr)
            XCTAssertEqual(kk.stdout.lines.first, kazakh, command.joined(separator: " "))
            XCTAssertFalse(kk.stdout.contains("Демонстрационный"), kk.stdout)
            let info = try XCTUnwrap(try cli.json(["--lang", "kk"] + command)["info"] as? [String: Any])
            XCTAssertEqual(info["title"] as? String, kazakh)
            XCTAssertTrue((info["attribution"] as? String ?? "").hasPrefix(kazakhAttribution), "\(info)")
            let en = try cli.run(["--lang", "en"] + command)
            XCTAssertEqual(en.stdout.lines.first, english, command.joined(separator: " "))
        }
    }

    /// `agro tank` wrote "10.5 га", "31.5 l" and "11340 g" to Russian and Kazakh readers: numbers
    /// with the decimal separator of the language (number.decimal) and units in its letters.
    func testTankWritesNumbersAndUnitsAsTheLanguageDoes() throws {
        // 10.5 ha × 150 l/ha = 1575 l, one 2000 l tank covers 2000 / 150 = 13.333 ha;
        // 3 l/ha × 10.5 ha = 31.5 l; glyphosate 360 g/l × 31.5 l = 11340 g, grouped from five digits.
        let arguments = [
            "tank", "--product", "glyphosate-360-sl", "--dose", "3", "--area", "10.5", "--water", "150", "--tank", "2000",
        ]
        let expected = [
            "kk": ["10,5 га, 150 л/га, бак 2000 л", "Бір толық бак — 13,333 га", "31,5 л", "Глифосат: 11\u{00A0}340 г"],
            "ru": ["10,5 га, 150 л/га, бак 2000 л", "Одна полная заправка — 13,333 га", "31,5 л", "Глифосат: 11\u{00A0}340 г"],
            "en": ["10.5 ha at 150 l/ha with a 2000 l tank", "One full load covers 13.333 ha", "31.5 l", "Glyphosate: 11,340 g"],
        ]
        for (locale, texts) in expected {
            let result = try cli.run(["--lang", locale] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            for text in texts {
                XCTAssertTrue(result.stdout.contains(text), "\(locale): \"\(text)\" missing from\n\(result.stdout)")
            }
            if locale != "en" {
                XCTAssertNil(result.stdout.range(of: #"\d\.\d"#, options: .regularExpression), "\(locale):\n\(result.stdout)")
                XCTAssertNil(
                    result.stdout.range(of: #"\d (l|g)\b"#, options: .regularExpression), "\(locale):\n\(result.stdout)")
            }
        }
    }
}
