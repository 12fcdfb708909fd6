import AgroPresentation
import Foundation
import XCTest

/// "24000 л" on the tank page: numbers a person reads group their thousands as the language
/// writes them (CLDR's group separator: U+00A0 in Russian and Kazakh, "," in English), from five
/// digits on; JSON and CSV keep plain numbers for the programs that read them. Every expectation
/// is written by hand.
final class NumberGroupingTests: XCTestCase {
    private static let localizable = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Localizable")
    let cli = CLIRunner()

    /// File sizes and time stamps on the catalog's cards (`catalog info`, `db status`, `db
    /// check`) in the reader's units and date order; a text that is no time stamp stays as it is.
    func testSizesAndTimeStampsInEachLanguage() throws {
        let english = Localizer(locale: "en", directory: Self.localizable)
        let russian = Localizer(locale: "ru", directory: Self.localizable)
        let kazakh = Localizer(locale: "kk", directory: Self.localizable)
        XCTAssertEqual(english.bytes(999), "999 B")
        XCTAssertEqual(english.bytes(12_345), "12 KB")
        XCTAssertEqual(english.bytes(1_834_567), "1.8 MB")
        XCTAssertEqual(russian.bytes(1_834_567), "1,8 МБ")
        XCTAssertEqual(russian.bytes(5_250_000), "5,3 МБ")
        XCTAssertEqual(kazakh.bytes(2_500_000_000), "2,5 ГБ")
        XCTAssertEqual(english.timestamp("2026-11-25T14:05:09Z"), "2026-11-25 14:05 UTC")
        XCTAssertEqual(russian.timestamp("2026-11-25T14:05:09Z"), "25.11.2026 14:05 UTC")
        XCTAssertEqual(kazakh.timestamp("2026-01-02T00:00:00Z"), "02.01.2026 00:00 UTC")
        for text in ["2026-11-25", "2026-11-25T14:05:09+05:00", "soon", "2026-1x-25T14:05:09Z"] {
            XCTAssertEqual(russian.timestamp(text), text)
        }
        // On the card: the catalog's size and build time, from its JSON, as a Russian reader reads them.
        let info = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(cli.run(["--format", "json", "catalog", "info"]).stdout.utf8))
                as? [String: Any])
        let size = try XCTUnwrap(info["size"] as? Int)
        let built = try XCTUnwrap((info["info"] as? [String: Any])?["builtAt"] as? String)
        let card = try cli.run(["--lang", "ru", "catalog", "info"]).stdout
        let megabytes = String(format: "%.1f", (Double(size) / 100_000).rounded() / 10).replacingOccurrences(of: ".", with: ",")
        XCTAssertTrue(card.contains("  \(megabytes) МБ\n"), card)
        let day = built.prefix(10).split(separator: "-")
        XCTAssertTrue(card.contains("\(day[2]).\(day[1]).\(day[0]) \(built.dropFirst(11).prefix(5)) UTC"), card)
    }

    func testNumbersGroupTheirThousandsInEachLanguage() {
        let nbsp = "\u{00A0}"
        let expected: [String: [(Double, String)]] = [
            "en": [
                (24000, "24,000"), (1_234_567.5, "1,234,567.5"), (-12000, "-12,000"), (100_000, "100,000"),
                (3000, "3000"), (9999, "9999"), (0.75, "0.75"), (250, "250"),
            ],
            "ru": [
                (24000, "24\(nbsp)000"), (1_234_567.5, "1\(nbsp)234\(nbsp)567,5"), (-12000, "-12\(nbsp)000"),
                (100_000, "100\(nbsp)000"), (3000, "3000"), (9999, "9999"), (0.75, "0,75"), (10000.25, "10\(nbsp)000,25"),
            ],
            "kk": [
                (24000, "24\(nbsp)000"), (1_234_567.5, "1\(nbsp)234\(nbsp)567,5"), (3000, "3000"), (0.75, "0,75"),
            ],
        ]
        for (locale, cases) in expected {
            let strings = Localizer(locale: locale, directory: Self.localizable)
            for (value, text) in cases {
                XCTAssertEqual(strings.number(value), text, "\(value) in \(locale)")
            }
        }
    }

    /// 120 ha at 200 l/ha is 24000 l of spray in 8 loads of 3000 l; 0.5 l/ha of a 250 g/l
    /// product is 60 l, 15000 g of tebuconazole.
    func testTankTextGroupsAndJSONAndCSVDoNot() throws {
        let arguments = [
            "tank", "--product", "tebuconazole-250-ec", "--dose", "0.5", "--area", "120", "--water", "200", "--tank", "3000",
        ]
        let expected = [
            "ru": ["Рабочий раствор: 24\u{00A0}000 л", "8 заправок по 3000 л", "Тебуконазол: 15\u{00A0}000 г"],
            "kk": ["Жұмыс ерітіндісі: 24\u{00A0}000 л", "әрқайсысы 3000 л", "Тебуконазол: 15\u{00A0}000 г"],
            "en": ["Spray volume: 24,000 l", "8 loads of 3000 l", "Tebuconazole: 15,000 g"],
        ]
        for (locale, lines) in expected {
            let text = try cli.run(["--lang", locale] + arguments)
            XCTAssertEqual(text.status, 0, text.stderr)
            for line in lines { XCTAssertTrue(text.stdout.contains(line), "\(line) in \(locale): \(text.stdout)") }
            XCTAssertFalse(text.stdout.contains("24000"), text.stdout)

            let json = try cli.run(["--lang", locale, "--format", "json"] + arguments)
            XCTAssertEqual(json.status, 0, json.stderr)
            XCTAssertFalse(json.stdout.contains("\u{00A0}") || json.stdout.contains("24,000"), json.stdout)
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let plan = try XCTUnwrap(document?["plan"] as? [String: Any], json.stdout)
            XCTAssertEqual(plan["totalWater"] as? Double, 24000)

            let csv = try cli.run(["--lang", locale, "--format", "csv"] + arguments)
            XCTAssertEqual(csv.status, 0, csv.stderr)
            XCTAssertTrue(csv.stdout.hasSuffix(",l,7.5,0,60\n"), csv.stdout)
            XCTAssertFalse(csv.stdout.contains("\u{00A0}"), csv.stdout)
        }
    }
}
