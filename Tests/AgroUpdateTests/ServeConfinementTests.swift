import Foundation
import Hummingbird
import XCTest

@testable import AgroServer

/// `agro serve` serves only the files inside its directory: no dotfiles, no symbolic links
/// leading out; its access log cannot be forged through header values.
final class ServeConfinementTests: XCTestCase {
    private var root: String!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "agro-serve-" + UUID().uuidString.prefix(8)
        let site = root + "/site"
        try FileManager.default.createDirectory(atPath: site + "/catalogs", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/.git", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: site + "/manifest.json"))
        try Data("secret key".utf8).write(to: URL(fileURLWithPath: site + "/.key"))
        try Data("git config".utf8).write(to: URL(fileURLWithPath: site + "/.git/config"))
        try Data("outside".utf8).write(to: URL(fileURLWithPath: root + "/outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: site + "/escape.txt", withDestinationPath: root + "/outside.txt")
        try FileManager.default.createSymbolicLink(atPath: site + "/catalogs/up", withDestinationPath: root)
        // A link that stays inside is served like the file it names.
        try FileManager.default.createSymbolicLink(atPath: site + "/current.json", withDestinationPath: "manifest.json")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func testDotfilesAndLinksOutAreNotServed() async throws {
        let server = try await RunningServer.start(directory: root + "/site")
        defer { Task { await server.stop() } }
        func status(_ path: String) async throws -> Int {
            let (_, response) = try await fetch(URL(string: server.url.absoluteString + path)!)
            return response.statusCode
        }
        let served = try await status("/manifest.json")
        let linkedInside = try await status("/current.json")
        XCTAssertEqual([served, linkedInside], [200, 200])
        for path in ["/.key", "/.git/config", "/%2Ekey", "/catalogs/../.key", "/escape.txt", "/catalogs/up/outside.txt"] {
            let code = try await status(path)
            XCTAssertEqual(code, 404, path)
        }
    }

    func testAllowsDecidesOnTheResolvedPath() {
        let site = root + "/site"
        XCTAssertTrue(ConfinementMiddleware<BasicRequestContext>.allows("/manifest.json", root: site))
        XCTAssertTrue(
            ConfinementMiddleware<BasicRequestContext>.allows("/missing.json", root: site), "a missing file is a plain 404")
        XCTAssertFalse(ConfinementMiddleware<BasicRequestContext>.allows("/.key", root: site))
        XCTAssertFalse(ConfinementMiddleware<BasicRequestContext>.allows("/escape.txt", root: site))
        XCTAssertFalse(ConfinementMiddleware<BasicRequestContext>.allows("/a%00b", root: site))
    }

    func testAccessLogEscapesHeaderValues() {
        XCTAssertEqual(AccessLogMiddleware<BasicRequestContext>.escaped("\"v1\""), "\"v1\"")
        XCTAssertEqual(
            AccessLogMiddleware<BasicRequestContext>.escaped("a\r\nstatus=200\u{1B}[2J"), "a\\u{d}\\u{a}status=200\\u{1b}[2J")
        XCTAssertEqual(AccessLogMiddleware<BasicRequestContext>.escaped("\u{202E}x\\"), "\\u{202e}x\\\\")
    }

    func testAccessLogWritesMillisecondsAsPrintfDoes() {
        // Values away from a tie of the second decimal (there the two may round either way).
        for value in [0, 0.04, 0.06, 0.96, 1.44, 9.96, 12.34, 999.97, 1234.5678, 86_400_000.01] {
            XCTAssertEqual(AccessLogMiddleware<BasicRequestContext>.tenths(value), String(format: "%.1f", value), "\(value)")
        }
    }
}
