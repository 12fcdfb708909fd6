import Foundation
import Mustache
import XCTest

@testable import AgroWeb

/// The layout made once per catalog and language (`PageLayout`) against the layout rendered
/// whole by Mustache, as every page was before: the same bytes for titles, bodies and language
/// links that need escaping or none.
final class PageLayoutTests: XCTestCase {
    func testTheLayoutInPiecesWritesWhatMustacheWrites() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let templates = try HTMLEscaping.library(directory: root.appendingPathComponent("Assets/web/templates"))
        let strings = [
            "title": "Agro <catalog>", "skip": "Skip & go", "search": "Search", "language": "Language \"x\"",
            "dateNumeric": "{2}.{1}.{0}",
        ]
        let links: [[String: Any]] = [
            ["code": "en", "name": "English", "selected": false, "href": "/uses?pest=a%26b&lang=en"],
            ["code": "kk", "name": "Қазақша", "selected": true, "href": "/x?q=\"<'>&lang=kk"],
        ]
        let catalogTitle = "Register <2026> & \"more\""
        for title in ["", "Uses of A & B on \"C\"", "a\"\u{301} <b>", "Қазақша 'сынақ'"] {
            for languages in [[], links] {
                // The links are given less their hrefs when the layout is made, the hrefs per page.
                let layout = PageLayout(
                    templates: templates, strings: strings, locale: "kk", catalogTitle: catalogTitle,
                    languages: languages.map { $0.filter { $0.key != "href" } })
                let body = "<p>a body</p>\n & as it is \u{0}"
                let whole = templates.render(
                    [
                        "t": strings, "lang": "kk", "title": title, "body": body, "languages": languages,
                        "catalogTitle": catalogTitle,
                    ], withTemplate: "layout")
                let hrefs = languages.compactMap { $0["href"] as? String }
                XCTAssertEqual(layout.html(title: title, body: body, hrefs: hrefs), whole, title)
            }
        }
    }
}
