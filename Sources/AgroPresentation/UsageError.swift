import AgroDomain

/// A command line that cannot be read: what the argument parser refuses (an unknown option, a
/// missing or unreadable value, a word no command takes) and what a command's own option checks
/// refuse.
///
/// The command-line front, which alone imports the parser, reads the parser's errors into these
/// cases; they are worded here, in the interface language, like every other error (the parser's
/// own messages are English only). Status: bad usage (64).
///
///     UsageError(.unknownOption("--bogus", suggestion: nil), command: "agro products").message
///     // "unknown option --bogus; see agro products --help"
package struct UsageError: UserFacingError, Hashable {
    /// What is wrong with the command line. Options are spelled as typed (`--per-page`),
    /// positional arguments by their placeholder (`<product>`).
    package enum Kind: Hashable, Sendable {
        /// An option the command does not take; `suggestion`: a close one it does take.
        case unknownOption(String, suggestion: String?)
        /// The first word is no command of the program.
        case unknownCommand(String)
        /// Words the command does not take.
        case unexpectedArguments([String])
        /// A positional argument or a required option that is missing.
        case missingArgument(String)
        /// An option given without its value.
        case missingValue(option: String)
        /// A value the option cannot read; `valid`: the values it takes, when they are few.
        case invalidValue(option: String, value: String, valid: [String])
        /// A flag given a value (`--all=yes`).
        case takesNoValue(option: String, value: String)
        /// A flag given twice, or two flags of which only one may be given.
        case givenTwice(String)
        /// A command that needs one of its subcommands (`agro db`).
        case missingSubcommand
        /// A number outside minimum...maximum.
        case outOfRange(option: String, value: String, minimum: Int, maximum: Int)
        /// A number below its minimum.
        case belowMinimum(option: String, value: String, minimum: Int)
        /// A number of seconds outside (0, maximum].
        case secondsOutOfRange(option: String, value: String, maximum: Int)
        /// Anything else the parser refuses.
        case unreadable
    }

    /// What is wrong.
    package var kind: Kind
    /// The command whose `--help` lists what it takes: "agro products".
    package var command: String

    /// `kind` in `command`.
    package init(_ kind: Kind, command: String) {
        self.kind = kind
        self.command = command
    }

    /// English (for logs and library users).
    package var message: String {
        text { key, arguments in TextTemplate.fill(Self.english[key] ?? key, arguments) }
    }

    /// The English of `Localizable/en.json` for these keys (ErrorWordingTests compares them).
    static let english: [String: String] = [
        "error.UsageError.line": "{0}; see {1} --help",
        "error.UsageError.unknownOption": "unknown option {0}",
        "error.UsageError.unknownOption.suggestion": "unknown option {0} (did you mean {1}?)",
        "error.UsageError.unknownCommand": "there is no command \"{0}\"",
        "error.UsageError.unexpectedArguments": "unexpected argument \"{0}\"",
        "error.UsageError.missingArgument": "{0} is needed",
        "error.UsageError.missingValue": "{0} needs a value",
        "error.UsageError.invalidValue": "{0} cannot take \"{1}\"",
        "error.UsageError.invalidValue.valid": "{0} takes one of {2}, not \"{1}\"",
        "error.UsageError.takesNoValue": "{0} takes no value, not \"{1}\"",
        "error.UsageError.givenTwice": "{0} is given twice or with an option it excludes",
        "error.UsageError.missingSubcommand": "a subcommand is needed",
        "error.UsageError.secondsOutOfRange": "{0} must be more than 0 and at most {2} seconds, not \"{1}\"",
        "error.UsageError.unreadable": "this command line cannot be read",
        "error.RequestError.belowMinimum": "{0} must be {2} or more, not \"{1}\"",
        "error.RequestError.outOfRange": "{0} must be from {2} to {3}, not \"{1}\"",
    ]

    /// The words of this error, one line: `word(key, arguments)` looks the key up in the
    /// interface language.
    package func text(word: (String, [String]) -> String) -> String {
        let key = "error.UsageError."
        let what: String
        switch kind {
        case let .unknownOption(option, nil): what = word(key + "unknownOption", [option])
        case let .unknownOption(option, suggestion?): what = word(key + "unknownOption.suggestion", [option, suggestion])
        case let .unknownCommand(name): what = word(key + "unknownCommand", [name])
        case let .unexpectedArguments(words): what = word(key + "unexpectedArguments", [words.joined(separator: " ")])
        case let .missingArgument(name): what = word(key + "missingArgument", [name])
        case let .missingValue(option): what = word(key + "missingValue", [option])
        case let .invalidValue(option, value, valid) where valid.isEmpty: what = word(key + "invalidValue", [option, value])
        case let .invalidValue(option, value, valid):
            what = word(key + "invalidValue.valid", [option, value, valid.joined(separator: ", ")])
        case let .takesNoValue(option, value): what = word(key + "takesNoValue", [option, value])
        case let .givenTwice(option): what = word(key + "givenTwice", [option])
        case .missingSubcommand: what = word(key + "missingSubcommand", [])
        // The same words as a web request's numbers out of range.
        case let .outOfRange(option, value, minimum, maximum):
            what = word("error.RequestError.outOfRange", [option, value, String(minimum), String(maximum)])
        case let .belowMinimum(option, value, minimum):
            what = word("error.RequestError.belowMinimum", [option, value, String(minimum)])
        case let .secondsOutOfRange(option, value, maximum):
            what = word(key + "secondsOutOfRange", [option, value, String(maximum)])
        case .unreadable: what = word(key + "unreadable", [])
        }
        return word(key + "line", [what, command])
    }
}
