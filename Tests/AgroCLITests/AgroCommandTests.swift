import AgroCLI
import AgroDomain
import AgroStore
import ArgumentParser
import XCTest

@testable import agro_full

/// Each executable's `main` hands its stores to the command it runs through the command's
/// global options (`AgroCommand`), with no global in between: every command of the tree that
/// takes the global options must be an `AgroCommand`, or it would open no catalog.
final class AgroCommandTests: XCTestCase {
    /// Every command type under `type`, `type`'s own first.
    private func commands(_ type: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [type] + type.configuration.subcommands.flatMap(commands)
    }

    func testEveryCommandWithGlobalOptionsIsGivenTheStores() {
        var withOptions = 0
        for type in commands(AgroFull.self).dropFirst() {
            let takesGlobalOptions = Mirror(reflecting: type.init()).children.contains {
                $0.value is OptionGroup<GlobalOptions>
            }
            guard takesGlobalOptions else { continue }
            withOptions += 1
            XCTAssertTrue(type is any AgroCommand.Type, "\(type) takes the global options but is not an AgroCommand")
        }
        // The catalog queries and agro-full's own commands (db, journal, field, web, ...).
        XCTAssertGreaterThan(withOptions, 40)
    }

    func testACommandIsGivenTheStoresItsProgramChose() throws {
        let parsed = try XCTUnwrap(CatalogCommands.parse(["products", "--lang", "kk"]) as? any AgroCommand)
        XCTAssertNil(parsed.global.stores)
        let given = parsed.given(LocalStoreOpener(lists: .direct))
        XCTAssertTrue(given.global.stores is LocalStoreOpener)
        XCTAssertEqual(given.global.lang, "kk")
    }
}
