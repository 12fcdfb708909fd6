import Foundation

/// A library error as data: its type, its case and the case's values, so that a program can
/// give it a status and word it in its own language without importing the library (and the C
/// libraries that library links) that throws it.
///
///     UpdateError.timedOut(url: "https://h").errorCase
///     // ErrorCase(type: "UpdateError", name: "timedOut", arguments: ["https://h"])
///
/// The program's interface strings word it as `error.<type>.<name>` with the arguments as
/// `{0}`, `{1}`, ... A case worded two ways has two names ("malformedXML" and
/// "malformedXML.line").
public struct ErrorCase: Sendable, Hashable {
    /// The error type's name: "UpdateError".
    public var type: String
    /// The case, possibly with a variant: "checksumMismatch", "malformedXML.line".
    public var name: String
    /// The case's values, in the order the wording takes them.
    public var arguments: [String]

    public init(_ type: String, _ name: String, _ arguments: [String] = []) {
        self.type = type
        self.name = name
        self.arguments = arguments
    }

    /// The interface-string key of this case: `error.<type>.<name>`.
    public var key: String { "error.\(type).\(name)" }
}

/// An error that describes itself as an `ErrorCase`: what the errors of the networking,
/// update and import libraries do, so that the presentation layer depends on none of them.
public protocol DescribedError: UserFacingError {
    /// This error's case and values; one exhaustive switch in the library.
    var errorCase: ErrorCase { get }
}
