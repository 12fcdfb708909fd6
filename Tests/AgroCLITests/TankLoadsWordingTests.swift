import Foundation
import XCTest

/// `agro tank` counts its loads in the plural forms of the language (CLDR: English one/other,
/// Russian one/few/many/other, Kazakh one/other): "1 loads: 0 full of 3000 l" was printed.
/// Every expectation is written by hand from the arithmetic in its comment.
final class TankLoadsWordingTests: XCTestCase {
    let cli = CLIRunner()

    /// The loads sentence of `agro tank` for `area` ha at 200 l/ha with a 3000 l tank.
    private func loads(area: String, locale: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try cli.run([
            "--lang", locale, "tank", "--product", "tebuconazole-250-ec", "--dose", "0.5", "--area", area, "--water", "200",
            "--tank", "3000",
        ])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        // The facts under the title: spray volume, loads, area per load.
        let facts = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
        XCTAssertGreaterThanOrEqual(facts.count, 3, result.stdout, file: file, line: line)
        return facts.count >= 2 ? facts[1].trimmingCharacters(in: .whitespaces) : ""
    }

    func testLoadsAreCountedInEachLanguage() throws {
        let expected: [(area: String, words: [String: String])] = [
            // 10 ha × 200 l/ha = 2000 l: one load, not full.
            ("10", ["en": "1 load of 2000 l", "ru": "1 заправка: 2000 л", "kk": "Бакты 1 рет толтыру: 2000 л"]),
            // 15 ha: 3000 l, exactly one full tank.
            ("15", ["en": "1 load of 3000 l", "ru": "1 заправка: 3000 л", "kk": "Бакты 1 рет толтыру: 3000 л"]),
            // 20 ha: 4000 l = one full load and 1000 l.
            (
                "20",
                [
                    "en": "2 loads: 1 full of 3000 l and a last one of 1000 l",
                    "ru": "2 заправки: 1 полная по 3000 л и последняя 1000 л",
                    "kk": "Бакты 2 рет толтыру: 1 толық бак 3000 л-ден және соңғысы 1000 л",
                ]
            ),
            // 30 ha: 6000 l = two full loads.
            ("30", ["en": "2 loads of 3000 l", "ru": "2 заправки по 3000 л", "kk": "Бакты 2 рет толтыру, әрқайсысы 3000 л"]),
            // 75 ha: 15000 l = five full loads.
            ("75", ["en": "5 loads of 3000 l", "ru": "5 заправок по 3000 л", "kk": "Бакты 5 рет толтыру, әрқайсысы 3000 л"]),
            // 70 ha: 14000 l = four full loads and 2000 l.
            (
                "70",
                [
                    "en": "5 loads: 4 full of 3000 l and a last one of 2000 l",
                    "ru": "5 заправок: 4 полные по 3000 л и последняя 2000 л",
                    "kk": "Бакты 5 рет толтыру: 4 толық бак 3000 л-ден және соңғысы 2000 л",
                ]
            ),
            // 80 ha: 16000 l = five full loads and 1000 l.
            (
                "80",
                [
                    "en": "6 loads: 5 full of 3000 l and a last one of 1000 l",
                    "ru": "6 заправок: 5 полных по 3000 л и последняя 1000 л",
                    "kk": "Бакты 6 рет толтыру: 5 толық бак 3000 л-ден және соңғысы 1000 л",
                ]
            ),
            // 320 ha: 64000 l = 21 full loads and 1000 l (Russian 21 takes the form of 1).
            (
                "320",
                [
                    "en": "22 loads: 21 full of 3000 l and a last one of 1000 l",
                    "ru": "22 заправки: 21 полная по 3000 л и последняя 1000 л",
                    "kk": "Бакты 22 рет толтыру: 21 толық бак 3000 л-ден және соңғысы 1000 л",
                ]
            ),
        ]
        for (area, words) in expected {
            for (locale, sentence) in words {
                XCTAssertEqual(try loads(area: area, locale: locale), sentence, "\(area) ha, \(locale)")
            }
        }
    }
}
