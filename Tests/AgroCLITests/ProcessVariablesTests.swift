import AgroPresentation
import Foundation
import XCTest

/// The environment read from `environ` (`ProcessVariables`) and the folders joined as strings
/// (`Paths`) give what Foundation gives.
final class ProcessVariablesTests: XCTestCase {
    func testTheVariablesAreFoundationsOnes() {
        setenv("AGRO_TEST_EQUALS", "a=b==c", 1)
        setenv("AGRO_TEST_EMPTY", "", 1)
        setenv("AGRO_TEST_TEXT", "Қазақша жолақ ✓", 1)
        defer { for name in ["AGRO_TEST_EQUALS", "AGRO_TEST_EMPTY", "AGRO_TEST_TEXT"] { unsetenv(name) } }
        let read = ProcessVariables.read()
        XCTAssertEqual(read["AGRO_TEST_EQUALS"], "a=b==c")
        XCTAssertEqual(read["AGRO_TEST_EMPTY"], "")
        XCTAssertEqual(read["AGRO_TEST_TEXT"], "Қазақша жолақ ✓")
        XCTAssertEqual(read, ProcessInfo.processInfo.environment)
    }

    func testFoldersAreJoinedAsURLsJoinThem() {
        let cases: [([String: String], data: String, config: String, cache: String)] = [
            (["HOME": "/home/a"], "/home/a/.local/share/agro", "/home/a/.config/agro", "/home/a/.cache/agro"),
            // A trailing slash, the root, and XDG folders (a relative one is ignored).
            (["HOME": "/home/b/"], "/home/b/.local/share/agro", "/home/b/.config/agro", "/home/b/.cache/agro"),
            (["HOME": "/"], "/.local/share/agro", "/.config/agro", "/.cache/agro"),
            (
                ["HOME": "/h", "XDG_DATA_HOME": "/d/", "XDG_CONFIG_HOME": "relative", "XDG_CACHE_HOME": "/c c/ы"],
                "/d/agro", "/h/.config/agro", "/c c/ы/agro"
            ),
        ]
        for (environment, data, config, cache) in cases {
            let paths = Paths(environment: environment)
            XCTAssertEqual(paths.data.path, data)
            XCTAssertEqual(paths.config.path, config)
            XCTAssertEqual(paths.cache.path, cache)
            XCTAssertEqual(paths.configFile.path, config + "/config.json")
            XCTAssertEqual(paths.userDatabase.path, data + "/user.sqlite")
            // What URL's own joining makes of the same folders.
            XCTAssertEqual(paths.configFile, URL(fileURLWithPath: config).appendingPathComponent("config.json"))
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-home-\(UUID())")
        let paths = Paths(environment: ["HOME": "/h", "AGRO_HOME": home.path])
        XCTAssertEqual(paths.bundledCatalog?.path, home.path + "/Database/catalog.sqlite")
        XCTAssertEqual(paths.localizable?.path, home.path + "/Localizable")
    }

    func testResourcesAreFoundAboveTheProgram() {
        // The test runner lies in .build/<triple>/debug: the checkout above it holds Localizable/.
        let paths = Paths(environment: ["HOME": "/h"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        XCTAssertEqual(paths.resources?.standardizedFileURL.path, root.standardizedFileURL.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths.localizable?.appendingPathComponent("en.json").path ?? ""))
    }
}
