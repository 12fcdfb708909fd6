import Foundation

/// A value that JSON holds as its text (`description`), read back by `init?(_:)`: a date
/// "2026-05-14", a moment "2026-05-14T07:30".
public protocol CodedAsText: Codable, CustomStringConvertible {
    /// The value `text` writes; nil for any other text.
    init?(_ text: String)
    /// Why `text` is not such a value, for the decoding error.
    static func unreadable(_ text: String) -> String
}

extension CodedAsText {
    /// Decodes the text form; any other text is a data-corrupted error naming it.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: Self.unreadable(text)))
        }
        self = value
    }

    /// Encodes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
