import AgroPresentation
import Foundation
import XCTest

/// docs/cli.md, "Language": a language chosen for agro that has no interface strings is said in one
/// line on stderr, in the language the interface falls back to; the command still answers.
final class UnknownLanguageTests: XCTestCase {
    let cli = CLIRunner()
    let english = "agro: no interface strings in \"xx\": the interface is in English\n"

    func testAnUnknownLangFlagIsSaidOnceAndTheAnswerFollows() throws {
        let result = try cli.run(["--lang", "xx", "products", "--per-page", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, english)
        XCTAssertTrue(result.stdout.hasPrefix("Name"), result.stdout)
        let json = try cli.run(["regions", "--lang", "XX", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.stderr, english)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    }

    /// A command that fails still says it once, before its own error line.
    func testAFailingCommandSaysItOnceBeforeItsError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("agro-none-\(UUID()).sqlite").path
        let result = try cli.run(["--lang", "xx", "--catalog", missing, "products"])
        XCTAssertNotEqual(result.status, 0)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, result.stderr)  // the warning, the error, the final newline
        XCTAssertEqual(String(lines[0]) + "\n", english)
        XCTAssertTrue(lines[1].hasPrefix("agro: ") && lines[1].contains(missing), result.stderr)
    }

    func testAgroLangAndTheConfigFileAreChoicesToo() throws {
        let fromEnvironment = try cli.run(["products", "--per-page", "2"], extraEnvironment: ["AGRO_LANG": "xx"])
        XCTAssertEqual(fromEnvironment.stderr, english)
        let runner = CLIRunner()
        try runner.writeConfig(#"{"lang": "xx"}"#)
        let fromConfig = try runner.run(["products", "--per-page", "2"])
        XCTAssertEqual(fromConfig.status, 0, fromConfig.stderr)
        XCTAssertEqual(fromConfig.stderr, english)
    }

    func testKnownLanguagesAndTheSystemLocaleSayNothing() throws {
        for arguments in [["--lang", "kk"], ["--lang", "ru-KZ"], ["--lang", "en_GB.UTF-8"]] {
            let result = try cli.run(arguments + ["products", "--per-page", "2"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
        // LANG is the system's choice, not agro's: German falls back without a word.
        let system = try cli.run(["products", "--per-page", "2"], extraEnvironment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(system.stderr, "")
        XCTAssertTrue(system.stdout.hasPrefix("Name"), system.stdout)
    }

    /// A language whose fallback (fallbacks.json) is Russian is told so in Russian.
    func testTheLineIsInTheFallbackLanguage() throws {
        let localizable = CLIRunner.root.appendingPathComponent("Localizable")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-fallback-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        for file in ["en.json", "ru.json"] {
            try FileManager.default.copyItem(
                at: localizable.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        try Data(#"{"uz": ["ru", "en"]}"#.utf8).write(to: directory.appendingPathComponent("fallbacks.json"))
        let uzbek = Localizer(locale: "uz", directory: directory)
        XCTAssertFalse(uzbek.hasOwnStrings)
        XCTAssertEqual(uzbek("language.unknown", "uz"), "нет строк интерфейса на языке «uz»: интерфейс на русском")
        XCTAssertTrue(Localizer(locale: "ru-kz", directory: directory).hasOwnStrings)
        XCTAssertFalse(Localizer(locale: "kk", directory: directory).hasOwnStrings)
    }
}
