import AgroCLI
import AgroPresentation
import Foundation
import XCTest

/// Numbers, plural forms and expiry marks in the interface languages; expectations written by
/// hand from the CLDR rules and the content sources.
final class LocalizedOutputTests: XCTestCase {
    let cli = CLIRunner()

    /// CLDR's examples for Russian (one: 1, 21, 101; few: 2-4, 22; many: 0, 5-20, 111) and
    /// Kazakh and English (one: 1; other: everything else).
    func testPluralCategoriesFollowCLDR() {
        let russian: [(Int, PluralCategory)] = [
            (0, .many), (1, .one), (2, .few), (4, .few), (5, .many), (11, .many), (12, .many), (14, .many),
            (21, .one), (22, .few), (25, .many), (101, .one), (111, .many), (112, .many), (1_000_001, .one),
        ]
        for (count, category) in russian { XCTAssertEqual(PluralCategory(count, locale: "ru"), category, "ru \(count)") }
        for (count, category) in [(0, PluralCategory.other), (1, .one), (2, .other), (21, .other)] {
            XCTAssertEqual(PluralCategory(count, locale: "kk"), category, "kk \(count)")
            XCTAssertEqual(PluralCategory(count, locale: "en-GB"), category, "en \(count)")
        }
    }

    /// News dates as the language writes them, in the list, in search and on the item: every
    /// date of the catalog's news (from its JSON) written day.month.year in Russian.
    func testNewsDatesInTheReadersOrder() throws {
        let listed = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try cli.run(["--format", "json", "news", "--all"]).stdout.utf8))
                as? [String: Any])
        let items = try XCTUnwrap(listed["items"] as? [[String: Any]])
        XCTAssertFalse(items.isEmpty)
        let russian = try cli.run(["--lang", "ru", "news", "--all"]).stdout
        for item in items {
            let date = try XCTUnwrap(item["date"] as? String).prefix(10).split(separator: "-")
            XCTAssertTrue(russian.contains("\(date[2]).\(date[1]).\(date[0])  "), "\(date) in \(russian)")
        }
        XCTAssertNil(russian.range(of: #"\d{4}-\d{2}-\d{2}"#, options: .regularExpression), russian)
        let item = try cli.run(["--lang", "kk", "news", "show", try XCTUnwrap(items.first?["id"] as? String)]).stdout
        XCTAssertNil(item.range(of: #"^\d{4}-\d{2}-\d{2}"#, options: [.regularExpression, .anchored]), item)
        XCTAssertNotNil(item.range(of: #"\n\d{2}\.\d{2}\.\d{4}"#, options: .regularExpression), item)
    }

    /// Card text with line breaks and runs of spaces made single spaces: wrapping depends on the width.
    func card(_ product: String, _ locale: String) throws -> String {
        let result = try cli.run(["product", product, "--lang", locale])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    // uses.json: u-0008 (2-4-d-ehe-850-ec) 0.6-0.8 l/ha, at most 1 application, PHI 60 days;
    // u-0006 (glyphosate-540-sl) at most 2 applications, 30 days apart.
    func testRussianCardsUseADecimalCommaAndPluralForms() throws {
        let uses = try CatalogCommandsTests.entries("uses.json")
        let u8 = try XCTUnwrap(uses.first { $0["id"] as? String == "u-0008" })
        XCTAssertEqual(u8["dose"] as? [Double], [0.6, 0.8])
        XCTAssertEqual(u8["maxApplications"] as? Int, 1)
        XCTAssertEqual(u8["phi"] as? Int, 60)
        let text = try card("2-4-d-ehe-850-ec", "ru")
        XCTAssertTrue(text.contains("норма 0,6–0,8 л/га"), text)
        XCTAssertTrue(text.contains("не более 1 обработки"), text)
        XCTAssertTrue(text.contains("срок ожидания 60 дней"), text)
        XCTAssertFalse(text.contains("0.6"), text)

        let u6 = try XCTUnwrap(uses.first { $0["id"] as? String == "u-0006" })
        XCTAssertEqual(u6["maxApplications"] as? Int, 2)
        XCTAssertEqual(u6["interval"] as? Int, 30)
        let glyphosate = try card("glyphosate-540-sl", "ru")
        XCTAssertTrue(glyphosate.contains("не более 2 обработок"), glyphosate)
        XCTAssertTrue(glyphosate.contains("интервал не менее 30 дней"), glyphosate)
    }

    func testKazakhAndEnglishNumbers() throws {
        let kazakh = try card("2-4-d-ehe-850-ec", "kk")
        XCTAssertTrue(kazakh.contains("0,6–0,8 л/га"), kazakh)
        XCTAssertTrue(kazakh.contains("1 реттен артық емес"), kazakh)
        XCTAssertTrue(kazakh.contains("күту мерзімі 60 күн"), kazakh)
        let english = try card("2-4-d-ehe-850-ec", "en")
        XCTAssertTrue(english.contains("dose 0.6-0.8 l/ha"), english)
        XCTAssertTrue(english.contains("PHI 60 days"), english)
        // JSON keeps plain numbers whatever the language.
        let json = try cli.json(["product", "2-4-d-ehe-850-ec", "--lang", "ru"])
        let doses = (json["uses"] as? [[String: Any]] ?? []).compactMap { ($0["dose"] as? [String: Any])?["from"] as? Double }
        XCTAssertTrue(doses.contains(0.6), "\(doses)")
    }

    /// Every product whose registration expired before today carries the mark in the list,
    /// and no other does.
    func testListsMarkExpiredRegistrations() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: Date())
        let products = try CatalogCommandsTests.entries("products.json")
        var expired = 0
        let result = try cli.run(["products", "--all", "--lang", "en"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for product in products {
            guard let registration = product["registration"] as? [String: String], let number = registration["number"] else {
                continue
            }
            let line = try XCTUnwrap(result.stdout.lines.first { $0.contains(number + " ") || $0.hasSuffix(number) }, number)
            if let expires = registration["expires"], expires < today {
                expired += 1
                XCTAssertTrue(line.contains(number + " (expired)"), line)
            } else {
                XCTAssertFalse(line.contains("(expired)"), line)
            }
        }
        XCTAssertGreaterThan(expired, 0, "the demo content has expired registrations")
    }

    /// Commands that print one record refuse csv with one line and status 64.
    func testOneRecordCommandsRefuseCSV() throws {
        for arguments in [
            ["catalog", "info"], ["db", "status"], ["db", "verify"], ["db", "rollback"],
            ["news", "show", try XCTUnwrap(CatalogCommandsTests.entries("news.json").first?["id"] as? String)],
            ["favorites", "add", "glyphosate-540-sl"],
        ] {
            let result = try cli.run(arguments + ["--format", "csv"])
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.lines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("agro: agro \(arguments[0])"), result.stderr)
            XCTAssertTrue(result.stdout.isEmpty, result.stdout)
        }
        // Nothing was added by the refused command.
        XCTAssertEqual(try cli.json(["favorites", "list"])["total"] as? Int, 0)
    }

    /// Every list prints a header and one row per item of its JSON.
    func testListsPrintCSV() throws {
        for arguments in [
            ["products"], ["products", "--letters"], ["substances"], ["cultures"], ["pests"], ["regions"],
            ["search", "wheat"], ["news"],
        ] {
            let csv = try cli.run(arguments + ["--all", "--format", "csv"])
            XCTAssertEqual(csv.status, 0, "\(arguments): \(csv.stderr)")
            let total = try XCTUnwrap(try cli.json(arguments + ["--all"])["total"] as? Int)
            XCTAssertGreaterThan(total, 0, "\(arguments)")
            XCTAssertEqual(CSVReader.rows(csv.stdout).count, total + 1, "\(arguments)")
        }
        // The configured feeds: a header, then the URLs.
        let url = "http://127.0.0.1:9/feed,1.xml"
        XCTAssertEqual(try cli.run(["news", "feeds", "add", url]).status, 0)
        let feeds = try cli.run(["news", "feeds", "list", "--format", "csv"])
        XCTAssertEqual(CSVReader.rows(feeds.stdout), [["url"], [url]])
    }
}
