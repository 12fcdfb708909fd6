import AgroHTML
import AgroTerminal
import Foundation
import XCTest

/// True when `text` holds a control character other than "\n" (and, when `allowSGR`, the
/// ESC of the renderer's own "ESC [ digits m" sequences).
func hasUnsafeCharacters(_ text: String, allowSGR: Bool = false) -> Bool {
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
        let v = scalars[i].value
        if v == 0x1B && allowSGR {
            // Accept exactly ESC [ (digits or ;)* m
            var j = i + 1
            guard j < scalars.count, scalars[j] == "[" else { return true }
            j += 1
            while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
            guard j < scalars.count, scalars[j] == "m" else { return true }
            i = j + 1
            continue
        }
        if (v < 0x20 && v != 0x0A) || (v >= 0x7F && v <= 0x9F) || (0x202A...0x202E).contains(v) { return true }
        i += 1
    }
    return false
}

final class TerminalWidthTests: XCTestCase {
    func testColumnWidths() {
        XCTAssertEqual(TerminalWidth.width(of: "abc"), 3)
        XCTAssertEqual(TerminalWidth.width(of: "Привет"), 6)
        XCTAssertEqual(TerminalWidth.width(of: "日本語"), 6)
        XCTAssertEqual(TerminalWidth.width(of: "한국"), 4)
        XCTAssertEqual(TerminalWidth.width(of: "ｱ"), 1)  // halfwidth katakana
        XCTAssertEqual(TerminalWidth.width(of: "Ａ"), 2)  // fullwidth Latin
        XCTAssertEqual(TerminalWidth.width(of: "e\u{301}"), 1)
        XCTAssertEqual(TerminalWidth.width(of: "\u{AD}"), 0)
        XCTAssertEqual(TerminalWidth.width(of: "a\u{200B}b"), 2)
        XCTAssertEqual(TerminalWidth.width(of: "🐄"), 2)
        XCTAssertEqual(TerminalWidth.width(of: "\u{1B}"), 0)
    }

    func testPaddingAndTruncation() {
        XCTAssertEqual(TerminalWidth.padded("日本", to: 6), "日本  ")
        XCTAssertEqual(TerminalWidth.truncated("日本語テキスト", to: 7), "日本語…")
        XCTAssertEqual(TerminalWidth.truncated("cafe\u{301}s", to: 4, ellipsis: false), "cafe\u{301}")
        XCTAssertEqual(TerminalWidth.truncated("short", to: 10), "short")
    }
}

final class WrappingTests: XCTestCase {
    func testCyrillicAtSeveralWidths() {
        let html = "<p>Колорадский жук повреждает картофель летом</p>"
        XCTAssertEqual(render(html, width: 20), "Колорадский жук\nповреждает картофель\nлетом\n")
        XCTAssertEqual(render(html, width: 30), "Колорадский жук повреждает\nкартофель летом\n")
        XCTAssertEqual(render(html, width: 80), "Колорадский жук повреждает картофель летом\n")
    }

    func testCJKCountsTwoColumnsAndBreaksBetweenCharacters() {
        // No spaces: the text breaks between characters, each two columns wide.
        XCTAssertEqual(render("<p>日本語のテキストです</p>", width: 10), "日本語のテ\nキストです\n")
        XCTAssertEqual(render("<p>日本語のテキストです</p>", width: 11), "日本語のテ\nキストです\n")
        XCTAssertEqual(render("<p>日本 語</p>", width: 4), "日本\n語\n")
        XCTAssertEqual(render("<p>ab 日本語</p>", width: 8), "ab\n日本語\n")
    }

    func testCombiningMarksTakeNoColumn() {
        // "ééé" and "café" written with combining acute accents: 3 and 4 columns.
        let html = "<p>e\u{301}e\u{301}e\u{301} cafe\u{301} x</p>"
        XCTAssertEqual(render(html, width: 6), "e\u{301}e\u{301}e\u{301}\ncafe\u{301} x\n")
        XCTAssertEqual(render(html, width: 9), "e\u{301}e\u{301}e\u{301} cafe\u{301}\nx\n")
        XCTAssertEqual(render(html, width: 10), "e\u{301}e\u{301}e\u{301} cafe\u{301} x\n")
        // A word cut by columns keeps each mark with its letter.
        XCTAssertEqual(
            render("<p>e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}</p>", width: 8),
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}\ne\u{301}\n")
    }

    func testSoftHyphenShowsOnlyWhereTheWordBreaks() {
        XCTAssertEqual(render("<p>aaaa extra&shy;ordinary</p>", width: 12), "aaaa extra-\nordinary\n")
        XCTAssertEqual(render("<p>aaaa extra&shy;ordinary</p>", width: 40), "aaaa extraordinary\n")
        XCTAssertFalse(render("<p>x&shy;y</p>").unicodeScalars.contains("\u{AD}"))
    }

    func testLongWordIsCut() {
        XCTAssertEqual(render("<p>abcdefghijklmnop</p>", width: 8), "abcdefgh\nijklmnop\n")
    }

    func testWordBreakOpportunity() {
        XCTAssertEqual(render("<p>aaaaa<wbr>bbbbb</p>", width: 8), "aaaaa\nbbbbb\n")
        XCTAssertEqual(render("<p>aaaaa<wbr>bbbbb</p>", width: 20), "aaaaabbbbb\n")
    }

    func testNoLineExceedsWidthInWrappedText() {
        let text = String(repeating: "Пшеница 小麦 wheat e\u{301}ble ", count: 40)
        for width in [8, 13, 21, 34, 55] {
            let out = render("<p>\(text)</p><ul><li>\(text)</li></ul><blockquote>\(text)</blockquote>", width: width)
            for line in out.split(separator: "\n") {
                XCTAssertLessThanOrEqual(TerminalWidth.width(of: line), width, "width \(width): \(line)")
            }
        }
    }
}

final class SafetyTests: XCTestCase {
    func testEscapeSequencesInTextAreRemoved() {
        let html = "<p>a\u{1B}[31mred\u{1B}[0m b\u{07}c \u{9B}2J d \u{1B}]0;title\u{07}e \u{202E}f\u{7F}</p>"
        let out = render(html)
        XCTAssertFalse(hasUnsafeCharacters(out), out.debugDescription)
        XCTAssertTrue(out.contains("red"))
        XCTAssertTrue(out.contains("title"))
        let styled = render("<b>" + html + "</b>", ansi: true)
        XCTAssertFalse(hasUnsafeCharacters(styled, allowSGR: true), styled.debugDescription)
    }

    func testNumericReferencesToControlsAreRemoved() {
        let out = render("<p>x&#27;[2Jy &#x9b;31m &#7; &#155;z</p><pre>p&#27;]8;;http://e&#27;\\q</pre>")
        XCTAssertFalse(hasUnsafeCharacters(out), out.debugDescription)
        XCTAssertTrue(out.contains("x"))
        XCTAssertTrue(out.contains("z"))
    }

    func testEscapeSequencesInAttributesAndURLsAreRemoved() {
        let html = """
            <a href="http://e.test/\u{1B}[31m&#27;]52;c;AAAA&#7;x\u{85}y">link</a>
            <img alt="\u{1B}[2Jcow&#27;[5m">
            <table><tr><th>h&#27;[1m</th><th>\u{9B}k</th></tr><tr><td>a\u{1B}c</td><td>b</td></tr></table>
            """
        let out = render(html, base: "http://e.test/")
        XCTAssertFalse(hasUnsafeCharacters(out), out.debugDescription)
        XCTAssertTrue(out.contains("cow"))
        XCTAssertTrue(out.contains("[1] http://e.test/"))
    }

    func testStylesFromTheRendererAreTheOnlyEscapes() {
        let out = render("<b>x&#27;[0m</b><i>\u{1B}[38;5;1m</i>", ansi: true)
        XCTAssertFalse(hasUnsafeCharacters(out, allowSGR: true))
        XCTAssertEqual(out.components(separatedBy: "\u{1B}").count - 1, 4, out.debugDescription)
    }

    func testMalformedMarkup() {
        XCTAssertEqual(render("<p>unclosed <b>bold <i>both</p><p>next"), "unclosed bold both\n\nnext\n")
        XCTAssertEqual(render("</div></span>stray</b>"), "stray\n")
        XCTAssertEqual(render("<table><tr><td>a<td>b</table>"), "a │ b\n")
        XCTAssertEqual(render("<ul><li>one<li>two</ul></ul></ul>after"), "• one\n• two\n\nafter\n")
        let broken = render("<a href=\"x>broken <img alt='y <p>text <<<>>> &bogus; &#xZZ; &#99999999;")
        XCTAssertFalse(hasUnsafeCharacters(broken))
        XCTAssertEqual(render("<p>a &bogus; b</p>"), "a &bogus; b\n")
    }

    func testBinaryGarbageDoesNotCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let out = HTMLRenderer.render(html: Data(bytes))
            XCTAssertFalse(hasUnsafeCharacters(out))
        }
    }
}

final class ConcurrencyTests: XCTestCase {
    /// libxml2 is used from many threads at once (the CLI renders in tasks).
    func testRenderingInParallelGivesTheSameResult() {
        let html =
            "<h2>T</h2><p>Text <a href='/x'>link</a></p><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><ol><li>x</ol>"
        let expected = render(html, base: "https://e.test/")
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            results.append(render(html, base: "https://e.test/"))
        }
        XCTAssertEqual(results.all.count, 64)
        XCTAssertTrue(results.all.allSatisfy { $0 == expected })
    }
}

final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
