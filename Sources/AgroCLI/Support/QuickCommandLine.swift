import AgroDomain
import AgroPresentation
import ArgumentParser

/// The command line of a frequent catalog query, read by hand.
///
/// swift-argument-parser reads a command line by reflection over the command's declarations,
/// and its first dynamic casts make the Swift runtime scan every protocol conformance of the
/// program: over a third of a catalog query's instructions (Benchmarks/startup/README.md). The
/// commonest query command lines are plain (`--name value`, `--name=value`, flags, words), so
/// this reads those, and only those, into the same command values the library would make.
///
/// Whatever it does not fully understand it declines: help and `--version`, an unknown or short
/// option, a value that starts with a dash or is empty, a flag given twice or with a value, a
/// value the option does not take, a command that would refuse its values in `validate()`.
/// `agro` then hands the line to swift-argument-parser (`CatalogCommands.parse`), so the wording
/// and status of every refusal stay the library's. The same tests run against both readers
/// (`QueryCommandLineTests`).
package struct QuickCommandLine {
    /// The values of the options, in the order given (a repeated option's last value counts,
    /// as in swift-argument-parser).
    private var values: [(name: String, value: String)] = []
    /// The flags given, each once.
    private var flags: [String] = []
    /// The words that are no option's value, in order (after `--`, every word).
    package private(set) var arguments: [String] = []

    /// The query commands read by hand. An array, not a dictionary: hashing a type's name
    /// would be the first use of `Hashable` on the path, and a conformance scan with it.
    static let commands: [any QuickParsable.Type] = [
        ProductsCommand.self, SearchCommand.self, PestsCommand.self, CulturesCommand.self, SubstancesCommand.self,
        RegionsCommand.self, ProductCommand.self, PestCommand.self, CultureCommand.self, SubstanceCommand.self,
        UsesCommand.self,
    ]

    /// `arguments` (the program's, without its name) as a catalog query, or nil when this reader
    /// declines it (see the type's description); the caller then asks swift-argument-parser.
    package static func parse(_ arguments: [String]) -> (any AgroCommand)? {
        var line = QuickCommandLine(), command: (any QuickParsable.Type)?, index = arguments.startIndex
        var afterTerminator = false
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if afterTerminator || !word.hasPrefix("-") {
                if let command {
                    line.arguments.append(word)
                } else {
                    // The first word that is no global option's value names the command.
                    guard let named = commands.first(where: { $0.configuration.commandName == word }) else { return nil }
                    command = named
                }
                continue
            }
            // Before the command's name only the global options, as `CatalogCommands.parse` allows.
            guard let command else {
                guard let (name, value) = option(word, in: arguments, at: &index),
                    GlobalOptions.valuedOptionNames.contains(name), let value = value ?? next(in: arguments, at: &index)
                else { return nil }
                line.values.append((name, value))
                continue
            }
            if word == "--" {
                afterTerminator = true
                continue
            }
            guard let (name, value) = option(word, in: arguments, at: &index) else { return nil }
            if command.quickFlags.contains(name) {
                // `--flag=value`, or a flag twice: the library's to judge.
                guard value == nil, !line.flags.contains(name) else { return nil }
                line.flags.append(name)
                continue
            }
            let valued =
                GlobalOptions.valuedOptionNames.contains(name) || command.quickOptions.contains(name)
                || (command.quickPages && PageOptions.valuedOptionNames.contains(name))
            guard valued, let value = value ?? next(in: arguments, at: &index) else { return nil }
            line.values.append((name, value))
        }
        guard let command, var parsed = command.init(line), (try? parsed.validate()) != nil else { return nil }
        return parsed
    }

    /// The option `word` names (`--name`, or `--name=value` with its value), nil for what is
    /// no plain long option (`-x`, `---x`). An empty or dash-led value after `=` declines too.
    private static func option(
        _ word: String, in arguments: [String], at index: inout Int
    ) -> (name: String, value: String?)? {
        guard word.hasPrefix("--"), word.count > 2, !word.dropFirst(2).hasPrefix("-") else { return nil }
        guard let equals = word.firstIndex(of: "=") else {
            // Help, version and the parser's own options are the library's.
            return word == "--help" || word == "--version" ? nil : (word, nil)
        }
        let value = String(word[word.index(after: equals)...])
        guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
        return (String(word[..<equals]), value)
    }

    /// The word at `index` as an option's value, advancing past it; nil (declined) at the end,
    /// for an empty word and for one that starts with a dash, which the library reads as an
    /// option unless told otherwise.
    private static func next(in arguments: [String], at index: inout Int) -> String? {
        guard index < arguments.endIndex, !arguments[index].isEmpty, !arguments[index].hasPrefix("-") else { return nil }
        index += 1
        return arguments[index - 1]
    }

    /// The last value of the option `name` (`--pest`), nil when not given.
    package subscript(name: String) -> String? {
        values.last(where: { $0.name == name })?.value
    }

    /// Whether the flag `name` (`--letters`) was given.
    package func has(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The global options given; nil when `--format` names no format.
    var global: GlobalOptions? {
        var global = GlobalOptions()
        global.catalog = self["--catalog"]
        global.lang = self["--lang"]
        guard let format = value("--format", as: OutputFormat.init(argument:)) else { return nil }
        global.format = format ?? .table
        return global
    }

    /// The global options and the one word a card command takes (a product, pest, culture or
    /// substance); nil for no word, several, or `help` (the library's help command).
    var card: (global: GlobalOptions, id: String)? {
        guard arguments.count == 1, arguments[0] != "help", let global else { return nil }
        return (global, arguments[0])
    }

    /// The page options given; nil when a number is not one or is below 1 (`validate()`'s
    /// refusal is the library's to word).
    var pages: PageOptions? {
        var pages = PageOptions()
        pages.all = has("--all")
        guard let page = integer("--page"), let perPage = integer("--per-page") else { return nil }
        (pages.page, pages.perPage) = (page, perPage)
        guard (try? pages.validate()) != nil else { return nil }
        return pages
    }

    /// The value of the option `name` as an integer: `.some(nil)` when not given, nil when a
    /// value given is not one.
    func integer(_ name: String) -> Int?? {
        value(name, as: Int.init(argument:))
    }

    /// The last value of the option `name` read by `read`: `.some(nil)` when not given, nil
    /// when any value given does not read (swift-argument-parser reads every one, and refuses
    /// `--format xml --format json`).
    func value<Value>(_ name: String, as read: (String) -> Value?) -> Value?? {
        var last: Value?
        for given in values where given.name == name {
            guard let value = read(given.value) else { return nil }
            last = value
        }
        return .some(last)
    }
}

/// A query command `QuickCommandLine` reads. Each lists its own options; the global options,
/// and the page options for a list (`quickPages`), are read for all.
protocol QuickParsable: AgroCommand {
    /// Its options that take a value (`--pest`), besides the global and page options.
    static var quickOptions: [String] { get }
    /// Its flags (`--letters`), `--all` of the page options included.
    static var quickFlags: [String] { get }
    /// Whether it has the page options (`--page`, `--per-page`, `--all`).
    static var quickPages: Bool { get }
    /// The command with the values of `line`, every other at its declared default; nil when
    /// a value is not one the option takes or the words are not what the command takes.
    init?(_ line: QuickCommandLine)
}

extension QuickParsable {
    static var quickFlags: [String] { [] }
}

extension PageOptions {
    /// `--name` of the options above that take a value, written out like
    /// `GlobalOptions.valuedOptionNames` (and checked against the declarations alike).
    static let valuedOptionNames = ["--page", "--per-page"]
}

// Each query's reading. The commands' defaults are written again here (`sort` of `uses`,
// `false` of a flag): the tests compare every value with the library's reading, so a default
// changed in one place only fails them.

extension ProductsCommand: QuickParsable {
    static let quickOptions = ["--pest", "--culture", "--substance", "--category", "--company", "--letter"]
    static let quickFlags = ["--letters", "--all"]
    static let quickPages = true

    init?(_ line: QuickCommandLine) {
        self.init()
        guard line.arguments.isEmpty, let global = line.global, let pages = line.pages else { return nil }
        (self.global, self.pages) = (global, pages)
        (pest, culture, substance) = (line["--pest"], line["--culture"], line["--substance"])
        (category, company, letter) = (line["--category"], line["--company"], line["--letter"])
        letters = line.has("--letters")
    }
}

extension SearchCommand: QuickParsable {
    static let quickOptions = ["--kind"]
    static let quickFlags = ["--all"]
    static let quickPages = true

    init?(_ line: QuickCommandLine) {
        self.init()
        // No words is the library's refusal to word; `help` may be its help command.
        guard !line.arguments.isEmpty, !line.arguments.contains("help"), let global = line.global,
            let pages = line.pages
        else { return nil }
        (self.global, self.pages, words) = (global, pages, line.arguments)
        guard let kind = line.value("--kind", as: EntityKind.init(argument:)) else { return nil }
        self.kind = kind
    }
}

extension PestsCommand: QuickParsable {
    static let quickOptions = ["--culture", "--kind"]
    static let quickFlags = ["--all"]
    static let quickPages = true

    init?(_ line: QuickCommandLine) {
        self.init()
        guard line.arguments.isEmpty, let global = line.global, let pages = line.pages else { return nil }
        (self.global, self.pages, culture, kind) = (global, pages, line["--culture"], line["--kind"])
    }
}

/// A list with no options of its own: the global options, the page options and `--all`.
protocol QuickPlainList: QuickParsable {
    init()
    var global: GlobalOptions { get set }
    var pages: PageOptions { get set }
}

extension QuickPlainList {
    static var quickOptions: [String] { [] }
    static var quickFlags: [String] { ["--all"] }
    static var quickPages: Bool { true }

    init?(_ line: QuickCommandLine) {
        self.init()
        guard line.arguments.isEmpty, let global = line.global, let pages = line.pages else { return nil }
        (self.global, self.pages) = (global, pages)
    }
}

extension CulturesCommand: QuickPlainList {}
extension SubstancesCommand: QuickPlainList {}
extension RegionsCommand: QuickPlainList {}

extension ProductCommand: QuickParsable {
    static let quickOptions = ["--culture", "--pest"]
    static let quickFlags = ["--alternatives"]
    static let quickPages = false

    init?(_ line: QuickCommandLine) {
        self.init()
        guard let (global, id) = line.card else { return nil }
        (self.global, product) = (global, id)
        (alternatives, culture, pest) = (line.has("--alternatives"), line["--culture"], line["--pest"])
    }
}

extension PestCommand: QuickParsable {
    static let quickOptions = ["--culture"]
    static let quickPages = false

    init?(_ line: QuickCommandLine) {
        self.init()
        guard let (global, id) = line.card else { return nil }
        (self.global, pest, culture) = (global, id, line["--culture"])
    }
}

extension CultureCommand: QuickParsable {
    static let quickOptions: [String] = []
    static let quickPages = false

    init?(_ line: QuickCommandLine) {
        self.init()
        guard let (global, id) = line.card else { return nil }
        (self.global, culture) = (global, id)
    }
}

extension SubstanceCommand: QuickParsable {
    static let quickOptions: [String] = []
    static let quickPages = false

    init?(_ line: QuickCommandLine) {
        self.init()
        guard let (global, id) = line.card else { return nil }
        (self.global, substance) = (global, id)
    }
}

extension UsesCommand: QuickParsable {
    static let quickOptions = ["--pest", "--culture", "--stage", "--substance", "--group", "--sort"]
    static let quickFlags = ["--all"]
    static let quickPages = true

    init?(_ line: QuickCommandLine) {
        self.init()
        guard line.arguments.isEmpty, let global = line.global, let pages = line.pages,
            let stage = line.integer("--stage")
        else { return nil }
        (self.global, self.pages, self.stage) = (global, pages, stage)
        (pest, culture, substance, group) = (line["--pest"], line["--culture"], line["--substance"], line["--group"])
        sort = line["--sort"] ?? "name"
    }
}
