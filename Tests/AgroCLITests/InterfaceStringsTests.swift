import Foundation
import XCTest

/// Every interface string the sources ask for by a literal key exists in English (the last
/// fallback), and Russian has every key English has.
///
/// The localizer shows an unknown key as itself, so a misspelt or removed key would print
/// `use.days` to the user without failing any other test.
final class InterfaceStringsTests: XCTestCase {
    private func table(_ language: String) throws -> [String: String] {
        let data = try Data(contentsOf: CLIRunner.root.appendingPathComponent("Localizable/\(language).json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    func testEveryLiteralKeyHasAnEnglishString() throws {
        // `s("key", ...)`, `strings("key")`, `environment.strings("key")`, `s.plural("key", n)`:
        // the ways the sources call the localizer with a literal key.
        let call = try NSRegularExpression(
            pattern: #"(?<![A-Za-z0-9_])(?:s|strings)(\.plural)?\(\s*"([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)""#)
        let english = try table("en")
        let sources = CLIRunner.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var checked = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in call.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let keyRange = Range(match.range(at: 2), in: text) else { continue }
                let key = String(text[keyRange])
                // A plural key names its forms: KEY.other is the one every language has.
                let needed = match.range(at: 1).location == NSNotFound ? key : key + ".other"
                XCTAssertNotNil(english[needed], "\(file.lastPathComponent): no English string \"\(needed)\"")
                checked += 1
            }
        }
        // The sources ask for well over a hundred strings; far fewer means the pattern broke.
        XCTAssertGreaterThan(checked, 150)
    }

    func testRussianHasEveryEnglishKey() throws {
        let english = try table("en"), russian = try table("ru")
        XCTAssertGreaterThan(english.count, 100)
        for key in english.keys.sorted() { XCTAssertNotNil(russian[key], "ru.json lacks \"\(key)\"") }
    }
}
