import AgroCLI
import AgroPresentation
import ArgumentParser
import Foundation
import XCTest

@testable import agro_full

/// Every help page has its words in every language: each command's description, each option
/// and argument has a key in `Localizable/en.json` whose English is the text the command
/// declares (so a changed option text shows up as a translation to redo), and the languages
/// have every English key (InterfaceStringsTests).
final class HelpPageTests: XCTestCase {
    private static let english: [String: String] = {
        let url = CLIRunner.root.appendingPathComponent("Localizable/en.json")
        return (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: String] ?? [:]
    }()

    /// The path of every command under `type`, `type`'s own first.
    private func paths(_ type: any ParsableCommand.Type, _ prefix: [String] = []) -> [[String]] {
        let path = prefix + [type._commandName]
        return [path] + type.configuration.subcommands.flatMap { paths($0, path) }
    }

    func testEveryCommandOptionAndArgumentHasItsWords() throws {
        let all = paths(AgroFull.self)
        XCTAssertGreaterThan(all.count, 40)
        var entries = 0
        for path in all {
            let page = try XCTUnwrap(HelpRequest.page(path, root: AgroFull.self), "\(path)")
            for entry in [page.abstract] + page.arguments + page.options + page.subcommands where !entry.english.isEmpty {
                entries += 1
                let key = entry.keys.first { Self.english[$0] != nil }
                XCTAssertNotNil(key, "\(path) \(entry.label): no key among \(entry.keys)")
                if let key { XCTAssertEqual(Self.english[key], entry.english, "\(path) \(entry.label): \(key)") }
            }
        }
        XCTAssertGreaterThan(entries, 300)
    }
}
