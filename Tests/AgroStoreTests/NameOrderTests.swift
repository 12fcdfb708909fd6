import AgroDomain
import XCTest

final class NameOrderTests: XCTestCase {
    /// The Kazakh alphabet, written by hand: А Ә Б В Г Ғ Д Е Ё Ж З И Й К Қ Л М Н Ң О Ө П Р С Т
    /// У Ұ Ү Ф Х Һ Ц Ч Ш Щ Ъ Ы І Ь Э Ю Я.
    static let alphabet = [
        "А", "Ә", "Б", "В", "Г", "Ғ", "Д", "Е", "Ё", "Ж", "З", "И", "Й", "К", "Қ", "Л", "М", "Н", "Ң", "О", "Ө",
        "П", "Р", "С", "Т", "У", "Ұ", "Ү", "Ф", "Х", "Һ", "Ц", "Ч", "Ш", "Щ", "Ъ", "Ы", "І", "Ь", "Э", "Ю", "Я",
    ]

    func testLettersFollowTheKazakhAlphabetInEitherCase() {
        for letters in [Self.alphabet, Self.alphabet.map { $0.lowercased() }] {
            XCTAssertEqual(letters.reversed().sorted(by: NameOrder.precedes), letters)
            XCTAssertEqual(letters.shuffled().sorted(by: NameOrder.precedes), letters)
        }
        // Case does not separate words: "қабат" sorts with "Қазан", not after every capital.
        XCTAssertEqual(["Қазан", "Ақ", "қабат", "Ара"].sorted(by: NameOrder.precedes), ["Ақ", "Ара", "қабат", "Қазан"])
    }

    func testNamesCompareLetterByLetter() {
        XCTAssertEqual(NameOrder.compare("Ақ алабота", "Артқа"), .orderedAscending)
        XCTAssertEqual(NameOrder.compare("Құс таспа", "Қызылша"), .orderedAscending)
        XCTAssertEqual(NameOrder.compare("Бидай", "Біркелкі"), .orderedAscending)
        XCTAssertEqual(NameOrder.compare("Алматы", "Алматы облысы"), .orderedAscending)
        XCTAssertEqual(NameOrder.compare("Құс", "Құс"), .orderedSame)
        // Latin keeps code-point order, before Cyrillic.
        XCTAssertEqual(NameOrder.compare("Zea", "Ақ"), .orderedAscending)
        XCTAssertEqual(NameOrder.compare("Avena", "Zea"), .orderedAscending)
    }

    /// Raw names (a use's cultures and pests, distributors, schemes) file Ё among the Е words,
    /// as Russian dictionaries do; a name differing only in Ё comes after its Е spelling.
    func testYoSortsAsYeInRawNames() {
        XCTAssertEqual(
            ["Жук", "Ель", "Ёж", "Еда", "Овёс", "Овсяница", "Овес"].sorted(by: NameOrder.precedes),
            ["Еда", "Ёж", "Ель", "Жук", "Овес", "Овёс", "Овсяница"])
        XCTAssertEqual(NameOrder.compare("Ёлка", "Елка"), .orderedDescending)
        XCTAssertEqual(NameOrder.compare("ёж", "Ежевика"), .orderedAscending)
    }

    func testFoldedNamesIgnoreCaseAndDiacritics() {
        XCTAssertTrue(NameOrder.namePrecedes("ёж", "Жук"))
        XCTAssertTrue(NameOrder.namePrecedes("Ұлытау", "шығыс"))
        XCTAssertFalse(NameOrder.namePrecedes("Шымкент", "Шығыс"))
    }

    /// The SQL collation's comparison of UTF-8 bytes orders as `compare` on the strings, for
    /// every pair: shared lead bytes of different letters (Е and К are both D0 ..), Ё against
    /// Е, case, decomposed letters, prefixes, and bytes that are not UTF-8 (compared as
    /// `String(decoding:)` repairs them).
    func testUTF8ComparisonOrdersAsStrings() {
        let texts: [[UInt8]] =
            (Self.alphabet + Self.alphabet.map { $0.lowercased() } + [
                "", "a", "A", "ab", "abc", "abd", "Zea", "Ақ алабота", "Артқа", "Ёлка", "Елка", "елка", "ЕЛКА", "ёж",
                "Ежевика", "Овёс", "Овес", "й", "и\u{306}", "Құс", "Кус", "Қус", "straße", "strasse", "é", "e\u{301}",
                "😀", "😁", "a😀", "\u{7F}", "\u{FFFD}", "Ё", "Е",
            ]).map { Array($0.utf8) } + [
                [0xFF], [0x61, 0xFF], [0xC3], [0xE2, 0x82], [0xE2, 0x82, 0x61], [0xD0], [0xED, 0xA0, 0x80],
            ]
        for a in texts {
            for b in texts {
                let expected = NameOrder.compare(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
                let found = a.withUnsafeBytes { left in b.withUnsafeBytes { right in NameOrder.compare(utf8: left, right) } }
                XCTAssertEqual(found, expected, "\(a) \(b)")
            }
        }
    }
}
