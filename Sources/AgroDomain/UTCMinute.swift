import Foundation

/// A UTC time stamp to the minute, read from ISO 8601 (`2026-11-25T14:05:00Z`), for messages
/// that show a person a time stamp rather than the machine's form of it.
public struct UTCMinute: Hashable, Sendable, CustomStringConvertible {
    /// The day, `2026-11-25`.
    public let date: String
    /// The time of day, `14:05`.
    public let time: String

    /// Nil for text not of the shape `0000-00-00T00:00:00Z`.
    public init?(iso: String) {
        let bytes = Array(iso.utf8)
        let shape = Array("0000-00-00T00:00:00Z".utf8)
        let fits =
            bytes.count == shape.count
            && zip(bytes, shape).allSatisfy { byte, expected in
                expected == UInt8(ascii: "0") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
            }
        guard fits else { return nil }
        date = String(iso.prefix(10))
        time = String(iso.dropFirst(11).prefix(5))
    }

    /// "2026-11-25 14:05 UTC": how English messages write it.
    public var description: String { "\(date) \(time) UTC" }
}
