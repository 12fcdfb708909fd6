import Foundation

/// Text normalisation for matching what people type against catalog names.
///
/// ```swift
/// TextFolding.fold("Kartoffelkäfer") == TextFolding.fold("kartoffelkafer")   // true
/// TextFolding.indexLetter(of: "«Ёлка»")                                       // "Е"
/// ```
public enum TextFolding {
    /// Case- and diacritic-insensitive form of `text` with whitespace collapsed:
    /// "Kartoffelkäfer" and "KARTOFFELKAFER" fold alike, as do "Ёж" and "еж".
    public static func fold(_ text: String) -> String {
        if let folded = foldASCII(text) { return folded }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// `fold` for pure ASCII text, where folding is lower-casing and collapsing the ASCII
    /// whitespace (tab, line feed, vertical tab, form feed, carriage return, space): the same
    /// result without Foundation's Unicode machinery. Nil for any other text.
    static func foldASCII(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte >= 0x80 { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The index letter of a name: its first letter or digit, folded and upper-cased.
    public static func indexLetter(of name: String) -> String? {
        guard let first = fold(name).first(where: { $0.isLetter || $0.isNumber }) else { return nil }
        return String(first).uppercased()
    }

    /// Levenshtein distance over characters, for "closest names" suggestions.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
