import AgroPresentation
import Foundation
import XCTest

/// Every interface string the sources ask for by a literal key exists in English (the last
/// fallback), and every other language has every key English has, with the same placeholders
/// and the plural forms its CLDR rule needs.
///
/// The localizer shows an unknown key as itself and falls back key by key to Russian and
/// English, so a misspelt, removed or untranslated key would print `use.days` or a foreign
/// word to the user without failing any other test.
final class InterfaceStringsTests: XCTestCase {
    /// The repository: three folders up from this file.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let localizable = root.appendingPathComponent("Localizable")

    /// The CLDR plural categories of each language agro speaks (unicode.org/cldr, "Language
    /// Plural Rules"): the forms a counted string must have. A new language adds its line here.
    private static let pluralCategories: [String: Set<String>] = [
        "en": ["one", "other"],
        "ru": ["one", "few", "many", "other"],
        "kk": ["one", "other"],
    ]

    /// Keys a language may have that English does not: English writes numbers with the
    /// localizer's defaults (a point, a hyphen).
    private static let beyondEnglish: Set<String> = ["number.decimal", "number.range"]

    private func table(_ locale: String, in directory: URL = localizable) throws -> [String: String] {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(locale).json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String], "\(locale).json")
    }

    /// The languages with a strings file: every `Localizable/*.json` but `fallbacks.json`.
    private func locales() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.localizable.path)
            .filter { $0.hasSuffix(".json") && $0 != "fallbacks.json" }
            .map { String($0.dropLast(".json".count)) }
            .sorted()
    }

    /// The placeholders `{0}`, `{1}`, ... a string fills.
    private func placeholders(_ text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"\{[0-9]+\}"#)
        return Set(
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range, in: text).map { String(text[$0]) }
            })
    }

    /// The counted strings of English: `KEY` for every `KEY.one` and `KEY.other` pair.
    private func pluralKeys(_ english: [String: String]) -> Set<String> {
        Set(
            english.keys.filter { $0.hasSuffix(".one") }.map { String($0.dropLast(".one".count)) }
                .filter { english[$0 + ".other"] != nil })
    }

    func testEveryLiteralKeyHasAnEnglishString() throws {
        // `s("key", ...)`, `strings("key")`, `environment.strings("key")`, `s.plural("key", n)`:
        // the ways the sources call the localizer with a literal key.
        let call = try NSRegularExpression(
            pattern: #"(?<![A-Za-z0-9_])(?:s|strings)(\.plural)?\(\s*"([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)""#)
        let english = try table("en")
        let sources = Self.root.appendingPathComponent("Sources")
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

    func testTheThreeLanguagesHaveStringsFiles() throws {
        let found = try locales()
        for locale in ["en", "ru", "kk"] { XCTAssertTrue(found.contains(locale), "no Localizable/\(locale).json") }
    }

    /// A language lacking a key English has shows that string in another language (or the key).
    func testEveryLanguageHasEveryEnglishKey() throws {
        let english = try table("en")
        XCTAssertGreaterThan(english.count, 400)
        let plurals = pluralKeys(english)
        for locale in try locales() where locale != "en" {
            let strings = try table(locale)
            for key in english.keys.sorted() {
                // Counted strings are checked form by form below: a language need not have
                // English's forms, it needs its own.
                if let dot = key.lastIndex(of: "."), plurals.contains(String(key[..<dot])) { continue }
                XCTAssertNotNil(strings[key], "\(locale).json lacks \"\(key)\" (en: \"\(english[key]!)\")")
            }
        }
    }

    func testCountedStringsHaveTheFormsOfTheirLanguage() throws {
        let english = try table("en")
        let plurals = pluralKeys(english)
        // The localizer's counted strings: use.days, finding.days, plan.violations and more.
        XCTAssertGreaterThan(plurals.count, 10)
        for locale in try locales() {
            let categories = try XCTUnwrap(
                Self.pluralCategories[locale],
                "no CLDR plural categories for \(locale) in this test: add them")
            let strings = try table(locale)
            for key in plurals.sorted() {
                for category in categories.sorted() {
                    XCTAssertNotNil(strings[key + "." + category], "\(locale).json lacks the form \"\(key).\(category)\"")
                }
                // A form the language's rule never picks is dead text (e.g. "few" in Kazakh).
                for category in ["zero", "one", "two", "few", "many", "other"] where !categories.contains(category) {
                    XCTAssertNil(
                        strings[key + "." + category],
                        "\(locale).json has \"\(key).\(category)\", a form \(locale) does not use")
                }
            }
        }
    }

    /// A translation fills the same `{0}`, `{1}`, ... as English: a dropped one loses a value
    /// (a product name, a number of days), an invented one prints `{3}` as it stands.
    func testPlaceholdersMatchEnglish() throws {
        let english = try table("en")
        let plurals = pluralKeys(english)
        for locale in try locales() where locale != "en" {
            for (key, text) in try table(locale) {
                let base = key.lastIndex(of: ".").map { String(key[..<$0]) } ?? key
                let expected: Set<String>
                if plurals.contains(base) {
                    // Every form against English's "other"; the "one" form may write the
                    // count as a word and leave out {0}.
                    expected = placeholders(english[base + ".other"]!)
                    let found = placeholders(text)
                    let allowed = key.hasSuffix(".one") ? [expected, expected.subtracting(["{0}"])] : [expected]
                    XCTAssertTrue(
                        allowed.contains(found), "\(locale).json \"\(key)\": \(found.sorted()) but en has \(expected.sorted())")
                    continue
                }
                guard let englishText = english[key] else {
                    XCTAssertTrue(Self.beyondEnglish.contains(key), "\(locale).json has \"\(key)\", which en.json lacks")
                    continue
                }
                expected = placeholders(englishText)
                XCTAssertEqual(placeholders(text), expected, "\(locale).json \"\(key)\"")
            }
        }
    }

    /// Russian and Kazakh write a decimal comma and an en dash (`0,75–1 л/га`).
    func testRussianAndKazakhNumberSeparators() throws {
        for locale in ["ru", "kk"] {
            let strings = try table(locale)
            XCTAssertEqual(strings["number.decimal"], ",", locale)
            XCTAssertEqual(strings["number.range"], "\u{2013}", locale)
        }
    }

    /// Kazakh strings are Kazakh: a string spelt as the Russian one is made only of words the
    /// two languages share (units, loanwords such as "фунгицид"), not a Russian text copied
    /// across to fill the file.
    func testKazakhIsNotRussianCopiedAcross() throws {
        let russian = try table("ru"), kazakh = try table("kk")
        let word = try NSRegularExpression(pattern: "[а-яё]{3,}", options: .caseInsensitive)
        let shared: Set<String> = [
            "акарицид", "адъювант", "десикант", "фунгицид", "гербицид", "инсектицид", "моллюскицид",
            "нематицид", "родентицид", "моллюск", "нематода", "препарат", "компания", "каталог", "файл",
            "сайт", "телефон", "температура", "темп", "гпа", "мин", "фаза", "бак", "команда",
        ]
        var own = 0
        for (key, text) in kazakh {
            guard text == russian[key] else { own += 1; continue }
            let words = word.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range, in: text) }.map { text[$0].lowercased() }
            XCTAssertTrue(words.allSatisfy(shared.contains), "kk.json \"\(key)\" is the Russian text: \"\(text)\"")
        }
        XCTAssertGreaterThan(own, 400)
    }

    /// The fallback chain the localizer reads from `fallbacks.json`: a language lacking a key
    /// reads its fallback's string, and a counted string then takes the fallback's forms.
    func testALanguageLackingAKeyReadsItsFallback() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-strings-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ file: String, _ object: Any) throws {
            try JSONSerialization.data(withJSONObject: object).write(to: directory.appendingPathComponent(file))
        }
        try write("en.json", ["a": "A {0}", "b": "B", "c": "C", "n.one": "{0} day", "n.other": "{0} days"])
        try write(
            "ru.json",
            [
                "a": "А {0}", "b": "Б", "n.one": "{0} день", "n.few": "{0} дня",
                "n.many": "{0} дней", "n.other": "{0} дня",
            ])
        try write("kk.json", ["a": "Ә {0}"])
        try write("fallbacks.json", ["kk": ["ru", "en"]])
        let strings = Localizer(locale: "kk", directory: directory)
        XCTAssertEqual(strings.chain, ["kk", "ru", "en"])
        XCTAssertEqual(strings("a", "x"), "Ә x")
        XCTAssertEqual(strings("b"), "Б")
        XCTAssertEqual(strings("c"), "C")
        XCTAssertEqual(strings("missing.key"), "missing.key")
        // Russian text, Russian rule: 5 takes "many".
        XCTAssertEqual(strings.plural("n", 5), "5 дней")
        // The real fallbacks: Kazakh names Russian then English for a key not yet translated.
        let fallbacks =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.localizable.appendingPathComponent("fallbacks.json"))) as? [String: [String]]
        XCTAssertEqual(fallbacks?["kk"], ["ru", "en"])
    }
}
