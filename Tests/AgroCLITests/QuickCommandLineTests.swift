import ArgumentParser
import XCTest

@testable import AgroCLI

/// `QuickCommandLine` reads the plain command lines of the catalog queries by hand. Over a wide
/// set of command lines (every option, `--name=value`, repeated options, `--`, short and unknown
/// options, missing and bad values, help) it must either decline or give the command
/// swift-argument-parser gives, with every value the same: the library's reading is computed
/// here, by parsing each line with it.
final class QuickCommandLineTests: XCTestCase {
    /// A query's name, the words it takes after its name in each sample, and a valid and an
    /// invalid value for each of its own options.
    private struct Query {
        var name: String
        var words: [[String]]
        var options: [(name: String, valid: [String], invalid: [String])]
        var flags: [String]
        var pages: Bool
    }

    private let names = ["rust", "winter-wheat", "Septoria tritici", "ржавчина", "a=b", "help", "products"]
    private let numbers = ["2", "+3", "20"]
    private let badNumbers = ["0", "-1", "abc", "99999999999999999999", "2.5", " 2"]

    private var queries: [Query] {
        let text = { (name: String) in (name: name, valid: self.names, invalid: [String]()) }
        return [
            Query(
                name: "products", words: [[]],
                options: ["--pest", "--culture", "--substance", "--category", "--company", "--letter"].map(text),
                flags: ["--letters"], pages: true),
            Query(
                name: "search", words: [["ржавч"], ["rust", "leaf"], ["-rust"], [], ["help"], ["a", "help"]],
                options: [(name: "--kind", valid: ["product", "pest", "news"], invalid: ["PRODUCT", "weed", ""])],
                flags: [], pages: true),
            Query(name: "pests", words: [[]], options: ["--culture", "--kind"].map(text), flags: [], pages: true),
            Query(name: "cultures", words: [[], ["x"]], options: [], flags: [], pages: true),
            Query(name: "substances", words: [[]], options: [], flags: [], pages: true),
            Query(name: "regions", words: [[]], options: [], flags: [], pages: true),
            Query(
                name: "product", words: [["amistar"], [], ["a", "b"], ["help"]], options: ["--culture", "--pest"].map(text),
                flags: ["--alternatives"], pages: false),
            Query(
                name: "pest", words: [["septoria"], [], ["a", "b"]], options: ["--culture"].map(text), flags: [], pages: false),
            Query(name: "culture", words: [["wheat"], []], options: [], flags: [], pages: false),
            Query(name: "substance", words: [["azoxystrobin"]], options: [], flags: [], pages: false),
            Query(
                name: "uses", words: [[]],
                options: ["--pest", "--culture", "--substance", "--group"].map(text) + [
                    (name: "--stage", valid: ["0", "32", "+5"], invalid: ["x", "-3", "1e2"]),
                    (name: "--sort", valid: ["dose", "phi", "name", "bogus"], invalid: []),
                ],
                flags: [], pages: true),
        ]
    }

    /// Every option of a query in each form, alone: what follows the query's name and words.
    private func fragments(_ query: Query) -> [[String]] {
        var options =
            query.options + [
                (name: "--catalog", valid: ["/tmp/none.sqlite", "x y"], invalid: []),
                (name: "--lang", valid: ["ru", "kk-KZ", "xx"], invalid: []),
                (name: "--format", valid: ["json", "csv", "table"], invalid: ["JSON", "xml"]),
            ]
        var flags = query.flags
        if query.pages {
            options += [
                (name: "--page", valid: numbers, invalid: badNumbers), (name: "--per-page", valid: numbers, invalid: badNumbers),
            ]
            flags.append("--all")
        }
        var fragments: [[String]] = [
            [], ["--"], ["--", "word"], ["--", "-x"], ["-h"], ["--help"], ["help"], ["--version"], ["-p", "2"],
            ["--unknown"], ["--unknown", "v"], ["-"], ["---pest", "x"], ["--pest"], ["-pest", "x"], ["word"],
            ["--experimental-dump-help"], ["--generate-completion-script", "bash"],
        ]
        for option in options {
            for value in option.valid + option.invalid {
                fragments += [
                    [option.name, value], [option.name + "=" + value], [option.name, "first", option.name, value],
                    [option.name + "=first", option.name, value], ["--", option.name, value],
                ]
            }
            fragments += [
                [option.name], [option.name, "-x"], [option.name + "="], [option.name, ""], [option.name + "=-x"],
                [option.name, "--all"],
            ]
        }
        for flag in flags {
            fragments += [[flag], [flag, flag], [flag + "=1"], [flag, "word"], [flag, "--"], ["--", flag]]
        }
        // Everything at once.
        fragments.append(options.flatMap { [$0.name, $0.valid[0]] } + flags)
        return fragments
    }

    /// The command lines tried: each fragment after the query's name and words, before them,
    /// and with global options before the name.
    private var commandLines: [[String]] {
        let before = [[], ["--lang", "ru"], ["--format=json", "--catalog", "/tmp/x.sqlite"], ["--format", "xml"], ["--lang"]]
        var lines: [[String]] = []
        for query in queries {
            for words in query.words {
                for fragment in fragments(query) {
                    lines.append([query.name] + words + fragment)
                    lines.append([query.name] + fragment + words)
                }
                for global in before { lines.append(global + [query.name] + words + ["--per-page", "20"]) }
            }
        }
        return lines + [[], ["--"], ["weather"], ["--lang", "ru"], ["--lang=ru", "--", "products"], ["help", "products"]]
    }

    func testWhatItReadsItReadsAsTheLibrary() throws {
        var accepted = 0
        for line in commandLines {
            guard let quick = QuickCommandLine.parse(line) else { continue }
            accepted += 1
            let library = try XCTUnwrap(
                CatalogCommands.parsedByTheLibrary(line), "read by hand, refused by the library: \(line)")
            XCTAssertTrue(type(of: quick) == type(of: library), "\(line): \(type(of: quick)), \(type(of: library))")
            XCTAssertEqual(values(of: quick), values(of: library), "\(line)")
        }
        // Not vacuous: a good share of the lines are read by hand (about 2,200 of 9,400).
        XCTAssertGreaterThan(accepted, commandLines.count / 5)
    }

    /// The plain forms are read by hand, not merely left to the library.
    func testThePlainFormsAreReadByHand() {
        for query in queries {
            guard let words = query.words.first else { continue }
            for option in query.options {
                for value in option.valid {
                    XCTAssertNotNil(
                        QuickCommandLine.parse([query.name] + words + [option.name, value]), "\(option.name) \(value)")
                    XCTAssertNotNil(QuickCommandLine.parse([query.name] + words + [option.name + "=" + value]))
                }
            }
            for flag in query.flags { XCTAssertNotNil(QuickCommandLine.parse([query.name] + words + [flag])) }
        }
        for line in [
            [
                "--catalog", "c.sqlite", "--lang", "ru", "--format", "json", "products", "--pest", "zymoseptoria-tritici",
                "--culture", "winter-wheat", "--per-page", "20",
            ],
            ["--catalog", "c.sqlite", "--lang", "ru", "--format", "json", "search", "ржавч", "--per-page", "20"],
        ] {
            XCTAssertNotNil(QuickCommandLine.parse(line), "\(line)")
        }
    }

    /// Each query's lists of options are its declared options (besides the global and page
    /// options), read from the declarations: an option added to a command is read by hand too.
    func testTheListedOptionsAreTheDeclaredOnes() {
        for command in QuickCommandLine.commands {
            var options: [String] = [], flags: [String] = [], pages = false
            for child in Mirror(reflecting: command.init()).children {
                guard let label = child.label?.dropFirst() else { continue }
                let type = String(describing: Swift.type(of: child.value))
                let name = "--" + GlobalOptions.kebabCase(String(label))
                if type.hasPrefix("Option<") { options.append(name) }
                if type.hasPrefix("Flag<") { flags.append(name) }
                if type == "OptionGroup<PageOptions>" { pages = true }
            }
            XCTAssertEqual(Set(command.quickOptions), Set(options), "\(command)")
            XCTAssertEqual(Set(command.quickFlags), Set(flags + (pages ? ["--all"] : [])), "\(command)")
            XCTAssertEqual(command.quickPages, pages, "\(command)")
        }
        let declared = Mirror(reflecting: PageOptions()).children.compactMap { child -> String? in
            guard let label = child.label, String(describing: type(of: child.value)).hasPrefix("Option<") else { return nil }
            return "--" + GlobalOptions.kebabCase(String(label.dropFirst()))
        }
        XCTAssertEqual(Set(PageOptions.valuedOptionNames), Set(declared))
    }

    /// Every value of a parsed command, by property path (`global.format=json`); a property the
    /// reading left unset shows as such.
    private func values(of parsed: Any, prefix: String = "") -> [String] {
        Mirror(reflecting: parsed).children.flatMap { child -> [String] in
            let name = prefix + (child.label ?? "?")
            guard let state = Mirror(reflecting: child.value).descendant("_parsedValue") else {
                return ["\(name)=\(String(reflecting: child.value))"]
            }
            guard let value = Mirror(reflecting: state).children.first, value.label == "value" else { return ["\(name) unset"] }
            if value.value is any ParsableArguments { return values(of: value.value, prefix: name + ".") }
            return ["\(name)=\(String(reflecting: value.value))"]
        }
    }
}
