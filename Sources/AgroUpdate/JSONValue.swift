import Foundation

/// A JSON value, kept exactly as parsed so that a signature can be checked over what was
/// received rather than over what this build's model of a manifest happens to know.
public enum JSONValue: Sendable, Hashable, Codable {
    /// JSON null.
    case null
    /// true or false.
    case bool(Bool)
    /// Manifests hold integers only; a fraction or an exponent is rejected when parsing.
    case integer(Int64)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value but non-integer numbers, which manifests never carry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "only integers, strings, booleans, null, arrays and objects")
        }
    }

    /// Encodes the value as plain JSON (not canonical: see `canonicalBytes`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// Parses JSON text. Numbers other than integers are refused.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The canonical bytes of this value, the bytes a manifest signature covers.
    ///
    /// Canonical form, precisely:
    /// - no whitespace anywhere;
    /// - object members sorted by key, keys compared as sequences of UTF-8 bytes;
    /// - strings in double quotes, escaping only `"` as `\"`, `\` as `\\` and the control
    ///   characters U+0000 to U+001F as `\u00xx` (lower-case hex); everything else as raw UTF-8;
    /// - integers in decimal, `-` for negatives, no `+`, no leading zeros, no fraction or exponent;
    /// - `true`, `false`, `null` as such; arrays in their order.
    public var canonicalBytes: Data {
        var out = [UInt8]()
        out.reserveCapacity(1024)
        write(into: &out)
        return Data(out)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case let .bool(value): out += Array((value ? "true" : "false").utf8)
        case let .integer(value): out += Array(String(value).utf8)
        case let .string(value): Self.writeString(value, into: &out)
        case let .array(values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            // UTF-8 byte order, compared on the views: no arrays allocated per comparison.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, (key, value)) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The value with one top-level object member removed.
    func removing(_ key: String) -> JSONValue {
        guard case var .object(members) = self else { return self }
        members[key] = nil
        return .object(members)
    }

    subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }
}
