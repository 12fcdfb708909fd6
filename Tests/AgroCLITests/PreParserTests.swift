import AgroCLI
import AgroPresentation
import ArgumentParser
import XCTest

/// `agro`'s pre-parser (`CatalogCommands.parse`) reads the global options from `GlobalOptions`
/// itself, so that an option added there is moved after the command's name like the others.
final class PreParserTests: XCTestCase {
    /// The list is written out (reading it at every start cost a sixth of a query's start-up);
    /// read here from the declarations themselves, so that it cannot lag behind them.
    func testValuedGlobalOptionsAreTheDeclaredOptions() {
        let declared = Set(
            Mirror(reflecting: GlobalOptions()).children.compactMap { child -> String? in
                guard let label = child.label, String(describing: type(of: child.value)).hasPrefix("Option<") else {
                    return nil
                }
                return "--" + GlobalOptions.kebabCase(label.hasPrefix("_") ? String(label.dropFirst()) : label)
            })
        XCTAssertEqual(declared, ["--catalog", "--lang", "--format"])
        XCTAssertEqual(Set(GlobalOptions.valuedOptionNames), declared)
    }

    /// POSIX locale names become catalog locale codes: `ru_KZ.UTF-8` and `kk_KZ@cyrillic` read
    /// as `ru-kz` and `kk-kz`; "C" says nothing, so English.
    func testTheLanguageFromThePOSIXLocaleVariables() throws {
        let options = try GlobalOptions.parse([])
        XCTAssertEqual(options.resolvedLocale(environment: ["LANG": "ru_KZ.UTF-8"]), "ru-kz")
        XCTAssertEqual(options.resolvedLocale(environment: ["LC_ALL": "kk_KZ@cyrillic", "LANG": "ru_RU"]), "kk-kz")
        XCTAssertEqual(options.resolvedLocale(environment: ["AGRO_LANG": "DE_ch"]), "de-ch")
        XCTAssertEqual(options.resolvedLocale(environment: ["LANG": "C.UTF-8"]), "en")
    }

    func testGlobalOptionsBeforeTheCommandAreAccepted() throws {
        for arguments in [
            ["--lang", "ru", "--format", "json", "products", "--pest", "rust"],
            ["--lang=ru", "--format=json", "products", "--pest", "rust"],
            ["products", "--lang", "ru", "--format", "json", "--pest", "rust"],
        ] {
            let command = try XCTUnwrap(CatalogCommands.parse(arguments), "\(arguments)")
            XCTAssertEqual(String(describing: type(of: command)), "ProductsCommand", "\(arguments)")
        }
    }

    func testWhatIsNoCatalogQueryIsLeftToTheWholeProgram() {
        for arguments in [
            [], ["--help"], ["--version"], ["weather", "--at", "1,2"], ["--verbose", "products"],
            ["products", "--help"], ["favorites", "help", "add"], ["products", "--page", "0"],
        ] {
            XCTAssertNil(CatalogCommands.parse(arguments), "\(arguments)")
        }
        // A bad letter is the query's own refusal, worded in the interface language as the web
        // API words it (RequestError), not a parse error: this program answers it.
        XCTAssertNotNil(CatalogCommands.parse(["products", "--letter", "ab"]))
    }

    func testKebabCaseIsHowTheLibraryNamesLongOptions() {
        XCTAssertEqual(GlobalOptions.kebabCase("perPage"), "per-page")
        XCTAssertEqual(GlobalOptions.kebabCase("catalog"), "catalog")
    }
}
