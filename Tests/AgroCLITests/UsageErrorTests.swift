import Foundation
import XCTest

/// A command line the program cannot read is refused in the interface language, as every other
/// error is: one line on stderr, `agro: ...`, bad usage's status 64 (docs/cli.md, "Exit status"),
/// never swift-argument-parser's English ("Error: ...", "Usage: ...", "Help: ...").
final class UsageErrorTests: XCTestCase {
    let cli = CLIRunner()

    /// Bad command lines and what each says, written by hand per language (Localizable/glossary.md:
    /// option = параметр in Russian and Kazakh, command = команда).
    private static let cases: [(arguments: [String], en: String, ru: String, kk: String)] = [
        (
            ["products", "--bogus"], "unknown option --bogus; see agro products --help",
            "неизвестный параметр --bogus; см. agro products --help",
            "белгісіз параметр --bogus; agro products --help командасын қараңыз"
        ),
        (
            ["products", "--per-page", "x"], "--per-page cannot take \"x\"", "--per-page: недопустимое значение «x»",
            "«x» мәні жарамсыз"
        ),
        (
            ["products", "--per-page", "0"], "--per-page must be 1 or more, not \"0\"", "нужно число не меньше 1",
            "кемінде 1 болатын сан керек"
        ),
        (["product"], "<product> is needed", "нужно указать <product>", "<product> көрсету керек"),
        (["prodcts"], "there is no command \"prodcts\"", "команды «prodcts» нет", "«prodcts» деген команда жоқ"),
        (
            ["products", "--format", "xml"], "--format takes one of table, json, csv, not \"xml\"",
            "допустимые значения — table, json, csv, а не «xml»", "рұқсат етілген мәндер — table, json, csv; «xml» емес"
        ),
        (
            ["products", "--letter"], "--letter needs a value", "после --letter нужно значение",
            "--letter параметрінен кейін мән керек"
        ),
        (["products", "--all=yes"], "--all takes no value", "--all указывается без значения", "--all мәнсіз көрсетіледі"),
        (["products", "--pag", "2"], "(did you mean --page?)", "(возможно, --page?)", "(--page болуы мүмкін бе?)"),
        (["scheme", "wheat", "--stage", "120"], "from 0 to 99, not 120", "от 0 до 99, а не 120", "0 мен 99 аралығындағы"),
        (
            ["plan", "check"], "<file> is needed; see agro plan check --help", "см. agro plan check --help",
            "agro plan check --help командасын қараңыз"
        ),
        (
            ["favorites", "add"], "<item> is needed; see agro favorites add --help", "см. agro favorites add --help",
            "agro favorites add --help командасын қараңыз"
        ),
        (
            ["web", "--port", "99999"], "--port must be from 0 to 65535", "нужно число от 0 до 65535",
            "0 мен 65535 аралығындағы сан керек"
        ),
    ]

    /// The parser's English, which must not reach a Russian or Kazakh reader.
    private static let parserEnglish = [
        "Error:", "Usage:", "Help:", "Unknown", "Missing", "invalid", "Unexpected", "Please provide", "expected", "see agro",
    ]

    private func assertRefusal(
        _ result: CLIRunner.Result, saying expected: String, locale: String, _ arguments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let context = "\(locale) \(arguments): \(result.stderr)"
        XCTAssertEqual(result.status, 64, context, file: file, line: line)
        XCTAssertEqual(result.stdout, "", context, file: file, line: line)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, context, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "), context, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(expected), "expected \(expected): " + context, file: file, line: line)
        guard locale != "en" else { return }
        for english in Self.parserEnglish {
            XCTAssertFalse(result.stderr.contains(english), "\(english): " + context, file: file, line: line)
        }
        let letters = locale == "kk" ? "[әғқңөұүһі]" : "[а-яё]"
        XCTAssertNotNil(result.stderr.range(of: letters, options: .regularExpression), context, file: file, line: line)
    }

    /// `--lang` anywhere on the line, even on a line the parser refuses.
    func testRefusalsAreWordedInTheLanguageOfTheFlag() throws {
        for (arguments, en, ru, kk) in Self.cases {
            for (locale, expected) in [("en", en), ("ru", ru), ("kk", kk)] {
                assertRefusal(try cli.run(["--lang", locale] + arguments), saying: expected, locale: locale, arguments)
            }
        }
        let after = try cli.run(["products", "--bogus", "--lang=kk"])
        assertRefusal(after, saying: "белгісіз параметр --bogus", locale: "kk", ["products", "--bogus", "--lang=kk"])
    }

    /// Without the flag: AGRO_LANG, then the locale variables, then config.json, as for every
    /// other message.
    func testRefusalsAreWordedInTheLanguageOfTheEnvironmentAndTheConfiguration() throws {
        let missingValue = ["products", "--lang"]
        assertRefusal(
            try cli.run(missingValue, extraEnvironment: ["AGRO_LANG": "kk"]), saying: "--lang параметрінен кейін мән керек",
            locale: "kk", missingValue)
        assertRefusal(
            try cli.run(["prodcts"], extraEnvironment: ["LANG": "ru_RU.UTF-8"]), saying: "команды «prodcts» нет",
            locale: "ru", ["prodcts"])

        let config = cli.home.appendingPathComponent("config/agro")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"lang": "kk"}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let bad = ["products", "--per-page", "x"]
        assertRefusal(try cli.run(bad), saying: "--per-page: «x» мәні жарамсыз", locale: "kk", bad)
        // The flag still wins over the configuration.
        assertRefusal(try cli.run(bad + ["--lang", "en"]), saying: "--per-page cannot take \"x\"", locale: "en", bad)
    }

    /// `--help`, `help COMMAND` and a command group without its subcommand: the page in the
    /// interface language, every option the command takes with its words, on stdout, status 0.
    func testHelpIsInTheInterfaceLanguage() throws {
        let parserHeadings = ["OVERVIEW:", "USAGE:", "OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:"]
        let kk = try cli.run(["--lang", "kk", "products", "--help"])
        XCTAssertEqual(kk.status, 0, kk.stderr)
        for expected in [
            "Қолданылуы: agro products [параметрлер]", "Параметрлер:", "--per-page <per-page>", "Зиянды ағза (id немесе атауы).",
            "Препараттардың орнына атауларының бірінші әріптерін көрсету.", "-h, --help",
        ] {
            XCTAssertTrue(kk.stdout.contains(expected), expected + "\n" + kk.stdout)
        }
        let ru = try cli.run(["help", "plan", "check"], extraEnvironment: ["AGRO_LANG": "ru"])
        XCTAssertEqual(ru.status, 0, ru.stderr)
        for expected in ["Использование: agro plan check <file> [параметры]", "Аргументы:", "Файл плана (.json или .csv)"] {
            XCTAssertTrue(ru.stdout.contains(expected), expected + "\n" + ru.stdout)
        }
        let nested = try cli.run(["--lang", "kk", "favorites", "add", "--help"])
        XCTAssertTrue(nested.stdout.hasPrefix("Таңдаулыларға қосу.\n"), nested.stdout)
        XCTAssertTrue(nested.stdout.contains("Қолданылуы: agro favorites add <item> [параметрлер]"), nested.stdout)
        let group = try cli.run(["--lang", "kk", "db"])
        XCTAssertEqual(group.status, 0, group.stderr)
        for expected in ["Командалар:", "rollback", "Алдыңғы орнатылған каталогқа қайту", "agro db КОМАНДА --help"] {
            XCTAssertTrue(group.stdout.contains(expected), expected + "\n" + group.stdout)
        }
        for output in [kk.stdout, ru.stdout, group.stdout] {
            for heading in parserHeadings { XCTAssertFalse(output.contains(heading), heading + "\n" + output) }
            XCTAssertFalse(output.contains("help.command.") || output.contains("help.option."), output)
        }
        // English keeps the parser's own page, with each command's discussion.
        let en = try cli.run(["products", "--help"])
        XCTAssertEqual(en.status, 0, en.stderr)
        XCTAssertTrue(en.stdout.contains("USAGE: agro products"), en.stdout)
    }
}
