import AgroHTML
import AgroTerminal
import Foundation
import XCTest

/// Renders with the given options; expected values below are written by hand from the
/// layout rules documented on `HTMLRenderer`.
func render(_ html: String, width: Int = 80, ansi: Bool = false, base: String? = nil) -> String {
    HTMLRenderer.render(
        html: html, options: HTMLRenderOptions(width: width, ansiStyles: ansi, baseURL: base.flatMap(URL.init(string:))))
}

final class ConstructTests: XCTestCase {
    func testHeadingsAreSetApart() {
        XCTAssertEqual(render("<h1>Title</h1><p>Text</p>"), "Title\n=====\n\nText\n")
        XCTAssertEqual(render("<p>a</p><h2>Sub title</h2><p>b</p>"), "a\n\nSub title\n---------\n\nb\n")
        XCTAssertEqual(render("<h3>Third</h3><h6>Sixth</h6>"), "### Third\n\n###### Sixth\n")
    }

    func testHeadingsAreBoldOnTerminals() {
        XCTAssertEqual(render("<h3>T</h3>", ansi: true), "\u{1B}[1m### T\u{1B}[0m\n")
    }

    func testParagraphWrapsAtWidth() {
        let html = "<p>The quick brown fox jumps over the lazy dog</p>"
        XCTAssertEqual(render(html, width: 20), "The quick brown fox\njumps over the lazy\ndog\n")
        XCTAssertEqual(render(html, width: 10), "The quick\nbrown fox\njumps over\nthe lazy\ndog\n")
        XCTAssertEqual(render(html, width: 80), "The quick brown fox jumps over the lazy dog\n")
    }

    func testWhitespaceCollapsesAsInBrowsers() {
        XCTAssertEqual(render("<p>  a \n\t b   <b> c </b> d</p>"), "a b c d\n")
        XCTAssertEqual(render("<p>x<b>y</b>z</p>"), "xyz\n")
        XCTAssertEqual(render("<div>one</div><div>two</div>"), "one\ntwo\n")
    }

    func testLineBreaksAndRules() {
        XCTAssertEqual(render("<p>one<br>two<br><br>three</p>"), "one\ntwo\n\nthree\n")
        XCTAssertEqual(render("<p>a</p><hr><p>b</p>", width: 10), "a\n\n──────────\n\nb\n")
    }

    func testUnorderedListsNest() {
        XCTAssertEqual(
            render("<ul><li>one</li><li>two<ul><li>inner<ul><li>deepest</li></ul></li></ul></li><li>three</ul>"),
            "• one\n• two\n  ◦ inner\n    ▪ deepest\n• three\n")
    }

    func testListItemsWrapUnderTheirText() {
        XCTAssertEqual(render("<ul><li>alpha beta gamma</li></ul>", width: 12), "• alpha beta\n  gamma\n")
        XCTAssertEqual(render("<ol><li>alpha beta gamma</li></ol>", width: 12), "1. alpha\n   beta\n   gamma\n")
    }

    func testOrderedListNumbering() {
        XCTAssertEqual(render("<ol><li>a<li>b</ol>"), "1. a\n2. b\n")
        XCTAssertEqual(render("<ol start=9><li>a<li>b</ol>"), " 9. a\n10. b\n")
        XCTAssertEqual(render("<ol reversed><li>x<li>y<li>z</ol>"), "3. x\n2. y\n1. z\n")
        XCTAssertEqual(render("<ol reversed start=10><li>x<li>y</ol>"), "10. x\n 9. y\n")
        XCTAssertEqual(render("<ol><li>a<li value=5>b<li>c</ol>"), "1. a\n5. b\n6. c\n")
        XCTAssertEqual(render("<ol type=a><li>x<li>y</ol>"), "a. x\nb. y\n")
        XCTAssertEqual(render("<ol type=I><li>x<li>y<li>z<li>w</ol>"), "  I. x\n II. y\nIII. z\n IV. w\n")
    }

    func testNestedOrderedListsKeepTheirOwnCounters() {
        XCTAssertEqual(
            render("<ol><li>a<ol><li>a1<li>a2</ol><li>b</ol>"),
            "1. a\n   1. a1\n   2. a2\n2. b\n")
    }

    func testDefinitionLists() {
        XCTAssertEqual(
            render("<dl><dt>Term</dt><dd>Meaning</dd><dt>Other</dt><dd>Too</dd></dl>"),
            "Term\n    Meaning\nOther\n    Too\n")
    }

    func testConsecutiveDefinitionsShareOneIndent() {
        XCTAssertEqual(render("<dl><dt>T<dd>one<dd>two</dl>"), "T\n    one\n    two\n")
    }

    func testBlockquotesAreIndentedAndMarked() {
        XCTAssertEqual(
            render("<p>a</p><blockquote><p>quoted words here</p></blockquote><p>b</p>", width: 12),
            "a\n\n> quoted\n> words here\n\nb\n")
        XCTAssertEqual(render("<blockquote>x<blockquote>y</blockquote></blockquote>"), "> x\n>\n> > y\n")
    }

    func testPreformattedTextIsVerbatim() {
        XCTAssertEqual(render("<pre>\n  a  b\n\tc\n</pre>"), "  a  b\n        c\n")
        XCTAssertEqual(render("<pre>aaaaaaaaaaaaaaaaaaaa</pre>", width: 10), "aaaaaaaaaaaaaaaaaaaa\n")
        XCTAssertEqual(render("<p>x</p><pre>&lt;b&gt; y</pre><p>z</p>"), "x\n\n<b> y\n\nz\n")
    }

    func testInlineCode() {
        XCTAssertEqual(render("<p>Run <code>ls -l</code> now</p>"), "Run `ls -l` now\n")
        XCTAssertEqual(render("<pre><code>no ticks</code></pre>"), "no ticks\n")
    }

    func testLinksAreNumberedAndListed() {
        let html = """
            <p><a href="../about">About</a> and <a href="https://x.test/">X</a>, <a href="#top">top</a>,
            <a href="javascript:void(0)">js</a>, <a href="../about">again</a></p>
            """
        XCTAssertEqual(
            render(html, base: "https://example.org/news/item.html"),
            "About[1] and X[2], top, js, again[1]\n\nReferences:\n[1] https://example.org/about\n[2] https://x.test/\n")
    }

    func testBaseElementOverridesDocumentAddress() {
        let html = "<head><base href='https://cdn.test/a/'></head><body><a href='b'>b</a></body>"
        XCTAssertEqual(render(html, base: "https://example.org/"), "b[1]\n\nReferences:\n[1] https://cdn.test/a/b\n")
    }

    func testImages() {
        XCTAssertEqual(render("<p><img src=c.png alt='A cow'> grazing</p>"), "[image: A cow] grazing\n")
        XCTAssertEqual(render("<p>a <img src=c.png> b</p>"), "a b\n")
        XCTAssertEqual(render("<p><a href=/ad><img src=ad.gif></a> text</p>", base: "https://e.test/"), "text\n")
        XCTAssertEqual(render("<p>x<img src=spacer.gif alt=''>y</p>"), "xy\n")
        XCTAssertEqual(
            render("<a href='/p'><img alt='Logo' src=l.png></a>", base: "https://e.test/"),
            "[image: Logo][1]\n\nReferences:\n[1] https://e.test/p\n")
    }

    func testTablesAreAlignedWithHeaderRule() {
        let html =
            "<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Apple</td><td>3</td></tr><tr><td>Kiwi</td><td>12</td></tr></table>"
        XCTAssertEqual(render(html), "Name  │ Qty\n──────┼────\nApple │ 3\nKiwi  │ 12\n")
    }

    func testTableHeadSectionMakesHeaderRule() {
        let html = "<table><thead><tr><td>k</td><td>v</td></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>"
        XCTAssertEqual(render(html), "k │ v\n──┼──\na │ b\n")
    }

    func testTableCellsWrapWhenTooWide() {
        let html = "<table><tr><td>short</td><td>this cell has many words</td></tr></table>"
        XCTAssertEqual(render(html, width: 20), "short │ this cell\n      │ has many\n      │ words\n")
    }

    func testTableWithoutHeaderHasNoRule() {
        XCTAssertEqual(
            render("<table><tr><td>a</td><td>b</td></tr><tr><td>cc</td><td>d</td></tr></table>"),
            "a  │ b\ncc │ d\n")
    }

    func testSingleColumnLayoutTablesBecomeBlocks() {
        XCTAssertEqual(render("<table><tr><td>first</td></tr><tr><td>second</td></tr></table>"), "first\nsecond\n")
    }

    func testEntitiesAndNumericReferences() {
        XCTAssertEqual(render("<p>&amp; &lt;tag&gt; &eacute; &#233; &#x263A; x&mdash;y &euro;</p>"), "& <tag> é é ☺ x—y €\n")
        XCTAssertEqual(render("<p>a&nbsp;b</p>", width: 8), "a b\n")
    }

    func testNoBreakSpaceGluesWords() {
        XCTAssertEqual(render("<p>aaaa bbb&nbsp;ccc</p>", width: 8), "aaaa\nbbb ccc\n")
    }

    func testScriptStyleTemplateAndCommentsAreDropped() {
        XCTAssertEqual(
            render("<p>a<script>evil()</script>b<style>p{}</style>c<!-- hidden -->d<template>t</template>e</p>"),
            "abcde\n")
        XCTAssertEqual(render("<html><head><title>T</title><script>x</script></head><body>Body</body></html>"), "Body\n")
    }

    func testStylesOnlyWhenAsked() {
        let html = "<p><b>bold</b> <i>it</i> <u>un</u></p>"
        XCTAssertEqual(render(html, ansi: false), "bold it un\n")
        XCTAssertEqual(
            render(html, ansi: true), "\u{1B}[1mbold\u{1B}[0m \u{1B}[3mit\u{1B}[0m \u{1B}[4mun\u{1B}[0m\n")
        XCTAssertEqual(render("<b>a<i>b</i></b>", ansi: true), "\u{1B}[1ma\u{1B}[0m\u{1B}[1;3mb\u{1B}[0m\n")
    }

    func testStylesAreResetAtEveryLineEnd() {
        let out = render("<p><b>one two three</b></p>", width: 8, ansi: true)
        XCTAssertEqual(out, "\u{1B}[1mone two\u{1B}[0m\n\u{1B}[1mthree\u{1B}[0m\n")
    }

    func testNoColorAndTerminalDecision() {
        XCTAssertFalse(TerminalCapabilities.wantsANSIStyles(fileDescriptor: -1, environment: [:]))
        XCTAssertFalse(TerminalCapabilities.wantsANSIStyles(fileDescriptor: 1, environment: ["NO_COLOR": "1"]))
        XCTAssertEqual(TerminalCapabilities.columns(requested: 33, fileDescriptor: -1), 33)
        XCTAssertEqual(TerminalCapabilities.columns(requested: nil, fileDescriptor: -1, environment: ["COLUMNS": "101"]), 101)
        XCTAssertEqual(TerminalCapabilities.columns(requested: nil, fileDescriptor: -1, environment: [:]), 80)
    }

    func testQuotesAndUnknownElements() {
        XCTAssertEqual(render("<p>He said <q>hi</q> <foo>there</foo></p>"), "He said “hi” there\n")
    }

    func testEmptyInput() {
        XCTAssertEqual(render(""), "")
        XCTAssertEqual(render("<html><body></body></html>"), "")
    }

    func testDataInputHonoursDeclaredCharset() {
        var latin1 = Data("<meta charset=iso-8859-1><p>caf".utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Array("</p>".utf8))
        XCTAssertEqual(HTMLRenderer.render(html: latin1), "café\n")
        XCTAssertEqual(HTMLRenderer.render(html: Data("<p>café</p>".utf8)), "café\n")
        // A string is already Unicode: a contradicting declaration must not re-decode it.
        XCTAssertEqual(render("<meta charset=iso-8859-1><p>café</p>"), "café\n")
    }
}

final class HTML5Tests: XCTestCase {
    func testVoidElementsUnknownToLibxml2KeepFollowingContent() {
        XCTAssertEqual(render("<picture><source srcset=a.webp><img alt='Field'></picture> after"), "[image: Field] after\n")
        XCTAssertEqual(render("<p>x<track>y</p>"), "xy\n")
    }
}

final class BlankLineTests: XCTestCase {
    func testRunsOfBreaksCollapseToOneEmptyLine() {
        XCTAssertEqual(render("<p>a<br><br><br><br>b</p>"), "a\n\nb\n")
        XCTAssertEqual(render("<br><br><p>start</p>"), "start\n")
        XCTAssertEqual(render("<ul><li>x</li></ul><br><br><p>y</p>"), "• x\n\ny\n")
    }

    func testPreformattedBlankLinesAreKept() {
        XCTAssertEqual(render("<pre>a\n\n\nb</pre>"), "a\n\n\nb\n")
    }

    func testEmptyListItemKeepsItsMarker() {
        XCTAssertEqual(render("<ol><li></li><li>b</li></ol>"), "1.\n2. b\n")
    }
}

final class NarrowLayoutTests: XCTestCase {
    func testNestedTablesUseBareRulesWhenNarrow() {
        let html =
            "<table><tr><td><table><tr><td>1</td><td>2</td><td>3</td></tr></table></td>"
            + "<td><table><tr><td>4</td><td>5</td><td>6</td></tr></table></td></tr></table>"
        XCTAssertEqual(render(html, width: 13), "1│2│3 │ 4│5│6\n")
        XCTAssertEqual(render(html, width: 40), "1 │ 2 │ 3 │ 4 │ 5 │ 6\n")
    }

    func testListMarkersShowEvenWithoutRoomToIndent() {
        XCTAssertEqual(render("<table><tr><td><ol><li>a</li><li>b</li></ol></td></tr></table>", width: 4), "1. a\n2. b\n")
    }

    func testTooManyColumnsAreLinearised() {
        XCTAssertEqual(render("<table><tr><td>a</td><td>b</td><td>c</td></tr></table>", width: 4), "a │\nb │\nc\n")
    }
}

final class ColspanTests: XCTestCase {
    func testSpanningCellWidensItsColumns() {
        let html = "<table><tr><th colspan=2>Spanning header</th></tr><tr><td>a</td><td>b</td></tr></table>"
        // 15 columns of header, spread over two columns and one " │ ": 6 + 3 + 6.
        XCTAssertEqual(render(html), "Spanning header\n───────┼───────\na      │ b\n")
    }
}

final class ListNumberBoundsTests: XCTestCase {
    func testHugeStartValuesDoNotOverflow() {
        let out = render(
            "<ol start=9223372036854775807><li>a<li>b</ol><ol reversed start=-9223372036854775807><li>c<li value=9223372036854775807>d<li>e</ol>"
        )
        XCTAssertTrue(out.contains("1000000000. a"), out)
        XCTAssertTrue(out.contains("e"))
    }
}
