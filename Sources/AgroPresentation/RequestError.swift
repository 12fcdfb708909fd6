import AgroDomain
import Foundation

/// How a front names the parameters of a request: the command line's options (`--letter`), or
/// the web's query parameters (`letter=`). An error about a parameter names it as the person
/// typed it.
package enum ParameterSpelling: Sendable, Hashable {
    case commandLine, query
}

/// A parameter the command line and the web both take, under the names each front gives it.
package enum Parameter: String, Sendable, Hashable, CaseIterable {
    case letter, pest, culture, stage, sort, group, category, kind, at, region, near, product, spray, units
    case q, page, perPage, format
    /// `agro tank`'s numbers and unit (`/tank`, `/api/v1/tank`).
    case dose, unit, area, water, tank
    /// The journal's field and span of days (`agro journal list`, `/api/v1/journal`), and a
    /// record's times as the API takes them.
    case field, from, to, start, end, name, sown, harvest
    /// A path's id (`/api/v1/product/ID`), `agro product ID`'s argument.
    case id
    /// `agro contacts REGION`, `/api/v1/contacts/REGION`: the region as a positional argument
    /// or a path segment.
    case contactsRegion

    /// "--per-page", "--at LAT,LON" on the command line; "perPage=", "at=LAT,LON" in a query.
    package func spelled(_ spelling: ParameterSpelling) -> String {
        switch (self, spelling) {
        case (.contactsRegion, .commandLine): return "agro contacts REGION"
        case (.contactsRegion, .query): return "/api/v1/contacts/REGION"
        case (.q, .commandLine): return "WORDS"
        case (.id, _): return "ID"
        case (_, .commandLine): return "--" + Self.kebabCase(rawValue) + (placeholder.map { " " + $0 } ?? "")
        case (_, .query): return rawValue + "=" + (placeholder ?? "")
        }
    }

    /// What the value looks like, where a message shows it: `LAT,LON`, `ID`.
    private var placeholder: String? {
        switch self {
        case .at, .near: return "LAT,LON"
        case .region: return "ID"
        default: return nil
        }
    }

    /// `perPage` → `per-page`, as swift-argument-parser names a `.long` option.
    package static func kebabCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "-" + character.lowercased() } else { out.append(character) }
        }
        return out
    }
}

/// A request (a command line or a web request) that cannot be answered as given.
///
/// Each case names its parameters as `Parameter`s, so that the wording (`CatalogErrorWording`)
/// spells them as the front that received them does; `message` is the English with the
/// command line's spelling. Status: bad usage (64), or 400 on the web.
package enum RequestError: UserFacingError, Hashable {
    /// `letter` is not one letter or digit.
    case notALetter(String)
    /// `agro uses` without --pest or --culture.
    case pestOrCultureNeeded
    /// A BBCH stage outside 0...99.
    case stageOutOfRange(Int)
    /// A value that is none of `valid`.
    case unknownValue(Parameter, value: String, valid: [String])
    /// A mode-of-action group code that cannot be read.
    case unknownGroup(String)
    /// Two parameters of which only one may be given.
    case notBoth(Parameter, Parameter)
    /// Neither of two parameters, one of which is needed.
    case oneNeeded(Parameter, Parameter)
    /// The first parameter only goes with the second.
    case needs(Parameter, Parameter)
    /// A parameter that is needed.
    case missing(Parameter)
    /// A number below its minimum.
    case belowMinimum(Parameter, value: String, minimum: Int)
    /// A number outside minimum...maximum.
    case outOfRange(Parameter, value: String, minimum: Int, maximum: Int)
    /// Words a command does not take (`command`: "agro weather").
    case unexpectedArguments([String], command: String)
    /// `--format csv` for a command that prints one record (`command`: "agro product").
    case notAList(command: String)
    /// A file larger than the command reads.
    case fileTooLarge(path: String, mebibytes: Int)
    /// A value that is not a number (a decimal point or comma is fine).
    case notANumber(Parameter, value: String)
    /// A value that is not a date YYYY-MM-DD.
    case notADate(Parameter, value: String)
    /// A request body that is not the JSON the endpoint takes (`detail`: where).
    case badJSON(detail: String)
    /// A request body (a posted plan or form) larger than the server reads.
    case bodyTooLarge(mebibytes: Int)
    /// A multipart form whose boundary is missing or breaks RFC 2046 (1 to 70 characters).
    case badMultipart(maximumBoundary: Int)

    /// English, with the command line's spelling (for logs and library users).
    package var message: String {
        text(.commandLine) { key, arguments in TextTemplate.fill(Self.english[key] ?? key, arguments) }
    }

    /// The English of `Localizable/en.json` for these keys (ErrorWordingTests compares them).
    static let english: [String: String] = [
        "error.RequestError.notALetter": "{0} takes one letter or digit, not \"{1}\"",
        "error.RequestError.pestOrCultureNeeded": "give {0}, {1} or both",
        "error.RequestError.stageOutOfRange": "{0} takes a BBCH stage from 0 to 99, not {1}",
        "error.RequestError.unknownValue": "{0} takes one of {2}, not \"{1}\"",
        "error.RequestError.unknownGroup": "{0} takes a code such as \"FRAC 3\", \"IRAC 4A\", \"HRAC 2\" or \"11\", not \"{1}\"",
        "error.RequestError.notBoth": "give either {0} or {1}, not both",
        "error.RequestError.oneNeeded": "{0} or {1} is needed",
        "error.RequestError.needs": "{0} goes with {1}",
        "error.RequestError.missing": "{0} is needed",
        "error.RequestError.belowMinimum": "{0} must be {2} or more, not \"{1}\"",
        "error.RequestError.outOfRange": "{0} must be from {2} to {3}, not \"{1}\"",
        "error.RequestError.unexpectedArguments": "unexpected argument \"{0}\"; see {1} --help",
        "format.csvNotList":
            "{0} prints one record, not a list: --format csv works on lists; use --format table or --format json",
        "plan.tooLarge": "{0} is larger than {1} MiB: a season plan is far smaller",
        "error.RequestError.notANumber": "{0} takes a number, not \"{1}\"",
        "error.RequestError.notADate": "{0} takes a date YYYY-MM-DD, not \"{1}\"",
        "error.RequestError.badJSON": "what was sent is not the JSON this takes (at \"{0}\")",
        "error.RequestError.bodyTooLarge": "what was sent is larger than {0} MiB: a season plan is far smaller",
        "error.RequestError.badMultipart":
            "the form cannot be read: its multipart boundary is missing or longer than {0} characters",
    ]

    /// The words of this error: `word(key, arguments)` looks the key up in the interface
    /// language; the parameters are spelled as `spelling` writes them.
    package func text(_ spelling: ParameterSpelling, word: (String, [String]) -> String) -> String {
        let key = "error.RequestError."
        func p(_ parameter: Parameter) -> String { parameter.spelled(spelling) }
        switch self {
        case let .notALetter(value): return word(key + "notALetter", [p(.letter), value])
        case .pestOrCultureNeeded: return word(key + "pestOrCultureNeeded", [p(.pest), p(.culture)])
        case let .stageOutOfRange(stage): return word(key + "stageOutOfRange", [p(.stage), String(stage)])
        case let .unknownValue(parameter, value, valid):
            return word(key + "unknownValue", [p(parameter), value, valid.joined(separator: ", ")])
        case let .unknownGroup(value): return word(key + "unknownGroup", [p(.group), value])
        case let .notBoth(first, second): return word(key + "notBoth", [p(first), p(second)])
        case let .oneNeeded(first, second): return word(key + "oneNeeded", [p(first), p(second)])
        case let .needs(first, second): return word(key + "needs", [p(first), p(second)])
        case let .missing(parameter): return word(key + "missing", [p(parameter)])
        case let .belowMinimum(parameter, value, minimum):
            return word(key + "belowMinimum", [p(parameter), value, String(minimum)])
        case let .outOfRange(parameter, value, minimum, maximum):
            return word(key + "outOfRange", [p(parameter), value, String(minimum), String(maximum)])
        case let .unexpectedArguments(words, command):
            return word(key + "unexpectedArguments", [words.joined(separator: " "), command])
        case let .notAList(command): return word("format.csvNotList", [command])
        case let .fileTooLarge(path, mebibytes): return word("plan.tooLarge", [path, String(mebibytes)])
        case let .notANumber(parameter, value): return word(key + "notANumber", [p(parameter), value])
        case let .notADate(parameter, value): return word(key + "notADate", [p(parameter), value])
        case let .badJSON(detail): return word(key + "badJSON", [detail])
        case let .bodyTooLarge(mebibytes): return word(key + "bodyTooLarge", [String(mebibytes)])
        case let .badMultipart(maximum): return word(key + "badMultipart", [String(maximum)])
        }
    }
}
