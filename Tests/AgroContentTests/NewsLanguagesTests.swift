import Foundation
import XCTest

/// The demo news speak Kazakh wherever they speak Russian: every title and summary, and every
/// article body, whose Kazakh file keeps the Russian one's HTML structure (the same elements in
/// the same order, the same links and images), so that neither language shows a shorter or
/// differently linked article.
final class NewsLanguagesTests: XCTestCase {
    private static let content = BundledCatalogTests.content
    private static let news = content.appendingPathComponent("news")

    private func items() throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.content.appendingPathComponent("news.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// Every match of `pattern` in `text`, in order.
    private func all(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
            .compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    func testEveryTitleAndSummaryWithRussianHasKazakh() throws {
        let items = try items()
        XCTAssertGreaterThanOrEqual(items.count, 12)
        for item in items {
            let id = item["id"] as? String ?? "?"
            for field in ["title", "summary"] {
                guard let text = item[field] as? [String: String], let russian = text["ru"] else { continue }
                let kazakh = try XCTUnwrap(text["kk"], "news.json \(id) has a Russian \(field) but no Kazakh one")
                XCTAssertNotEqual(kazakh, russian, "news.json \(id) \(field): the Kazakh text is the Russian one")
                XCTAssertNotNil(
                    kazakh.range(of: "[әғқңөұүһі]", options: .regularExpression),
                    "news.json \(id) \(field) does not read as Kazakh: \(kazakh)")
            }
        }
    }

    func testEveryRussianArticleHasAKazakhOneOfTheSameStructure() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.news.path).filter { $0.hasSuffix(".ru.html") }
        XCTAssertGreaterThanOrEqual(files.count, 12)
        for file in files.sorted() {
            let id = String(file.dropLast(".ru.html".count))
            let russian = try String(contentsOf: Self.news.appendingPathComponent(file), encoding: .utf8)
            let kazakhFile = Self.news.appendingPathComponent("\(id).kk.html")
            guard FileManager.default.fileExists(atPath: kazakhFile.path) else {
                XCTFail("news/\(id).ru.html has no news/\(id).kk.html")
                continue
            }
            let kazakh = try String(contentsOf: kazakhFile, encoding: .utf8)
            // Opening and closing tags by name, in order; then the addresses.
            let tag = #"</?[a-zA-Z][a-zA-Z0-9]*"#, address = #"(?:href|src)="[^"]*""#
            XCTAssertEqual(try all(tag, in: kazakh), try all(tag, in: russian), "news/\(id).kk.html: elements differ from ru")
            XCTAssertEqual(
                try all(address, in: kazakh), try all(address, in: russian), "news/\(id).kk.html: links differ from ru")
            XCTAssertNotNil(kazakh.range(of: "[әғқңөұүһі]", options: .regularExpression), "news/\(id).kk.html is not Kazakh")
        }
    }
}
