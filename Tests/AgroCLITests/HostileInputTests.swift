import AgroTestSupport
import Foundation
import XCTest

/// Hostile servers and hostile content through the built binary: one line on stderr, a
/// documented status below 128, and nothing on the terminal that could reorder or hide text.
final class HostileInputTests: XCTestCase {
    let cli = CLIRunner()

    override func tearDown() {
        try? FileManager.default.removeItem(at: cli.home)
    }

    /// Expects `status`, one `agro: ` line on stderr, and no trace of a crash.
    private func assertRefused(_ result: CLIRunner.Result, status: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr.lines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "), result.stderr, file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr, file: file, line: line)
    }

    private func trustFile() throws -> String {
        let prefix = cli.home.appendingPathComponent("release").path
        XCTAssertEqual(try cli.run(["keys", "generate", "--out", prefix]).status, 0)
        return prefix + ".pub"
    }

    func testALineBreakInAPlanNeverForgesASecondLine() throws {
        let plan = cli.home.appendingPathComponent("plan.json")
        let json =
            #"{"culture": "winter wheat", "applications": [{"product": "Nope\r\nagro: all good", "dose": 1, "unit": "l/ha"}]}"#
        try Data(json.utf8).write(to: plan)
        let result = try cli.run(["plan", "check", plan.path])
        XCTAssertNotEqual(result.status, 0)
        // Exactly one line break (the end of the one line), and no carriage return at all.
        XCTAssertEqual(result.stderr.unicodeScalars.filter { $0 == "\n" || $0 == "\r" }.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("Nope agro: all good"), result.stderr)
    }

    func testHugeContentLengthFromTheUpdateServer() throws {
        let server = try FaultyHTTPServer { _ in .hugeContentLength() }
        defer { server.stop() }
        let trust = try trustFile()
        for command in [["db", "check"], ["db", "update"]] {
            let result = try cli.run(command + ["--server", server.url.absoluteString, "--trust", trust])
            assertRefused(result, status: 91)
            XCTAssertTrue(result.stderr.contains("larger than"), result.stderr)
        }
    }

    func testSlowUpdateServerMeetsTheConfiguredDeadline() throws {
        let server = try FaultyHTTPServer { _ in .endlessTrickle(interval: 0.2) }
        defer { server.stop() }
        let trust = try trustFile()
        let started = Date()
        let result = try cli.run(
            ["db", "check", "--server", server.url.absoluteString, "--trust", trust],
            extraEnvironment: ["AGRO_UPDATE_DEADLINE": "1"])
        assertRefused(result, status: 90)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
    }

    func testPinnedIdentityFlagIsAccepted() throws {
        let server = try FaultyHTTPServer { _ in .hang }
        let url = server.url
        server.stop()
        let trust = try trustFile()
        // The flag parses; the closed port then fails as unreachable, not as usage.
        let result = try cli.run(["db", "check", "--server", url.absoluteString, "--trust", trust, "--identity", "x.agro"])
        assertRefused(result, status: 90)
        XCTAssertEqual(try cli.run(["db", "update", "--allow-downgrade", "--help"]).status, 0)
    }

    func testGzipBombFeedIsSkippedWithOneWarning() throws {
        let server = try FaultyHTTPServer { _ in .gzipBomb(decodedSize: 64 << 20) }
        defer { server.stop() }
        let url = server.url.absoluteString + "/feed.xml"
        XCTAssertEqual(try cli.run(["news", "feeds", "add", url]).status, 0)
        let result = try cli.run(["news", "refresh"])
        XCTAssertLessThan(result.status, 128, result.stderr)
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
        XCTAssertTrue(result.stderr.contains("larger than"), result.stderr)
    }

    func testHugeContentLengthFromTheWeatherService() throws {
        let server = try FaultyHTTPServer { _ in .hugeContentLength() }
        defer { server.stop() }
        let result = try cli.run(
            ["weather", "--at", "47.5,8.5"],
            extraEnvironment: ["AGRO_OPENWEATHER_URL": server.url.absoluteString, "OPENWEATHER_API_KEY": "k"])
        assertRefused(result, status: 87)
    }

    func testRegisterFileNameWithNonASCIIDigits() throws {
        let input = cli.home.appendingPathComponent("srppp_٢٠٢٤-٠١-٠١.xml")
        try Data("<root/>".utf8).write(to: input)
        let result = try cli.run([
            "catalog", "import", "srppp", input.path, "--out", cli.home.appendingPathComponent("c.sqlite").path,
        ])
        assertRefused(result, status: 64)
        XCTAssertTrue(result.stderr.contains("--version"), result.stderr)
    }
}

/// Terminal safety against reordering and invisible characters, with UserFacingTests' catalog.
extension UserFacingTests {
    func testBidirectionalAndZeroWidthCharactersNeverReachTheTerminal() throws {
        // "Trojan source" in a product name, and a Persian word that needs its ZWNJ.
        let name = "Evil \u{202E}gpj.exe\u{202C} \u{2066}x\u{2069}\u{200B}y\u{FEFF} \u{200D}z می\u{200C}خواهم"
        let catalog = try build(writeSources(version: 1, productName: name), to: "bidi.sqlite")
        for arguments in [["products"], ["product", "p1"], ["search", "evil"], ["products", "--format", "csv"]] {
            let result = try cli.run(["--catalog", catalog] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments) \(result.stderr)")
            for forbidden: UInt32 in [0x202E, 0x202C, 0x2066, 0x2069, 0x200B, 0xFEFF] {
                XCTAssertFalse(
                    result.stdout.unicodeScalars.contains { $0.value == forbidden },
                    "\(arguments) prints U+\(String(forbidden, radix: 16))")
            }
            // The joiner before "z" starts no word: removed. The ZWNJ inside the Persian word stays.
            XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value == 0x200D }, "\(arguments)")
            XCTAssertTrue(result.stdout.contains("می\u{200C}خواهم"), "\(arguments): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("gpj.exe"), "\(arguments)")
        }
        // JSON keeps the data but escapes the reordering controls.
        let json = try cli.run(["--catalog", catalog, "products", "--format", "json"])
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value == 0x202E }, json.stdout)
        XCTAssertTrue(json.stdout.lowercased().contains("\\u202e"), json.stdout)
    }
}
