import Foundation

/// The alphabetical order of catalog names in every catalog language.
///
/// Cyrillic letters follow the Kazakh alphabet (А Ә Б В Г Ғ Д Е Ё Ж З И Й К Қ Л М Н Ң О Ө П
/// Р С Т У Ұ Ү Ф Х Һ Ц Ч Ш Щ Ъ Ы І Ь Э Ю Я), which is the Russian alphabet with the Kazakh
/// letters put in their places: Russian names keep their order, and Kazakh names no longer
/// put Қ, Ә, Ұ… after Я as code-point order does; Ё counts as Е unless the names differ in
/// nothing else. Other characters keep code-point order.
///
/// ```swift
/// NameOrder.compare("Құс таспа", "Кене") == .orderedDescending   // К before Қ
/// NameOrder.compare("Құс таспа", "Люцерна") == .orderedAscending  // Қ before Л
/// ```
public enum NameOrder {
    /// The Cyrillic letters in Kazakh alphabetical order.
    static let cyrillicAlphabet = Array("аәбвгғдеёжзийкқлмнңоөпрстуұүфхһцчшщъыіьэюя".unicodeScalars)

    /// The Cyrillic block, U+0400..<U+0500, where every letter of the alphabet lies in either case.
    static let cyrillicBlock: Range<UInt32> = 0x0400..<0x0500

    /// Letter weights of the Cyrillic block, by code point from its start (0 for a code point
    /// that is no letter of the alphabet): the alphabet, either case, sits in a.. я's code-point
    /// range, in order. An array rather than a dictionary keyed by code point: a dictionary of
    /// a key type nothing else uses costs a scan of every protocol conformance of the program
    /// when it is first made, 1% of a catalog query's instructions (Benchmarks/README.md, issue 20).
    static let letterWeights: [UInt64] = {
        var weights = [UInt64](repeating: 0, count: cyrillicBlock.count)
        for (index, letter) in cyrillicAlphabet.enumerated() {
            let weight = (UInt64(0x0430) << 8) + UInt64(index)
            for scalar in [letter] + Array(String(letter).uppercased().unicodeScalars)
            where cyrillicBlock.contains(scalar.value) {
                weights[Int(scalar.value - cyrillicBlock.lowerBound)] = weight
            }
        }
        return weights
    }()

    static func weight(_ scalar: Unicode.Scalar) -> UInt64 {
        if cyrillicBlock.contains(scalar.value) {
            let weight = letterWeights[Int(scalar.value - cyrillicBlock.lowerBound)]
            if weight != 0 { return weight }
        }
        return UInt64(scalar.value) << 8
    }

    /// Ё and ё weigh as Е and е at first: Russian dictionaries (and Kazakh ones, where Ё only
    /// writes Russian loanwords) file "Ёж" among the Е words, before "Ель", not after every Е word.
    static func primaryWeight(_ scalar: Unicode.Scalar) -> UInt64 {
        switch scalar.value {
        case 0x0401: return weight("Е")
        case 0x0451: return weight("е")
        default: return weight(scalar)
        }
    }

    /// Orders `a` and `b` alphabetically, Ё as Е; names equal so compare with Ё after Е, then
    /// (differing only in the case of Cyrillic letters) in code-point order, so only equal
    /// strings compare equal.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        if let order = scan(a, b, primary: true) ?? scan(a, b, primary: false) { return order }
        return a == b
            ? .orderedSame
            : (a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending)
    }

    /// The order of the first letters that weigh differently, or nil when none do.
    static func scan(_ a: String, _ b: String, primary: Bool) -> ComparisonResult? {
        var left = a.unicodeScalars.makeIterator(), right = b.unicodeScalars.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return nil
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (l?, r?):
                let wl = primary ? primaryWeight(l) : weight(l), wr = primary ? primaryWeight(r) : weight(r)
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
