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
    /// when it is first made, 1% of a catalog query's instructions (Benchmarks/startup/README.md).
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

    /// `compare` on two UTF-8 buffers (the arguments of the catalog's SQL collation), without
    /// making strings of them: every list the catalog sorts compares its names so, a few
    /// thousand times for a products page, and two `String`s per comparison were a visible
    /// part of an uncached web request (Benchmarks/web/README.md). Invalid UTF-8 is compared
    /// as `String(decoding:as:)` repairs it.
    public static func compare(utf8 a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> ComparisonResult {
        // Leading bytes the two share are the same scalars on both sides, which weigh alike in
        // both scans: skip them, back to the start of the scalar the next byte belongs to.
        let shorter = min(a.count, b.count)
        var start = 0
        while start < shorter, a[start] == b[start] { start += 1 }
        if start == a.count, start == b.count { return .orderedSame }
        while start > 0, (start < a.count && a[start] & 0xC0 == 0x80) || (start < b.count && b[start] & 0xC0 == 0x80) {
            start -= 1
        }
        var primary = true
        while true {
            switch scan(utf8: a, b, from: start, primary: primary) {
            case let .ordered(order): return order
            case .invalid: return compare(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
            case .alike: break
            }
            if !primary { break }
            primary = false
        }
        // Alike but not the same bytes: they differ only in the case of Cyrillic letters, and
        // code-point order is the order of their UTF-8 bytes.
        for index in start..<shorter where a[index] != b[index] {
            return a[index] < b[index] ? .orderedAscending : .orderedDescending
        }
        return a.count < b.count ? .orderedAscending : .orderedDescending
    }

    /// The outcome of a scan of two UTF-8 buffers.
    enum UTF8Scan {
        /// The first scalars that weigh differently order the two.
        case ordered(ComparisonResult)
        /// Every scalar weighs alike (and the two are as long).
        case alike
        /// Not well-formed UTF-8 before an order was found.
        case invalid
    }

    /// `scan` over UTF-8 buffers from byte `start` (the start of a scalar in both).
    static func scan(utf8 a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, from start: Int, primary: Bool) -> UTF8Scan {
        var left = start, right = start
        while true {
            switch (left < a.count, right < b.count) {
            case (false, false): return .alike
            case (false, true): return .ordered(.orderedAscending)
            case (true, false): return .ordered(.orderedDescending)
            case (true, true):
                guard let l = scalar(utf8: a, at: &left), let r = scalar(utf8: b, at: &right) else { return .invalid }
                if l == r { continue }
                let wl = primary ? primaryWeight(l) : weight(l), wr = primary ? primaryWeight(r) : weight(r)
                if wl != wr { return .ordered(wl < wr ? .orderedAscending : .orderedDescending) }
            }
        }
    }

    /// The scalar starting at byte `index` of `buffer`, moving `index` past it; nil for a
    /// sequence that is not well-formed UTF-8 (Unicode's table 3-7).
    @inline(__always)
    static func scalar(utf8 buffer: UnsafeRawBufferPointer, at index: inout Int) -> Unicode.Scalar? {
        let lead = buffer[index]
        if lead < 0x80 {
            index += 1
            return Unicode.Scalar(lead)
        }
        let length: Int, low: UInt8, high: UInt8
        switch lead {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return nil
        }
        guard index + length <= buffer.count else { return nil }
        let second = buffer[index + 1]
        guard second >= low, second <= high else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        value = value << 6 | UInt32(second & 0x3F)
        for offset in 2..<length {
            let byte = buffer[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        index += length
        return Unicode.Scalar(value)
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
