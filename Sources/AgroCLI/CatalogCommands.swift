import AgroPresentation
import ArgumentParser

/// The commands that answer from the catalog and the user database alone: the queries of
/// the field. Both programs have them; `agro` runs them itself without starting the complete
/// program (see `Sources/agro/Agro.swift`).
package enum CatalogCommands {
    package static var all: [any ParsableCommand.Type] {
        [
            ProductsCommand.self, ProductCommand.self, SubstancesCommand.self, SubstanceCommand.self,
            CulturesCommand.self, CultureCommand.self, PestsCommand.self, PestCommand.self,
            SchemeCommand.self, SearchCommand.self, RegionsCommand.self, ContactsCommand.self,
            FavoritesCommand.self,
            UsesCommand.self, PlanCommand.self, TankCommand.self,
        ]
    }

    /// The super-command name every query command declares (`agro`). swift-argument-parser
    /// checks a root command's arguments for `--generate-completion-script` by parsing them twice
    /// more, as two commands of its own, unless the root names a super-command: parsing a query
    /// with its own type as the root (`parse`), that check cost a tenth of a catalog query's
    /// instructions (Benchmarks/startup/README.md). Completion scripts come from agro-full's
    /// whole tree, whose root does not name one.
    package static let superCommandName = "agro"

    /// The configuration of the query command `name`, which names `superCommandName`.
    static func configuration(
        _ name: String, abstract: String, discussion: String = "", subcommands: [any ParsableCommand.Type] = [],
        defaultSubcommand: (any ParsableCommand.Type)? = nil
    ) -> CommandConfiguration {
        CommandConfiguration(
            commandName: name, _superCommandName: superCommandName, abstract: abstract, discussion: discussion,
            subcommands: subcommands, defaultSubcommand: defaultSubcommand)
    }

    /// The command line parsed as a catalog query by swift-argument-parser, with that command's
    /// type alone; nil when it is not one (help, --version, a usage error, another command).
    /// `QuickCommandLine.parse` is a faster reading of the plain lines, which `agro` asks first.
    ///
    /// Parsing with the query's own type instead of the whole command tree saves most of
    /// swift-argument-parser's start-up work (reflection over every command's options). The
    /// global options given before the command's name move after it: every command accepts
    /// them there too.
    package static func parse(_ arguments: [String]) -> (any AgroCommand)? {
        var global: [String] = [], index = arguments.startIndex
        while index < arguments.endIndex, arguments[index].hasPrefix("-") {
            let option = arguments[index]
            if GlobalOptions.valuedOptionNames.contains(option), index + 1 < arguments.endIndex {
                global += arguments[index...(index + 1)]
                index += 2
            } else if let equals = option.firstIndex(of: "="),
                GlobalOptions.valuedOptionNames.contains(String(option[..<equals]))
            {
                global.append(option)
                index += 1
            } else {
                return nil
            }
        }
        guard index < arguments.endIndex,
            let type = all.first(where: { $0.configuration.commandName == arguments[index] })
        else { return nil }
        // The global options go after the subcommand names (`plan check`), where the command
        // that declares them can read them.
        var end = index + 1, current: any ParsableCommand.Type = type
        while end < arguments.endIndex,
            let sub = current.configuration.subcommands.first(where: { $0.configuration.commandName == arguments[end] })
        {
            current = sub
            end += 1
        }
        guard let command = try? type.parseAsRoot(Array(arguments[(index + 1)..<end]) + global + arguments[end...]),
            // Not the library's help command (`agro favorites help add`).
            isCommand(Swift.type(of: command), in: type)
        else { return nil }
        // A group without a subcommand named (`plan`) is no query: the whole tree prints its help.
        return command as? any AgroCommand
    }

    /// Whether `type` is `root` or one of its subcommands, at any depth.
    private static func isCommand(_ type: any ParsableCommand.Type, in root: any ParsableCommand.Type) -> Bool {
        type == root || root.configuration.subcommands.contains { isCommand(type, in: $0) }
    }
}
