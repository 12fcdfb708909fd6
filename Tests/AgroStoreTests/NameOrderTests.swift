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
}
