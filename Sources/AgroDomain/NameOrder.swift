import Foundation

/// The alphabetical order of catalog names in every catalog language.
///
/// Cyrillic letters follow the Kazakh alphabet (А Ә Б В Г Ғ Д Е Ё Ж З И Й К Қ Л М Н Ң О Ө П
/// Р С Т У Ұ Ү Ф Х Һ Ц Ч Ш Щ Ъ Ы І Ь Э Ю Я), which is the Russian alphabet with the Kazakh
/// letters put in their places: Russian names keep their order, and Kazakh names no longer
/// put Қ, Ә, Ұ… after Я as code-point order does. Other characters keep code-point order.
///
/// ```swift
/// NameOrder.compare("Құс таспа", "Кене") == .orderedDescending   // К before Қ
/// NameOrder.compare("Құс таспа", "Люцерна") == .orderedAscending  // Қ before Л
/// ```
public enum NameOrder {
    /// The Cyrillic letters in Kazakh alphabetical order.
    static let cyrillicAlphabet = Array("аәбвгғдеёжзийкқлмнңоөпрстуұүфхһцчшщъыіьэюя".unicodeScalars)

    /// Letter weights: the alphabet, either case, sits in a.. я's code-point range, in order.
    static let letterWeights: [UInt32: UInt64] = {
        var weights: [UInt32: UInt64] = [:]
        for (index, letter) in cyrillicAlphabet.enumerated() {
            let weight = (UInt64(0x0430) << 8) + UInt64(index)
            weights[letter.value] = weight
            for upper in String(letter).uppercased().unicodeScalars { weights[upper.value] = weight }
        }
        return weights
    }()

    static func weight(_ scalar: Unicode.Scalar) -> UInt64 {
        letterWeights[scalar.value] ?? (UInt64(scalar.value) << 8)
    }

    /// Orders `a` and `b` alphabetically; names equal letter for letter (differing only in the
    /// case of Cyrillic letters) fall back to code-point order, so only equal strings compare equal.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        var left = a.unicodeScalars.makeIterator(), right = b.unicodeScalars.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return a == b
                    ? .orderedSame
                    : (a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending)
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (l?, r?):
                let wl = weight(l), wr = weight(r)
                if wl != wr { return wl < wr ? .orderedAscending : .orderedDescending }
            }
        }
    }

    /// Whether `a` comes before `b` in `compare`'s order (for `sorted(by:)`).
    public static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) == .orderedAscending
    }

    /// Whether the name `a` comes before `b` as the catalog lists names: their folded forms
    /// (`TextFolding.fold`, as in the store's `name_key`) in `compare`'s order, then the names.
    public static func namePrecedes(_ a: String, _ b: String) -> Bool {
        let order = compare(TextFolding.fold(a), TextFolding.fold(b))
        return order == .orderedSame ? precedes(a, b) : order == .orderedAscending
    }
}
