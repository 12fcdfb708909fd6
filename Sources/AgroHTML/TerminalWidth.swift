/// Column widths of text on a terminal, as `wcwidth(3)` counts them but without depending on
/// the C library's locale: East Asian Wide and Fullwidth characters take two columns, combining
/// marks and other zero-width characters none, everything else one.
///
/// Control characters count zero: callers remove them before printing anyway.
/// The soft hyphen (U+00AD) counts zero because it is invisible unless a line breaks at it.
public enum TerminalWidth {
    /// Columns taken by one Unicode scalar: 0, 1 or 2.
    @inlinable
    public static func width(of scalar: Unicode.Scalar) -> Int {
        width(ofValue: scalar.value)
    }

    /// Columns taken by a string, summing its scalars (so a base letter with combining marks
    /// counts once, and "日本" counts four).
    public static func width<S: StringProtocol>(of text: S) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += width(ofValue: scalar.value) }
        return total
    }

    /// `text` padded with spaces on the right to `columns` columns; unchanged when it is wider.
    public static func padded<S: StringProtocol>(_ text: S, to columns: Int) -> String {
        let w = width(of: text)
        return w >= columns ? String(text) : String(text) + String(repeating: " ", count: columns - w)
    }

    /// The longest prefix of `text` that fits in `columns` columns, cut between characters
    /// (never between a letter and its combining marks); "…" marks a cut when `ellipsis` is set.
    public static func truncated(_ text: String, to columns: Int, ellipsis: Bool = true) -> String {
        guard columns > 0 else { return "" }
        if width(of: text) <= columns { return text }
        let limit = ellipsis ? columns - 1 : columns
        var used = 0
        var result = ""
        for character in text {
            let w = width(of: String(character))
            if used + w > limit { break }
            used += w
            result.append(character)
        }
        return ellipsis ? result + "…" : result
    }

    /// Columns of the scalar with this value (see `width(of:)`).
    @inlinable
    public static func width(ofValue v: UInt32) -> Int {
        if v < 0x300 {
            // Latin, the common case: controls and the soft hyphen are zero.
            if v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0xAD { return 0 }
            return 1
        }
        if v < 0x10000 { return Int(bmpWidths[Int(v)]) }
        return slowWidth(v)
    }

    @usableFromInline
    static func slowWidth(_ v: UInt32) -> Int {
        if isZeroWidth(v) { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// Widths of the Basic Multilingual Plane, computed once: looking up the general category
    /// per character was the renderer's hottest spot.
    @usableFromInline
    static let bmpWidths: [UInt8] = {
        var table = [UInt8](repeating: 1, count: 0x10000)
        for v in 0..<0x10000 {
            if v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0xAD || (v >= 0xD800 && v <= 0xDFFF) {
                table[v] = 0
            } else if v >= 0x300 {
                table[v] = UInt8(slowWidth(UInt32(v)))
            }
        }
        return table
    }()

    /// Combining marks (Mn, Me), format characters (Cf) and Hangul medial/final jamo.
    @usableFromInline
    static func isZeroWidth(_ v: UInt32) -> Bool {
        if v >= 0x1160 && v <= 0x11FF { return true }  // conjoining jamo attach to the initial
        if v == 0x200B { return true }  // zero width space
        guard let scalar = Unicode.Scalar(v) else { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, after Unicode 15's EastAsianWidth.txt,
    /// including the emoji that terminals draw in two columns.
    @usableFromInline
    static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        // Binary search over a sorted table of closed ranges.
        var lo = 0
        var hi = wideRanges.count - 1
        while lo <= hi {
            let mid = (lo + hi) >> 1
            let r = wideRanges[mid]
            if v < r.0 { hi = mid - 1 } else if v > r.1 { lo = mid + 1 } else { return true }
        }
        return false
    }

    @usableFromInline
    static let wideRanges: [(UInt32, UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC), (0x23F0, 0x23F0),
        (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
        (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728),
        (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
        (0x2E80, 0x303E), (0x3041, 0x3247), (0x3250, 0x4DBF), (0x4E00, 0xA4CF), (0xA960, 0xA97F),
        (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE10, 0xFE19), (0xFE30, 0xFE6F), (0xFF00, 0xFF60),
        (0xFFE0, 0xFFE6), (0x16FE0, 0x16FE4), (0x17000, 0x18CFF), (0x1B000, 0x1B2FF),
        (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A),
        (0x1F200, 0x1F202), (0x1F210, 0x1F23B), (0x1F240, 0x1F248), (0x1F250, 0x1F251),
        (0x1F260, 0x1F265), (0x1F300, 0x1F320), (0x1F32D, 0x1F335), (0x1F337, 0x1F37C),
        (0x1F37E, 0x1F393), (0x1F3A0, 0x1F3CA), (0x1F3CF, 0x1F3D3), (0x1F3E0, 0x1F3F0),
        (0x1F3F4, 0x1F3F4), (0x1F3F8, 0x1F43E), (0x1F440, 0x1F440), (0x1F442, 0x1F4FC),
        (0x1F4FF, 0x1F53D), (0x1F54B, 0x1F54E), (0x1F550, 0x1F567), (0x1F57A, 0x1F57A),
        (0x1F595, 0x1F596), (0x1F5A4, 0x1F5A4), (0x1F5FB, 0x1F64F), (0x1F680, 0x1F6C5),
        (0x1F6CC, 0x1F6CC), (0x1F6D0, 0x1F6D2), (0x1F6D5, 0x1F6D7), (0x1F6DC, 0x1F6DF),
        (0x1F6EB, 0x1F6EC), (0x1F6F4, 0x1F6FC), (0x1F7E0, 0x1F7EB), (0x1F7F0, 0x1F7F0),
        (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1F9FF), (0x1FA70, 0x1FAFF),
        (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    ]
}
