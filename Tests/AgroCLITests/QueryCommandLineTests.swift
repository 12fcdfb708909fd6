import ArgumentParser
import XCTest

@testable import AgroCLI

/// How a catalog query's command line is read: the commands and values docs/cli.md gives
/// each plain command line, and the lines no reader may take for a query (help, a bad value,
/// another command), which go to swift-argument-parser's refusal. Each reader runs these same
/// assertions (a subclass each, below); the expectations are written by hand.
class QueryCommandLineTests: XCTestCase {
    override func setUpWithError() throws {
        if type(of: self) == QueryCommandLineTests.self { throw XCTSkip("the readers are the subclasses") }
    }

    /// The reader under test: the query `arguments` make, nil when it takes them for none.
    func read(_ arguments: [String]) throws -> (any ParsableCommand)? {
        preconditionFailure("each subclass is a reader")
    }

    /// `arguments` read as a `Command`, failing when they are not.
    func command<Command: ParsableCommand>(
        _ arguments: [String], as _: Command.Type, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Command {
        let read = try read(arguments)
        return try XCTUnwrap(read as? Command, "\(arguments): \(read.map { "\(type(of: $0))" } ?? "nil")", file: file, line: line)
    }

    func testTheBenchmarkedQueriesWithTheGlobalOptionsFirst() throws {
        let products = try command(
            [
                "--catalog", "c.sqlite", "--lang", "ru", "--format", "json", "products", "--pest", "zymoseptoria-tritici",
                "--culture", "winter-wheat", "--per-page", "20",
            ], as: ProductsCommand.self)
        XCTAssertEqual(products.global.catalog, "c.sqlite")
        XCTAssertEqual(products.global.lang, "ru")
        XCTAssertEqual(products.global.format, .json)
        XCTAssertEqual(products.pest, "zymoseptoria-tritici")
        XCTAssertEqual(products.culture, "winter-wheat")
        XCTAssertEqual(products.pages.perPage, 20)
        XCTAssertNil(products.pages.page)
        XCTAssertFalse(products.pages.all)
        XCTAssertNil(products.substance)
        XCTAssertFalse(products.letters)
        let search = try command(["--format=csv", "search", "ржавч", "--per-page=20"], as: SearchCommand.self)
        XCTAssertEqual(search.global.format, .csv)
        XCTAssertNil(search.global.catalog)
        XCTAssertEqual(search.words, ["ржавч"])
        XCTAssertEqual(search.pages.perPage, 20)
        XCTAssertNil(search.kind)
    }

    func testEachQuerysOwnOptionsAndWords() throws {
        let search = try command(["search", "leaf", "rust", "--kind", "pest", "--all"], as: SearchCommand.self)
        XCTAssertEqual(search.words, ["leaf", "rust"])
        XCTAssertEqual(search.kind, .pest)
        XCTAssertTrue(search.pages.all)
        // After `--` a word that starts with a dash is a word.
        XCTAssertEqual(try command(["search", "--", "-rust"], as: SearchCommand.self).words, ["-rust"])
        let letters = try command(["products", "--letters", "--category", "fungicide"], as: ProductsCommand.self)
        XCTAssertTrue(letters.letters)
        XCTAssertEqual(letters.category, "fungicide")
        XCTAssertEqual(letters.global.format, .table)
        // A repeated option: the last value counts.
        XCTAssertEqual(try command(["products", "--pest", "a", "--pest", "b"], as: ProductsCommand.self).pest, "b")
        let uses = try command(["uses", "--culture", "winter-wheat", "--stage", "32", "--page", "2"], as: UsesCommand.self)
        XCTAssertEqual(uses.culture, "winter-wheat")
        XCTAssertEqual(uses.stage, 32)
        XCTAssertEqual(uses.pages.page, 2)
        XCTAssertEqual(uses.sort, "name")
        XCTAssertEqual(try command(["uses", "--sort", "phi"], as: UsesCommand.self).sort, "phi")
        let product = try command(["product", "amistar", "--alternatives", "--culture", "wheat"], as: ProductCommand.self)
        XCTAssertEqual(product.product, "amistar")
        XCTAssertTrue(product.alternatives)
        XCTAssertEqual(product.culture, "wheat")
        let pest = try command(["pest", "Septoria tritici", "--lang=kk"], as: PestCommand.self)
        XCTAssertEqual(pest.pest, "Septoria tritici")
        XCTAssertEqual(pest.global.lang, "kk")
        XCTAssertEqual(try command(["culture", "winter-wheat"], as: CultureCommand.self).culture, "winter-wheat")
        XCTAssertEqual(try command(["substance", "azoxystrobin"], as: SubstanceCommand.self).substance, "azoxystrobin")
        XCTAssertEqual(try command(["pests", "--kind", "weed"], as: PestsCommand.self).kind, "weed")
        XCTAssertTrue(try command(["cultures", "--all"], as: CulturesCommand.self).pages.all)
        XCTAssertEqual(try command(["substances", "--page", "2", "--per-page", "5"], as: SubstancesCommand.self).pages.page, 2)
        XCTAssertEqual(try command(["regions", "--format", "json"], as: RegionsCommand.self).global.format, .json)
    }

    /// Left to swift-argument-parser's refusal, help or another command: no query.
    func testWhatIsNoQueryIsNoneOfThem() throws {
        let lines: [[String]] = [
            [], ["weather"], ["products", "--help"], ["products", "-h"], ["--version"], ["help", "products"],
            ["products", "--page", "0"], ["products", "--per-page", "x"], ["products", "--format", "xml"],
            ["products", "--no-such-option"], ["products", "--pest"], ["products", "word"], ["search"],
            ["search", "--kind", "weed", "rust"], ["product"], ["product", "a", "b"], ["uses", "--stage", "x"],
            ["products", "--letters=1"], ["--lang"],
        ]
        for line in lines { XCTAssertNil(try read(line), "\(line)") }
    }
}

/// swift-argument-parser, with the query's own command type as the root.
final class LibraryCommandLineTests: QueryCommandLineTests {
    override func read(_ arguments: [String]) throws -> (any ParsableCommand)? {
        CatalogCommands.parse(arguments)
    }

    /// The queries the hand reader leaves to it are read too.
    func testTheQueriesWithoutAHandReadingAreRead() throws {
        XCTAssertEqual(try command(["contacts", "KZ-AKM"], as: ContactsCommand.self).region, "KZ-AKM")
        XCTAssertNotNil(try read(["favorites", "list"]))
    }
}

/// The hand reader `agro` asks first (`QuickCommandLine`).
final class QuickCommandLineTests: QueryCommandLineTests {
    override func read(_ arguments: [String]) throws -> (any ParsableCommand)? {
        QuickCommandLine.parse(arguments)
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
}
