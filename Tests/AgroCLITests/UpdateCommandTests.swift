import AgroTestSupport
import Foundation
import XCTest

/// Catalog updates end to end through the built binary: keys, publish, serve, check, update,
/// status, rollback, verify, the refusals, and the start-up fallback.
final class UpdateCommandTests: XCTestCase {
    let cli = CLIRunner()

    // MARK: - Helpers

    /// Catalog sources with one product named `productName` (as in UserFacingTests).
    func writeSources(version: Int, productName: String) throws -> URL {
        let directory = cli.home.appendingPathComponent("sources-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files: [String: Any] = [
            "catalog.json": [
                "identity": "test.update", "version": version, "released": "2026-01-01T00:00:00Z",
                "locales": ["en"], "title": ["en": "Update test"],
            ] as [String: Any],
            "companies.json": [], "hazard-statements.json": [], "substances.json": [], "schemes.json": [],
            "regions.json": [], "representatives.json": [], "distributors.json": [], "news.json": [],
            "cultures.json": [["id": "wheat", "name": ["en": "Wheat"]]],
            "pests.json": [["id": "rust", "kind": "disease", "name": ["en": "Rust"]]],
            "products.json": [["id": "p1", "name": ["en": productName], "category": "fungicide"]],
            "uses.json": [
                ["id": "u1", "product": "p1", "cultures": ["wheat"], "pests": ["rust"], "dose": 1, "unit": "l/ha"]
                    as [String: Any]
            ],
        ]
        for (name, value) in files {
            try JSONSerialization.data(withJSONObject: value).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    func build(version: Int, productName: String) throws -> String {
        let out = cli.home.appendingPathComponent("v\(version).sqlite").path
        let result = try cli.run([
            "catalog", "build", try writeSources(version: version, productName: productName).path, "--out", out,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return out
    }

    func path(_ name: String) -> String { cli.home.appendingPathComponent(name).path }

    /// Runs and expects success.
    @discardableResult
    func ok(_ arguments: [String], extraEnvironment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line)
        throws -> CLIRunner.Result
    {
        let result = try cli.run(arguments, extraEnvironment: extraEnvironment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    /// Runs and expects a refusal: the status and one line on stderr containing `text`.
    func refused(
        _ arguments: [String], status: Int32, containing text: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try cli.run(arguments)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.lines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(text), "\(result.stderr) lacks \(text)", file: file, line: line)
    }

    /// Names of the products the catalog in use lists.
    func productNames(_ extra: [String] = []) throws -> [String] {
        let page = try cli.json(extra + ["products", "--all"])
        return try XCTUnwrap(page["items"] as? [[String: Any]]).compactMap { $0["name"] as? String }
    }

    func status() throws -> [String: Any] { try cli.json(["db", "status"]) }

    // MARK: - Tests

    func testPublishServeUpdateRollbackVerify() throws {
        let key = path("release"), other = path("other")
        let generated = try ok(["keys", "generate", "--out", key])
        XCTAssertTrue(generated.stdout.contains("release.pub"), generated.stdout)
        let mode = try FileManager.default.attributesOfItem(atPath: key + ".key")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        try refused(["keys", "generate", "--out", key], status: 94, containing: "file exists")
        try ok(["keys", "generate", "--out", other])

        let site = path("site")
        let v1 = try build(version: 1, productName: "Alpha One")
        try ok(["catalog", "publish", v1, "--to", site, "--key", key + ".key"])
        let server = try ServeProcess(binary: CLIRunner.binary, directory: site, environment: cli.environment)
        defer { server.stop() }
        let trust = ["--server", server.url, "--trust", key + ".pub"]

        // Before any update: the bundled catalog.
        XCTAssertEqual(try status()["source"] as? String, "bundled")
        let check = try ok(["db", "check"] + trust)
        XCTAssertTrue(check.stdout.contains("Update available: test.update version 1"), check.stdout)
        let update = try ok(["db", "update"] + trust)
        XCTAssertTrue(update.stdout.contains("Installed test.update version 1"), update.stdout)
        var state = try status()
        XCTAssertEqual(state["source"] as? String, "installed")
        XCTAssertEqual((state["info"] as? [String: Any])?["version"] as? Int, 1)
        XCTAssertNotNil(state["lastCheck"] as? String)
        XCTAssertTrue(server.log.wait(for: "/manifest.json"), "access log: \(server.log.text)")
        XCTAssertTrue(server.log.text.contains("status=200"), server.log.text)
        XCTAssertEqual(try productNames(), ["Alpha One"])
        XCTAssertTrue(try ok(["db", "check"] + trust).stdout.contains("Up to date: test.update version 1"))
        XCTAssertEqual(try ok(["favorites", "add", "Alpha One"]).status, 0)

        // v2, found through the environment and then through config.json.
        try refused(["catalog", "publish", v1, "--to", site, "--key", key + ".key"], status: 64, containing: "not greater")
        let v2 = try build(version: 2, productName: "Alpha Two")
        try ok(["catalog", "publish", v2, "--to", site, "--key", key + ".key"])
        let fromEnvironment = try ok(
            ["db", "check"], extraEnvironment: ["AGRO_UPDATE_SERVER": server.url, "AGRO_TRUST": key + ".pub"])
        XCTAssertTrue(fromEnvironment.stdout.contains("Update available: test.update version 2"), fromEnvironment.stdout)
        let config = cli.home.appendingPathComponent("config/agro")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // A relative key path is relative to the config directory.
        try FileManager.default.copyItem(atPath: key + ".pub", toPath: config.appendingPathComponent("release.pub").path)
        let settings: [String: Any] = ["update": ["server": server.url, "trust": ["release.pub"]]]
        try JSONSerialization.data(withJSONObject: settings).write(to: config.appendingPathComponent("config.json"))
        let updated = try ok(["db", "update"])
        XCTAssertTrue(updated.stdout.contains("Installed test.update version 2 (was test.update version 1)"), updated.stdout)
        XCTAssertEqual(try productNames(), ["Alpha Two"])
        try FileManager.default.removeItem(at: config.appendingPathComponent("config.json"))

        // Favorites refer to ids: they survive the update.
        let favorites = try cli.json(["favorites", "list"])
        XCTAssertEqual((favorites["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["Alpha Two"])

        // Refusals leave v2 in use.
        try refused(["db", "check", "--server", server.url, "--trust", other + ".pub"], status: 91, containing: "not trusted")
        try refused(
            ["db", "update", "--server", "http://example.com/agro/", "--trust", key + ".pub"], status: 94,
            containing: "--insecure")
        try refused(
            ["db", "update", "--server", "http://127.0.0.1:1/", "--trust", key + ".pub"], status: 90, containing: "unreachable")
        try refused(["db", "check", "--server", server.url], status: 94, containing: "no trusted publisher key")
        XCTAssertEqual(try productNames(), ["Alpha Two"])

        // Rollback, and back again.
        let rollback = try ok(["db", "rollback"])
        XCTAssertTrue(rollback.stdout.contains("test.update version 1"), rollback.stdout)
        XCTAssertEqual(try productNames(), ["Alpha One"])
        XCTAssertEqual(
            (try cli.json(["favorites", "list"])["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String },
            ["Alpha One"])
        let verify = try ok(["db", "verify"])
        XCTAssertTrue(verify.stdout.hasPrefix("OK: test.update version 1"), verify.stdout)
        state = try status()
        XCTAssertEqual((state["info"] as? [String: Any])?["version"] as? Int, 1)
        XCTAssertEqual((state["previous"] as? [String: Any])?["version"] as? Int, 2)
        try ok(["db", "rollback"])
        XCTAssertEqual(try productNames(), ["Alpha Two"])

        // A corrupt installed catalog: start-up falls back to the bundled one with a warning.
        let current = cli.home.appendingPathComponent("data/agro/catalogs/current.sqlite").path
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: current)
        let file = try FileHandle(
            forWritingTo: URL(
                fileURLWithPath: target.hasPrefix("/")
                    ? target : cli.home.appendingPathComponent("data/agro/catalogs/" + target).path))
        try file.seekToEnd()
        try file.write(contentsOf: Data(repeating: 0x55, count: 1000))
        try file.close()
        let fallback = try cli.run(["products", "--all", "--format", "json"])
        XCTAssertEqual(fallback.status, 0, fallback.stderr)
        XCTAssertEqual(fallback.stderr.lines.count, 1, fallback.stderr)
        XCTAssertTrue(fallback.stderr.hasPrefix("agro: warning: the installed catalog"), fallback.stderr)
        XCTAssertFalse(fallback.stdout.contains("Alpha Two"), fallback.stdout)
        XCTAssertTrue(fallback.stdout.contains("KZ-DEMO-"), "the bundled catalog answers")
        XCTAssertEqual(try cli.run(["db", "status", "--format", "json"]).status, 0)
        try refused(["db", "verify"], status: 96, containing: "failed verification")
    }

    /// On a terminal (util-linux `script`): `db update` draws a progress bar, and the pager
    /// switches to a catalog another process installed, between two pages.
    func testProgressBarAndPagerPickUpAnUpdate() throws {
        try SharedFixtures.tool("/usr/bin/script")
        let key = path("release"), site = path("site")
        try ok(["keys", "generate", "--out", key])
        try ok(["catalog", "publish", try build(version: 1, productName: "Alpha One"), "--to", site, "--key", key + ".key"])
        let server = try ServeProcess(binary: CLIRunner.binary, directory: site, environment: cli.environment)
        defer { server.stop() }
        let update = "\(CLIRunner.binary.path) db update --server \(server.url) --trust \(key).pub"
        let bar = try cli.run(["-q", "-c", update, "/dev/null"], executable: "/usr/bin/script")
        XCTAssertTrue(bar.stdout.contains("] 100% "), bar.stdout)
        XCTAssertTrue(bar.stdout.contains("Installed test.update version 1"), bar.stdout)
        let v2 = try build(version: 2, productName: "Alpha Two")
        try ok(["catalog", "publish", v2, "--to", site, "--key", key + ".key"])

        let pager = Process()
        pager.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        pager.arguments = ["-q", "-c", "\(CLIRunner.binary.path) products --per-page 3 --lang en", "/dev/null"]
        pager.environment = cli.environment
        let input = Pipe(), output = Pipe()
        pager.standardInput = input
        pager.standardOutput = output
        pager.standardError = FileHandle.nullDevice
        try pager.run()
        defer { if pager.isRunning { pager.terminate() } }
        let screen = Screen(output.fileHandleForReading)
        XCTAssertTrue(screen.wait(for: "Alpha One"), screen.text)
        // Piped: plain lines, no bar.
        let plain = try ok(["db", "update", "--server", server.url, "--trust", key + ".pub"])
        XCTAssertTrue(plain.stdout.contains("Downloading"), plain.stdout)
        XCTAssertFalse(plain.stdout.contains("%"), plain.stdout)
        Thread.sleep(forTimeInterval: 2.5)
        input.fileHandleForWriting.write(Data("n\n".utf8))
        XCTAssertTrue(screen.wait(for: "Alpha Two"), screen.text)
        input.fileHandleForWriting.write(Data("q\n".utf8))
        pager.waitUntilExit()
    }

    func testRollbackWithNothingInstalled() throws {
        try refused(["db", "rollback"], status: 95, containing: "no previous catalog")
        try refused(["db", "check"], status: 94, containing: "no update server")
        XCTAssertTrue(try ok(["db", "verify"]).stdout.contains("(bundled)"))
    }

    /// A national register published and updated through the server: the Swiss register, 2024
    /// then 2026.
    func testSwissRegisterUpdates() throws {
        let file2024 = try SharedFixtures.file("data/srppp/Daten_Pflanzenschutzmittelverzeichnis_2024-12-16.zip")
        let file2026 = try SharedFixtures.file("data/srppp/PublicationData_2026_02_03.xml.xz")
        let c2024 = path("srppp-2024.sqlite"), c2026 = path("srppp-2026.sqlite")
        try ok(["catalog", "import", "srppp", file2024.path, "--out", c2024])
        try ok(["catalog", "import", "srppp", file2026.path, "--out", c2026])
        let key = path("blv")
        try ok(["keys", "generate", "--out", key])
        let site = path("srppp-site")
        try ok(["catalog", "publish", c2024, "--to", site, "--key", key + ".key"])
        let server = try ServeProcess(binary: CLIRunner.binary, directory: site, environment: cli.environment)
        defer { server.stop() }
        let trust = ["--server", server.url, "--trust", key + ".pub"]
        try ok(["db", "update"] + trust)
        let version2024 = try XCTUnwrap((try status()["info"] as? [String: Any])?["version"] as? Int)
        try ok(["catalog", "publish", c2026, "--to", site, "--key", key + ".key"])
        let update = try ok(["db", "update"] + trust)
        XCTAssertTrue(update.stdout.contains("Installed ch.blv.srppp"), update.stdout)

        let info = try XCTUnwrap(try status()["info"] as? [String: Any])
        XCTAssertEqual(info["identity"] as? String, "ch.blv.srppp")
        let version2026 = try XCTUnwrap(info["version"] as? Int)
        XCTAssertEqual(version2026, 20260203)
        XCTAssertGreaterThan(version2026, version2024)

        // (pest, culture) pairs from the 2026 register's own uses, a spread of products.
        let products = try XCTUnwrap(
            try cli.json(["--catalog", c2026, "products", "--all", "--lang", "de"])["items"] as? [[String: Any]])
        let ids = products.compactMap { $0["id"] as? String }
        XCTAssertGreaterThan(ids.count, 100)
        var pairs: [(pest: String, culture: String)] = []
        for index in stride(from: 7, to: ids.count, by: ids.count / 6) where pairs.count < 4 {
            let document = try cli.json(["--catalog", c2026, "product", ids[index], "--lang", "de"])
            for use in (document["uses"] as? [[String: Any]]) ?? [] {
                let cultures = (use["cultures"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
                let pests =
                    (use["pests"] as? [[String: Any]])?.compactMap { ($0["pest"] as? [String: Any])?["id"] as? String } ?? []
                if let culture = cultures.first, let pest = pests.first {
                    pairs.append((pest, culture))
                    break
                }
            }
        }
        XCTAssertGreaterThanOrEqual(pairs.count, 3)
        func registrations(_ page: [String: Any]) -> Set<String> {
            Set(((page["items"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        }
        for pair in pairs {
            let query = ["products", "--pest", pair.pest, "--culture", pair.culture, "--lang", "de", "--all"]
            let direct = registrations(try cli.json(["--catalog", c2026] + query))
            let served = registrations(try cli.json(query))
            XCTAssertFalse(direct.isEmpty, "\(pair)")
            XCTAssertEqual(served, direct, "\(pair)")
        }
    }
}

/// `agro serve DIR --port 0` as a child process; its URL is read from the line it prints.
final class ServeProcess {
    let process = Process()
    let url: String
    /// Its standard error: the access log.
    let log: Screen

    init(binary: URL, directory: String, environment: [String: String]) throws {
        process.executableURL = binary
        process.arguments = ["serve", directory, "--port", "0"]
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        log = Screen(errors.fileHandleForReading)
        let screen = Screen(output.fileHandleForReading)
        let text = screen.wait(for: "/\n") ? screen.text : ""
        guard let range = text.range(of: #"http://[^ \n]+"#, options: .regularExpression) else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "agro serve did not report its address: \(screen.text)"])
        }
        url = String(text[range])
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// What a child process has printed so far, read on a background queue.
final class Screen: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                lock.withLock { buffer += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }

    var text: String { lock.withLock { buffer } }

    /// Waits up to `seconds` for `needle` to appear.
    func wait(for needle: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if text.contains(needle) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
