import AgroDomain
import AgroPresentation
import Foundation
import XCTest

/// The localizer fills `{0}`, `{1}`, ... in one pass: what an argument says is never taken for
/// a placeholder (a product, a file or a server's words may contain "{1}").
final class LocalizerTests: XCTestCase {
    private func localizer(_ table: [String: String]) throws -> Localizer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-localizer-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        try JSONSerialization.data(withJSONObject: table).write(to: directory.appendingPathComponent("en.json"))
        return Localizer(locale: "en", directory: directory)
    }

    func testAnArgumentHoldingAPlaceholderIsNotSubstitutedAgain() throws {
        let s = try localizer(["pair": "{0} and {1}", "reversed": "{1} before {0}"])
        XCTAssertEqual(s("pair", "{1}", "B"), "{1} and B")
        XCTAssertEqual(s("pair", "A", "{0}"), "A and {0}")
        XCTAssertEqual(s("reversed", "x{1}y", "{0}"), "{0} before x{1}y")
    }

    func testPlaceholdersWithoutArgumentsAndLoneBracesStay() throws {
        let s = try localizer(["gaps": "{0} {2} {} {x} {-1} { {1"])
        XCTAssertEqual(s("gaps", "a", "b"), "a {2} {} {x} {-1} { {1")
        XCTAssertEqual(s("gaps"), "{0} {2} {} {x} {-1} { {1")
        // The same template twice, and an argument used twice.
        XCTAssertEqual(TextTemplate.fill("{0}{0}-{1}", ["{1}", "z"]), "{1}{1}-z")
        XCTAssertEqual(TextTemplate.fill("{10}", Array(repeating: "-", count: 10) + ["ten"]), "ten")
    }
}
