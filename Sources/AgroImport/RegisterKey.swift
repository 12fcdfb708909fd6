import Foundation

/// A metadata key of the register (a GUID in 2026, an integer in 2024), as the catalog writes
/// it, with a cheap identity for the dictionaries of the mapping.
///
/// The mapping looks keys up some 260 000 times (cultures, pests and obligations of every
/// use); hashing and comparing 36-byte GUID strings was most of that time. A GUID written in
/// the normalized form (upper-case `8-4-4-4-12` hex) is hashed and compared as its 16 bytes,
/// an integer without leading zeros as its value; any other key as its text. Each form maps
/// to one text only, so two keys are equal exactly when their texts are.
struct RegisterKey: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    private enum Form: UInt8 { case text, guid, integer }

    /// The key as read (normalized by `RegisterParser.key`) and as the catalog writes it.
    let text: String
    private let form: Form
    private let high: UInt64
    private let low: UInt64

    /// The empty key: no reference.
    static let empty = RegisterKey("")

    init(_ text: String) {
        self.text = text
        var text = text
        (form, high, low) = text.withUTF8 { Self.parse($0) }
    }

    init(stringLiteral value: String) { self.init(value) }

    var isEmpty: Bool { text.isEmpty }

    var description: String { text }

    static func == (a: RegisterKey, b: RegisterKey) -> Bool {
        a.form == b.form && a.high == b.high && a.low == b.low && (a.form != .text || a.text == b.text)
    }

    func hash(into hasher: inout Hasher) {
        if form == .text {
            hasher.combine(text)
        } else {
            hasher.combine(high)
            hasher.combine(low)
        }
    }

    /// In the order of the texts, as when the keys were strings.
    static func < (a: RegisterKey, b: RegisterKey) -> Bool { a.text < b.text }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Form, UInt64, UInt64) {
        if bytes.count == 36, let (high, low) = guid(bytes) { return (.guid, high, low) }
        // Up to 18 digits always fit an UInt64; a leading zero would make two texts one value.
        if (1...18).contains(bytes.count), bytes.count == 1 || bytes[0] != UInt8(ascii: "0") {
            var value: UInt64 = 0
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return (.text, 0, 0) }
                value = value * 10 + UInt64(digit)
            }
            return (.integer, 0, value)
        }
        return (.text, 0, 0)
    }

    /// The 16 bytes of an upper-case `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`, or nil.
    private static func guid(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 {
                high = high << 4 | UInt64(value)
            } else {
                low = low << 4 | UInt64(value)
            }
            digits += 1
        }
        return (high, low)
    }
}
