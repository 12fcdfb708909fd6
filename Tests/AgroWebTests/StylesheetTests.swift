import Foundation
import XCTest

/// The stylesheet as the browser's text size reads it: body text in rem, em or % (so that text
/// at 200 % grows it), never in px outside a drawing (an SVG scales with its box), and no text
/// smaller than 0.75 rem (12 px at the default size; the spray slots' verdicts were 10.9 px).
/// The browser test measures the pages themselves at 360 px (Tests/browser).
final class StylesheetTests: XCTestCase {
    static let css = WebProcess.root.appendingPathComponent("Assets/web/static/app.css")

    /// Each rule's selector and declarations, comments and media queries' braces left out.
    private func rules() throws -> [(selector: String, body: String)] {
        var text = try String(contentsOf: Self.css, encoding: .utf8)
        text = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: [.regularExpression])
        text = text.replacingOccurrences(of: #"@media[^{]*\{"#, with: "", options: .regularExpression)
        let expression = try NSRegularExpression(pattern: #"([^{}]+)\{([^{}]*)\}"#)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let selector = String(text[Range(match.range(at: 1), in: text)!]).trimmingCharacters(in: .whitespacesAndNewlines)
            return (selector, String(text[Range(match.range(at: 2), in: text)!]))
        }
    }

    func testTextSizesFollowTheBrowsersTextSize() throws {
        let rules = try rules()
        XCTAssertGreaterThan(rules.count, 50)
        let body = try XCTUnwrap(rules.first { $0.selector == "body" }?.body)
        XCTAssertNil(body.range(of: #"font:\s*\d+px"#, options: .regularExpression), "body text in px: \(body)")
        XCTAssertNotNil(body.range(of: #"font:\s*(100%|1rem)"#, options: .regularExpression), body)
        for rule in rules
        where !rule.selector.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).hasPrefix("svg") }) {
            for size in rule.body.matches(of: #/font-size:\s*([\d.]+)(px|rem|em|%)/#) {
                let (value, unit) = (Double(size.output.1) ?? 0, size.output.2)
                XCTAssertNotEqual(unit, "px", "\(rule.selector): a text size in px does not follow the browser's text size")
                if unit == "rem" || unit == "em" {
                    XCTAssertGreaterThanOrEqual(value, 0.75, "\(rule.selector): text under 12 px")
                }
            }
        }
        // The spray slots' verdicts, read at arm's length in the field.
        let verdict = try XCTUnwrap(rules.first { $0.selector == "details.slot .verdict" }?.body)
        XCTAssertNotNil(verdict.range(of: #"font-size:\s*\.8rem"#, options: .regularExpression), verdict)
    }

    /// Checkboxes 24 px at the default text size; lone links at least 24 px high.
    func testTapTargetsAreAtLeast24Pixels() throws {
        let rules = try rules()
        let checkbox = try XCTUnwrap(rules.first { $0.selector.contains("input[type=checkbox]") }?.body)
        XCTAssertTrue(checkbox.contains("min-height: 24px") && checkbox.contains("min-width: 24px"), checkbox)
        let links = try XCTUnwrap(rules.first { $0.selector.contains("ol.region-list a") })
        XCTAssertTrue(links.body.contains("display: inline-block") && links.body.contains("min-height: 24px"), links.body)
        for selector in ["main li > a", "main dd a", ".pest a", ".listed a"] {
            XCTAssertTrue(links.selector.contains(selector), selector)
        }
    }
}
