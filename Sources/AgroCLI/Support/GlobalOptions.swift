import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

/// Options every command accepts, before or after its name.
package struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use this catalog file.", valueName: "path"))
    package var catalog: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Language of data and interface (else AGRO_LANG, LC_ALL, LC_MESSAGES, LANG, else en).", valueName: "code"))
    package var lang: String?

    @Option(name: .long, help: "Output format: table, json or csv.")
    package var format: OutputFormat = .table

    /// The stores the program's `main` chose, which `Program.run` hands to the command here
    /// before it runs; not an option (the parser reads only the keys below).
    package var stores: (any StoreOpener)?

    private enum CodingKeys: String, CodingKey {
        case catalog, lang, format
    }

    package init() {}

    /// The global options read from the words of a command line the parser refused, so that
    /// the refusal is worded in the language asked for: the last `--lang CODE` or
    /// `--lang=CODE`, wherever it stands; none else.
    package static func scanning(_ arguments: [String]) -> GlobalOptions {
        var lang: String?
        for (index, word) in arguments.enumerated() {
            if word == "--lang", index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("-") {
                lang = arguments[index + 1]
            } else if word.hasPrefix("--lang=") {
                lang = String(word.dropFirst("--lang=".count))
            }
        }
        // Parsed, not assigned: the options of an unparsed value cannot be read.
        return (try? parse(lang.map { ["--lang", $0] } ?? [])) ?? (try? parse([])) ?? GlobalOptions()
    }

    /// `--name` of every option above that takes a value, for the pre-parser of
    /// `CatalogCommands.parse`. Written out: reading them from the declarations at every start
    /// (a `Mirror` and its children's type names) cost a sixth of a catalog query's start-up;
    /// `PreParserTests` reads them so and compares, so that the list cannot lag behind. An
    /// array: a `Set` made first here cost a scan of every protocol conformance of the program.
    package static let valuedOptionNames = ["--catalog", "--lang", "--format"]

    /// `perPage` → `per-page`, as swift-argument-parser names a `.long` option.
    package static func kebabCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "-" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The language to read in: flag, AGRO_LANG, the POSIX locale variables, en.
    package func resolvedLocale(environment: [String: String] = ProcessVariables.read()) -> String {
        if let lang, !lang.isEmpty { return LocaleChain.normalize(lang) }
        if let agro = environment["AGRO_LANG"], !agro.isEmpty { return LocaleChain.normalize(agro) }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let code = LocaleChain.normalize(value)
            // "C" and "POSIX" say nothing about the language.
            if code == "c" || code == "posix" { continue }
            return code
        }
        return "en"
    }
}

extension OutputFormat: ExpressibleByArgument {
    // What the library's defaults for a `CaseIterable` string enum return, written for this
    // type: the generic defaults cost a catalog query scans of every protocol conformance of
    // the program (Benchmarks/startup/README.md).
    /// The raw value, as `--format` takes it.
    public var defaultValueDescription: String { rawValue }
    /// Every value `--format` takes.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// None: each value describes itself.
    public static var allValueDescriptions: [String: String] { [:] }
}

/// Pagination options of every list.
package struct PageOptions: ParsableArguments {
    @Option(name: .long, help: "Page to show, from 1.")
    package var page: Int?

    @Option(name: .customLong("per-page"), help: "Items per page (default: fitted to the terminal height).")
    package var perPage: Int?

    @Flag(name: .long, help: "Print every item, without pages.")
    package var all = false

    package init() {}

    package func validate() throws {
        if let page, page < 1 { throw RequestError.belowMinimum(.page, value: String(page), minimum: 1) }
        if let perPage, perPage < 1 { throw RequestError.belowMinimum(.perPage, value: String(perPage), minimum: 1) }
    }
}
