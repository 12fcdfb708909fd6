import AgroDomain

/// A command's help (`agro help products`, `agro products --help`) in the interface language.
///
/// The front describes the command (its path, options and subcommands, with the English the
/// command declares); this page words it from `Localizable/<locale>.json`: `help.command.<path>`
/// for a command's abstract (`help.command.plan.check`), `help.option.<path>.<name>` else
/// `help.option.<name>` for an option's, `help.argument.<path>.<value name>` for a positional
/// argument's. What a language lacks reads in the declared English, so a new option is never
/// hidden.
package struct HelpPage: Sendable, Hashable {
    /// An option, a positional argument or a subcommand, as listed.
    package struct Entry: Sendable, Hashable {
        /// What the reader types: `--per-page <per-page>`, `<product>`, `products`.
        package var label: String
        /// The keys that word it, most particular first.
        package var keys: [String]
        /// The English the command declares.
        package var english: String

        /// An entry worded by the first of `keys` the language has, else `english`.
        package init(label: String, keys: [String], english: String) {
            self.label = label
            self.keys = keys
            self.english = english
        }
    }

    /// "agro plan check".
    package var command: String
    /// The command's own words (key `help.command.<path>`).
    package var abstract: Entry
    /// Positional arguments, in order.
    package var arguments: [Entry]
    package var options: [Entry]
    package var subcommands: [Entry]

    /// The page of `command`.
    package init(command: String, abstract: Entry, arguments: [Entry], options: [Entry], subcommands: [Entry]) {
        self.command = command
        self.abstract = abstract
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
    }

    /// The key of a command's abstract: "agro plan check" → `help.command.plan.check`, "agro" →
    /// `help.command.agro`.
    package static func commandKey(_ path: [String]) -> String {
        "help.command." + (path.count > 1 ? path.dropFirst().joined(separator: ".") : path.joined())
    }

    /// The page as printed: the abstract, the usage line, the arguments, the options, the
    /// subcommands.
    package func lines(_ s: Localizer) -> [String] {
        var usage = command
        if !subcommands.isEmpty { usage += " " + s("help.commandPlaceholder") }
        usage += arguments.map { " " + $0.label }.joined()
        if !options.isEmpty { usage += " " + s("help.optionsPlaceholder") }
        var lines = [Self.text(abstract, s), "", s("help.usage", usage)]
        let width = (arguments + options + subcommands).map { DisplayWidth.of($0.label) }.max() ?? 0
        for (heading, entries) in [("help.arguments", arguments), ("help.options", options), ("help.commands", subcommands)]
        where !entries.isEmpty {
            lines += ["", s(heading)]
            lines += entries.map { entry in
                "  " + entry.label + String(repeating: " ", count: width - DisplayWidth.of(entry.label)) + "  "
                    + Self.text(entry, s)
            }
        }
        if !subcommands.isEmpty { lines += ["", s("help.more", command)] }
        return lines
    }

    /// The words of `entry` in the language of `s`, else its English.
    private static func text(_ entry: Entry, _ s: Localizer) -> String {
        for key in entry.keys {
            let text = s(key)
            if text != key { return text }
        }
        return entry.english
    }
}
