/// The one sanitizer for text written to a terminal: catalog content, feed titles, weather
/// text and error messages quoting server data all pass through it (the CLI's `Terminal`,
/// the HTML renderer), so none of them can drive the terminal or disguise what is shown.
public enum TerminalText {
    /// Scalars never written: C0 and C1 controls, DEL, the bidirectional embeddings,
    /// overrides, isolates and marks (they reorder what is shown: "Trojan Source"), the BOM,
    /// and the invisible zero-width space, word joiner and invisible operators.
    /// ZWNJ and ZWJ (U+200C, U+200D) are decided by `sanitize`, which keeps them inside words.
    @inlinable
    public static func isUnsafe(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
            || v == 0xFEFF || v == 0x061C || v == 0x200B || v == 0x200E || v == 0x200F || (v >= 0x2060 && v <= 0x2064)
    }

    /// `text` without unsafe scalars; newline and tab kept when `keepNewlines`. ZWNJ and ZWJ
    /// stay only between two letters, marks or emoji (where scripts such as Persian, the
    /// Indic ones or emoji sequences need them) and are removed anywhere else.
    public static func sanitize(_ text: String, keepNewlines: Bool = true) -> String {
        let scalars = Array(text.unicodeScalars)
        // Fast path: most text has nothing to remove.
        if !scalars.contains(where: { isUnsafe($0.value) || $0.value == 0x200C || $0.value == 0x200D }) { return text }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let v = scalar.value
            if v == 0x200C || v == 0x200D {
                let before = index > 0 ? scalars[index - 1] : nil
                let after = index + 1 < scalars.count ? scalars[index + 1] : nil
                if let before, let after, joins(before), joins(after) { result.append(scalar) }
                continue
            }
            if isUnsafe(v), !(keepNewlines && (v == 0x0A || v == 0x09)) { continue }
            result.append(scalar)
        }
        return String(result)
    }

    /// `text` for a one-line message (an error or a warning quoting a file or a server): every
    /// line break (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029) becomes one space before the
    /// unsafe scalars go, so quoted text can never start a line of its own.
    public static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var previousWasBreak = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                if !previousWasBreak { result.append(" ") }
                previousWasBreak = true
            default:
                result.append(scalar)
                previousWasBreak = false
            }
        }
        return sanitize(String(result), keepNewlines: false)
    }

    /// Whether a joiner next to `scalar` sits inside a word.
    private static func joins(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.isEmoji && scalar.value > 0xFF
            || [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
    }
}
