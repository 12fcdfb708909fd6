import Foundation
import XCTest

/// No interface key ever reaches a person: the output of every command (tables, cards,
/// reports, refusals and errors), in English, Russian and Kazakh, run through the built
/// program, contains no key of `Localizable/en.json`.
///
/// The localizer shows an unknown key as itself, so a key missing from every language or a
/// key built at run time from a misspelt part (`kind.` + a new entity kind) prints `use.phi`
/// where a word should be; only the output shows it.
final class InterfaceKeyLeakTests: XCTestCase {
    let cli = CLIRunner()

    /// The keys of en.json that look like keys (`word.word`), longest first so that a key is
    /// reported rather than its prefix.
    private static let keys: [String] = {
        let url = CLIRunner.root.appendingPathComponent("Localizable/en.json")
        let table = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: String] ?? [:]
        return table.keys.filter { $0.range(of: #"^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$"#, options: .regularExpression) != nil }
            .sorted { $0.count > $1.count }
    }()

    /// The keys that occur in `text` as a whole token (not inside a longer word, file name or URL).
    static func leaked(in text: String) -> [String] {
        keys.filter { key in
            var searchRange = text.startIndex..<text.endIndex
            while let found = text.range(of: key, range: searchRange) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
                let isPart = { (c: Character?) in
                    c.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "/" || $0 == "-" } ?? false
                }
                if !isPart(before) && !isPart(after) { return true }
                searchRange = found.upperBound..<text.endIndex
            }
            return false
        }
    }

    func testTheDetectorFindsAKeyAndNothingElse() {
        XCTAssertGreaterThan(Self.keys.count, 300)
        guard let key = Self.keys.first(where: { $0.hasPrefix("error.CatalogError.") }) else { return XCTFail("no error keys") }
        XCTAssertEqual(Self.leaked(in: "agro: \(key)\n"), [key])
        XCTAssertEqual(Self.leaked(in: "  PHI  60 days\n  see uses.json and https://example.org/\(key)x\n"), [])
    }

    /// Command lines that print something worded: lists, cards, reports and refusals, in each
    /// interface language; the demo catalog's ids (Database/content).
    private static let commandLines: [[String]] = {
        let examples = CLIRunner.root.appendingPathComponent("Database/examples")
        return [
            ["products"], ["products", "--letters"], ["products", "--category", "fungicide"],
            ["product", "glyphosate-540-sl"], ["product", "2-4-d-ehe-850-ec"],
            ["product", "glyphosate-540-sl", "--alternatives"],
            ["substances"], ["substance", "abamectin"], ["cultures"], ["culture", "barley"],
            ["pests"], ["pests", "--kind", "weed"], ["pest", "agrotis-segetum"], ["scheme", "maize"],
            ["scheme", "potato", "--stage", "30"],
            ["search", "wheat"], ["regions"], ["contacts", "KZ-10"], ["contacts", "--near", "51.18,71.45"],
            ["favorites", "list"],
            ["uses", "--pest", "zymoseptoria-tritici", "--culture", "winter wheat", "--all"],
            ["plan", "check", examples.appendingPathComponent("winter-wheat-kz.json").path],
            ["plan", "check", examples.appendingPathComponent("winter-wheat-kz.csv").path],
            ["plan", "check", examples.appendingPathComponent("winter-wheat-kz-fails.json").path],
            ["tank", "--product", "tebuconazole-250-ec", "--dose", "0.75", "--area", "10", "--water", "200", "--tank", "600"],
            ["catalog", "info"], ["db", "status"], ["news", "--all"],
            // Help pages and refusals of the command line itself.
            ["products", "--help"], ["help", "plan", "check"], ["db"], ["products", "--bogus"], ["prodcts"],
            // Refusals and failures: worded too.
            ["product", "no-such-product"], ["products", "--letter", "ab"], ["products", "--culture", "wheet"],
            ["uses", "--sort", "price", "--pest", "x"], ["product", "glyphosate-540-sl", "--format", "csv"],
            ["contacts", "KZ-10", "--near", "51,71"], ["weather", "--offline", "--at", "51.18,71.45"],
            ["weather", "--region", "KZ-10", "--at", "51,71"],
            ["tank", "--product", "tebuconazole-250-ec", "--dose", "0", "--area", "10", "--water", "200", "--tank", "600"],
        ]
    }()

    func testNoCommandPrintsAnInterfaceKey() throws {
        for locale in ["en", "ru", "kk"] {
            for arguments in Self.commandLines {
                let result = try cli.run(arguments + ["--lang", locale])
                let output = result.stdout + result.stderr
                XCTAssertFalse(output.isEmpty, "\(arguments) printed nothing")
                let leaked = Self.leaked(in: output)
                XCTAssertEqual(leaked, [], "agro \(arguments.joined(separator: " ")) --lang \(locale):\n\(output)")
            }
        }
    }
}
