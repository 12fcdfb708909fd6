import Foundation
import Mustache
import XCTest

@testable import AgroWeb

/// The templates' escaping (`HTMLEscaping`) against Mustache's own, and the query encoding
/// (`WebRequest.encoded`) against Foundation's.
final class HTMLEscapingTests: XCTestCase {
    func testEscapesAsMustacheDoes() throws {
        let texts = [
            "", "plain", "a < b > c & d \"e\" 'f'", "Pflanzenschutz® 5 %", "<script>alert('x')</script>", "&amp;",
            "Қазақша \"сынақ\"", "😀<😀>", "line\r\nbreak & tab\t",
        ]
        let mustache = try MustacheTemplate(string: "{{value}}")
        for text in texts {
            XCTAssertEqual(HTMLEscaping().escapeText(text), mustache.render(["value": text]), text)
        }
    }

    func testAQuoteBeforeACombiningMarkIsEscaped() {
        // One Character to Mustache (`"` and U+0301), which it left as it was: the quote would
        // end an attribute's value.
        XCTAssertEqual(HTMLEscaping().escapeText("a\"\u{301} onmouseover=x"), "a&quot;\u{301} onmouseover=x")
        XCTAssertEqual(HTMLEscaping().escapeText("<\u{301}"), "&lt;\u{301}")
    }

    /// Sanitized articles escape with the pages' escaper: a quote before a combining mark in
    /// an attribute's value stays inside the value.
    func testSanitizedArticlesEscapeAQuoteBeforeACombiningMark() {
        let html = HTMLSanitizer.sanitize(
            "<p><a href=\"https://example.org/\" title=\"x&quot;\u{301} onmouseover=y\">z\"\u{301}</a></p>", base: nil)
        XCTAssertTrue(html.contains("title=\"x&quot;\u{301} onmouseover=y\""), html)
        XCTAssertTrue(html.contains(">z&quot;\u{301}</a>"), html)
    }

    /// The pickers' choices, rendered once per catalog apart from the page, escape as the page
    /// does: a quote before a combining mark would otherwise end the option's value.
    func testPickerChoicesEscapeAsThePages() {
        MustacheContentTypes.register(HTMLEscaping(), named: HTMLEscaping.name)
        let choices = RenderedChoices(
            Choices([(id: "a\"\u{301}", name: "x\"\u{301} <y>")]),
            template: "<option value=\"{{id}}\"{{#selected}} selected{{/selected}}>{{name}}</option>", strings: [:])
        XCTAssertEqual(choices.html, "<option value=\"a&quot;\u{301}\">x&quot;\u{301} &lt;y&gt;</option>")
        XCTAssertEqual(
            choices.html(selecting: "a\"\u{301}"), "<option value=\"a&quot;\u{301}\" selected>x&quot;\u{301} &lt;y&gt;</option>")
    }

    func testTheLibraryEscapesAndKeepsTheTemplatesLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("escaping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{{#items}}\n<li>{{name}}</li>\n{{/items}}\n{{> part}}".write(
            to: directory.appendingPathComponent("list.mustache"), atomically: true, encoding: .utf8)
        try "<p title=\"{{title}}\">{{{raw}}}</p>\n".write(
            to: directory.appendingPathComponent("part.mustache"), atomically: true, encoding: .utf8)
        let library = try HTMLEscaping.library(directory: directory)
        let values: [String: Any] = ["items": [["name": "a\"\u{301}"], ["name": "<b>"]], "title": "x'y", "raw": "<i>"]
        XCTAssertEqual(
            library.render(values, withTemplate: "list"),
            "<li>a&quot;\u{301}</li>\n<li>&lt;b&gt;</li>\n<p title=\"x&#39;y\"><i></p>\n")
        XCTAssertEqual(library.render(values, withTemplate: "part"), "<p title=\"x&#39;y\"><i></p>\n")
    }

    func testQueryComponentsEncodeAsFoundationDoes() {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        var texts = (1..<128).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "winter wheat", "Blé d'hiver", "Пшеница озимая", "a+b&c=d?e#f%g/h", "9060AEC1-0B4C", "😀", "é\u{301}"]
        for text in texts {
            XCTAssertEqual(WebRequest.encoded(text), text.addingPercentEncoding(withAllowedCharacters: allowed), text)
        }
    }
}
