import Foundation

/// A metadata key of the register (a GUID in 2026, an integer in 2024), as the catalog writes
/// it, with a cheap identity for the dictionaries of the mapping.
///
/// The mapping looks keys up some 260 000 times (cultures, pests and obligations of every
/// use); Swift's String hashing (SipHash over the text, through its Unicode checks) was most
/// of that time. A key carries a 64-bit fingerprint of its UTF-8 bytes, made once per
/// distinct key (`KeyCache`): dictionaries hash that, and compare the texts only when the
/// fingerprints are equal, so keys are equal exactly when their texts are. Texts of the same
/// key share their storage (one `KeyCache` per import), which makes that comparison a pointer
/// comparison as a rule.
struct RegisterKey: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as read (normalized by `RegisterParser.key`) and as the catalog writes it.
    let text: String
    private let fingerprint: UInt64

    /// The empty key: no reference.
    static let empty = RegisterKey("")

    init(_ text: String) {
        self.text = text
        var text = text
        fingerprint = text.withUTF8 { bytes in bytes.baseAddress.map { Self.fingerprint($0, count: bytes.count) } ?? 0 }
    }

    init(stringLiteral value: String) { self.init(value) }

    var isEmpty: Bool { text.isEmpty }

    var description: String { text }

    static func == (a: RegisterKey, b: RegisterKey) -> Bool {
        a.fingerprint == b.fingerprint && a.text == b.text
    }

    func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    /// In the order of the texts, as when the keys were strings.
    static func < (a: RegisterKey, b: RegisterKey) -> Bool { a.text < b.text }

    /// FNV-1a over 8 bytes at a time (a GUID is 36 bytes: five steps instead of 36), then
    /// mixed (MurmurHash3's finalizer) so that the low bits depend on every byte.
    static func fingerprint(_ value: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(value)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var index = 0
        while index + 8 <= count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01b3
            index += 8
        }
        while index < count {
            hash = (hash ^ UInt64(value[index])) &* 0x100_0000_01b3
            index += 1
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 33)
    }
}
