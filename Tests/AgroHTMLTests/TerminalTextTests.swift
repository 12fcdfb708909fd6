import AgroTerminal
import XCTest

/// The one terminal sanitizer, against code points written by hand from Unicode's tables.
final class TerminalTextTests: XCTestCase {
    func testControlsAndBidirectionalCharactersAreRemoved() {
        let removed: [UInt32] = [
            0x00, 0x07, 0x1B, 0x7F, 0x85, 0x9B, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
            0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0x200B, 0x2060, 0xFEFF,
        ]
        for value in removed {
            let scalar = Unicode.Scalar(value)!
            XCTAssertEqual(TerminalText.sanitize("a\(Character(scalar))b"), "ab", "U+\(String(value, radix: 16))")
        }
    }

    func testNewlinesAndTabsAreKeptOnlyWhenAsked() {
        XCTAssertEqual(TerminalText.sanitize("a\nb\tc"), "a\nb\tc")
        XCTAssertEqual(TerminalText.sanitize("a\nb\tc", keepNewlines: false), "abc")
    }

    func testJoinersStayInsideWordsOnly() {
        // Persian "mikhaham" needs ZWNJ between ی and خ; Devanagari क्‍ष uses ZWJ after the virama.
        XCTAssertEqual(TerminalText.sanitize("می\u{200C}خواهم"), "می\u{200C}خواهم")
        XCTAssertEqual(TerminalText.sanitize("क्\u{200D}ष"), "क्\u{200D}ष")
        // An emoji sequence: man, ZWJ, woman.
        XCTAssertEqual(TerminalText.sanitize("\u{1F468}\u{200D}\u{1F469}"), "\u{1F468}\u{200D}\u{1F469}")
        // At the edges or between spaces or punctuation they only hide things.
        XCTAssertEqual(TerminalText.sanitize("\u{200D}abc\u{200C}"), "abc")
        XCTAssertEqual(TerminalText.sanitize("a \u{200D} b"), "a  b")
        XCTAssertEqual(TerminalText.sanitize("1\u{200C}2"), "12")
    }

    func testPlainTextIsUnchanged() {
        for text in ["Tebuconazole 250 EC", "Пшеница озимая", "小麦", "Weizen – Braunrost", "שלום", "مرحبا"] {
            XCTAssertEqual(TerminalText.sanitize(text), text)
        }
    }

    func testOneLineMessagesNeverBreak() {
        // Every kind of line break becomes one space; other controls go.
        XCTAssertEqual(TerminalText.oneLine("Nope\r\nagro: forged"), "Nope agro: forged")
        XCTAssertEqual(TerminalText.oneLine("a\rb\nc\u{0B}d\u{0C}e\u{85}f\u{2028}g\u{2029}h"), "a b c d e f g h")
        XCTAssertEqual(TerminalText.oneLine("tab\there\u{1B}[31m"), "tabhere[31m")
        XCTAssertEqual(TerminalText.oneLine("plain"), "plain")
    }
}
