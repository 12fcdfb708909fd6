import AgroDomain
import AgroPresentation
import ArgumentParser

/// swift-argument-parser's refusals of a command line, read into typed errors so that they are
/// worded in the interface language like every other error: the parser's own messages are
/// English only.
///
/// The parser's error types (`CommandError`, `ParserError`, `Name`) are internal to it; their
/// cases and values are read through `Mirror`, which the exact version pinned in Package.swift
/// keeps stable, and the tests that run the program with bad command lines in each language
/// check. What cannot be read this way still gets a worded line (`UsageError.Kind.unreadable`),
/// never the parser's English.
package enum ParserRefusal {
    /// The error to word for `error`, thrown while parsing a command line of `root`: the typed
    /// error a command's own `validate()` threw, or a `UsageError`. Nil when `error` is no
    /// failure (help, version) or an exit code a command chose: the parser ends those.
    package static func userError(_ error: any Error, root: any ParsableCommand.Type) -> (any UserFacingError)? {
        if error is ExitCode || root.exitCode(for: error) == .success { return nil }
        if let error = error as? any UserFacingError { return error }
        let mirror = Mirror(reflecting: error)
        let stack = mirror.descendant("commandStack") as? [any ParsableCommand.Type] ?? [root]
        let command = stack.map { $0._commandName }.joined(separator: " ")
        guard let parserError = mirror.descendant("parserError") else { return UsageError(.unreadable, command: command) }
        if let caseError = validationError(in: parserError) { return caseError }
        let kind = Self.kind(of: parserError, message: root.message(for: error), atRoot: stack.count <= 1)
        return UsageError(kind ?? .unreadable, command: command)
    }

    /// The error a command's `validate()` threw, when it is one of ours.
    private static func validationError(in parserError: Any) -> (any UserFacingError)? {
        guard let child = Mirror(reflecting: parserError).children.first, child.label == "userValidationError" else { return nil }
        return child.value as? any UserFacingError
    }

    /// The case of the parser's error, with its values; `message` (the parser's English) only
    /// for what the error does not carry itself: a close option's name, the accepted values, a
    /// missing argument's placeholder. `atRoot`: no command was recognised yet.
    private static func kind(of parserError: Any, message: String, atRoot: Bool) -> UsageError.Kind? {
        guard let child = Mirror(reflecting: parserError).children.first else {
            return String(describing: parserError) == "missingSubcommand" ? .missingSubcommand : nil
        }
        let values = Mirror(reflecting: child.value).children.map(\.value)
        switch child.label {
        case "unknownOption":
            guard values.count == 2, let option = name(values[1]) else { return nil }
            return .unknownOption(option, suggestion: quoted(after: "Did you mean ", in: message))
        case "missingValueOrUnknownCompositeOption":
            guard values.count == 3, let option = name(values[2]) else { return nil }
            return .unknownOption(option, suggestion: nil)
        case "invalidOption":
            return (child.value as? String).map { .unknownOption($0, suggestion: nil) }
        case "nonAlphanumericShortOption":
            return (child.value as? Character).map { .unknownOption("-" + String($0), suggestion: nil) }
        case "missingValueForOption":
            guard values.count == 2, let option = name(values[1]) else { return nil }
            return .missingValue(option: option)
        case "unexpectedValueForOption":
            guard values.count == 3, let option = name(values[1]), let value = values[2] as? String else { return nil }
            return .takesNoValue(option: option, value: value)
        case "unexpectedExtraValues":
            let words = values.compactMap { Mirror(reflecting: $0).children.dropFirst().first?.value as? String }
            guard let first = words.first else { return nil }
            // Before any command, the first word was meant as one.
            return atRoot && !first.hasPrefix("-") ? .unknownCommand(first) : .unexpectedArguments(words)
        case "duplicateExclusiveValues":
            return quoted(after: "set with flag ", in: message).map { .givenTwice($0) }
        case "noValue":
            // "Missing expected argument '<product>'", "Missing one of: '--a', '--b'".
            guard let open = message.firstIndex(of: "'"), let close = message.lastIndex(of: "'"), open < close else {
                return nil
            }
            return .missingArgument(message[message.index(after: open)..<close].replacingOccurrences(of: "', '", with: ", "))
        case "unableToParseValue":
            guard values.count >= 3, let value = values[2] as? String else { return nil }
            guard let option = unwrapped(values[1]).flatMap(name) ?? quoted(after: "is invalid for ", in: message) else {
                return nil
            }
            return .invalidValue(option: option, value: value, valid: validValues(in: message))
        default:
            return nil
        }
    }

    /// A parser `Name` as typed: `--per-page`, `-p`.
    private static func name(_ value: Any) -> String? {
        guard let child = Mirror(reflecting: value).children.first else { return nil }
        switch child.label {
        case "long": return (child.value as? String).map { "--" + $0 }
        case "longWithSingleDash": return (child.value as? String).map { "-" + $0 }
        case "short":
            let character = child.value as? Character ?? Mirror(reflecting: child.value).children.first?.value as? Character
            return character.map { "-" + String($0) }
        default: return nil
        }
    }

    /// The value inside an optional, nil for none.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// The text in quotes right after `marker` in `message`: `Did you mean '--page'?` gives
    /// `--page`.
    private static func quoted(after marker: String, in message: String) -> String? {
        guard let range = message.range(of: marker + "'") else { return nil }
        let rest = message[range.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }

    /// The values an option takes, as the parser lists them after "Please provide one of":
    /// `'table', 'json' or 'csv'`, or one `  - value` a line.
    private static func validValues(in message: String) -> [String] {
        guard let range = message.range(of: "Please provide one of") else { return [] }
        let list = message[range.upperBound...]
        if list.hasPrefix(" the following:") {
            return list.split(separator: "\n").dropFirst().map { $0.trimmingPrefix("  - ") }.map(String.init)
        }
        return list.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }
}
