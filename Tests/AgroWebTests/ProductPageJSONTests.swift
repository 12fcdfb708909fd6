import AgroDomain
import AgroPresentation
import XCTest

/// `ProductPageJSON` writes what `Environment.json` (JSONEncoder, then the escaping of DEL, C1
/// and bidirectional controls) writes for the same page: the API's bytes must not change.
final class ProductPageJSONTests: XCTestCase {
    /// Every scalar class the two escape differently from plain text, and some they leave alone.
    static let awkward =
        (0..<0x20).map { String(Unicode.Scalar(UInt8($0))) }.joined()
        + "\"\\/\u{7F}\u{85}\u{9F}\u{A0}\u{200B}\u{200E}\u{2028}\u{202E}\u{2066}\u{FEFF}é Қ 😀"

    static func product(_ index: Int, complete: Bool) -> ProductSummary {
        ProductSummary(
            id: "p-\(index)", name: complete ? "Name \(index) " + awkward : "Plain/\(index)",
            category: ProductCategory.allCases[index % ProductCategory.allCases.count],
            formulation: complete ? "EC" : nil, company: complete ? "Firma \"AG\" \\ \u{1B}[31m" : nil,
            registrationNumber: index % 2 == 0 ? "W-\(index)" : nil,
            ingredients: ingredients(index, complete: complete), registrationExpiry: complete ? "2026-12-31" : nil)
    }

    static let concentrations: [Double?] = [
        250, 0.1, 1e-5, 2.5e-7, 1e16, 1e21, 123_456_789_012_345_680_000, -0.0, 0.30000000000000004, 12345.678, 100, nil,
    ]

    static func ingredients(_ index: Int, complete: Bool) -> [ActiveIngredient] {
        guard index % 3 != 0 else { return [] }
        return (0..<(index % 3)).map { offset in
            ActiveIngredient(
                substance: EntityRef(id: "s-\(offset)", name: complete ? "Stoff " + awkward : "Stoff"),
                concentration: concentrations[(index + offset) % concentrations.count],
                unit: complete || offset == 0 ? "g/l" : nil,
                modeOfAction: complete && offset == 1 ? ModeOfAction(scheme: "FRAC", group: "3\u{202E}") : nil)
        }
    }

    func testWritesWhatTheEncoderWrites() throws {
        var pages: [Page<ProductSummary>] = [Page(items: [], page: 3, perPage: 20, total: 41)]
        for count in [1, 2, 7, 24] {
            for complete in [false, true] {
                let items = (0..<count).map { Self.product($0, complete: complete || $0 % 4 == 1) }
                pages.append(Page(items: items, page: 1, perPage: count, total: count * 10 + 1))
            }
        }
        for page in pages {
            let expected = try Environment.json(PageDocument(page))
            let written = ProductPageJSON.json(page)
            if written != expected {
                // Where they part, readable in the log (the documents run to 20 KB).
                let common = zip(written.utf8, expected.utf8).prefix { $0 == $1 }.count
                XCTFail(
                    "differs at byte \(common): \(String(decoding: Array(written.utf8.dropFirst(common).prefix(60)), as: UTF8.self))"
                )
            }
        }
    }
}
