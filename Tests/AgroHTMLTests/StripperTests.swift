import Foundation
import XCTest

@testable import AgroHTML

/// Dropping scripts, styles and comments before libxml2 must not change any output.
final class StripperTests: XCTestCase {
    func renderBothWays(_ data: Data, width: Int = 80) -> (String, String) {
        let options = HTMLRenderOptions(width: width, baseURL: URL(string: "https://e.test/a/"))
        return data.withUnsafeBytes { bytes in
            (
                HTMLRenderer.render(bytes: bytes, encoding: "UTF-8", options: options, strip: true),
                HTMLRenderer.render(bytes: bytes, encoding: "UTF-8", options: options, strip: false)
            )
        }
    }

    func testTrickyMarkupRendersAsWithoutStripping() {
        let cases = [
            "<p title=\"<script>\">visible</p><script>hidden</script><p>after</p>",
            "<p title='<style>'>a</p><style>p{}</style>b",
            "<script src=x />shown?</script>tail",
            "<script src=\"x\"/>shown</script>tail",
            "<!-- <script> -->x<script>y</script>z",
            "<script>a</SCRIPT >b",
            "<script>if (a<b) {}</scriptx>c</script>d",
            "<SCRIPT type=text/javascript>x</script>y<!---->z<!-- a -- b -->w",
            "<style>unterminated",
            "<!-- unterminated",
            "<a href=x\"y>q</a><script>z</script>",
            "<textarea><script>t</script></textarea>after",
        ]
        for html in cases {
            let (stripped, plain) = renderBothWays(Data(html.utf8))
            XCTAssertEqual(stripped, plain, html)
        }
        let bytes = Array("<p>a<script>x</script>".utf8)
        let stripped = bytes.withUnsafeBytes { RawTextStripper.strip($0) }
        XCTAssertEqual(stripped.map { String(decoding: $0, as: UTF8.self) }, "<p>a<script></script>")
    }

    func testFixturesRenderAsWithoutStripping() throws {
        var checked = 0
        for dir in [
            "html/real_pages", "html/html2text_py", "html/grobian_html2text", "html/rust_html2text",
            "html/pathological/lynx",
        ] {
            let url = try fixtureDirectory(dir)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".html") {
                let data = try Data(contentsOf: url.appendingPathComponent(name))
                guard String(data: data, encoding: .utf8) != nil else { continue }
                let (stripped, plain) = renderBothWays(data)
                XCTAssertEqual(stripped, plain, "\(dir)/\(name)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100, "the fixture directories hold far more UTF-8 pages")
    }
}
