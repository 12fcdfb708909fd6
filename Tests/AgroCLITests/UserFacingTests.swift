import AgroTestSupport
import Foundation
import XCTest

/// Favorites, catalog building, terminal safety and the pager, end to end.
final class UserFacingTests: XCTestCase {
    let cli = CLIRunner()

    /// Writes catalog sources with one product whose name is `productName`.
    func writeSources(version: Int, productName: String = "Tebuconazole 250 EC") throws -> URL {
        let directory = cli.home.appendingPathComponent("sources-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("news"), withIntermediateDirectories: true)
        let files: [String: Any] = [
            "catalog.json": [
                "identity": "test.cli", "version": version, "released": "2026-01-01T00:00:00Z",
                "locales": ["en"], "title": ["en": "CLI test"],
            ] as [String: Any],
            "companies.json": [], "hazard-statements.json": [], "substances.json": [], "schemes.json": [],
            "regions.json": [], "representatives.json": [], "distributors.json": [], "news.json": [],
            "cultures.json": [["id": "wheat", "name": ["en": "Wheat"]]],
            "pests.json": [["id": "rust", "kind": "disease", "name": ["en": "Rust \u{1B}]0;owned\u{07}"]]],
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

    func build(_ sources: URL, to name: String) throws -> String {
        let out = cli.home.appendingPathComponent(name).path
        let result = try cli.run(["catalog", "build", sources.path, "--out", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        return out
    }

    func testFavoritesSurviveACatalogReplacement() throws {
        let v1 = try build(writeSources(version: 1), to: "v1.sqlite")
        XCTAssertEqual(try cli.run(["--catalog", v1, "favorites", "add", "Tebuconazole 250 EC"]).status, 0)
        XCTAssertEqual(try cli.run(["--catalog", v1, "favorites", "add", "wheat"]).status, 0)
        let v2 = try build(writeSources(version: 2, productName: "Tebuconazole 250 EC (new label)"), to: "v2.sqlite")
        let listed = try cli.json(["--catalog", v2, "favorites", "list"])
        let items = try XCTUnwrap(listed["items"] as? [[String: Any]])
        XCTAssertEqual(Set(items.compactMap { $0["id"] as? String }), ["p1", "wheat"])
        XCTAssertTrue(items.contains { $0["name"] as? String == "Tebuconazole 250 EC (new label)" })
        XCTAssertEqual(try cli.run(["--catalog", v2, "favorites", "remove", "p1"]).status, 0)
        XCTAssertEqual(try cli.json(["--catalog", v2, "favorites", "list"])["total"] as? Int, 1)
    }

    func testBuildIsDeterministicAndReportsBadContent() throws {
        let sources = try writeSources(version: 1)
        let a = try build(sources, to: "a.sqlite"), b = try build(sources, to: "b.sqlite")
        XCTAssertEqual(FileManager.default.contents(atPath: a), FileManager.default.contents(atPath: b))
        // Break two entries: both are named.
        var uses =
            try JSONSerialization.jsonObject(with: Data(contentsOf: sources.appendingPathComponent("uses.json")))
            as! [[String: Any]]
        uses[0]["dose"] = [3, 1]
        uses[0]["product"] = "p9"
        try JSONSerialization.data(withJSONObject: uses).write(to: sources.appendingPathComponent("uses.json"))
        let result = try cli.run(["catalog", "build", sources.path, "--out", cli.home.appendingPathComponent("c.sqlite").path])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("uses.json: entry u1: unknown product \"p9\""), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("uses.json: entry u1: field \"dose\": from (3) is greater than to (1)"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("c.sqlite").path))
        // Where nothing can be written, and from where nothing can be read: one line each.
        let unwritable = try cli.run([
            "catalog", "build", try writeSources(version: 1).path, "--out", "/nonexistent/dir/c.sqlite",
        ])
        XCTAssertEqual(unwritable.status, 73)
        XCTAssertEqual(
            unwritable.stderr.lines, ["agro: cannot write a catalog at /nonexistent/dir/c.sqlite (unable to open database file)"])
        let nowhere = try cli.run([
            "catalog", "build", "/nonexistent/sources", "--out", cli.home.appendingPathComponent("d.sqlite").path,
        ])
        XCTAssertEqual(nowhere.status, 65)
        XCTAssertEqual(nowhere.stderr.lines.count, 1)
    }

    func testHugePageNumbersDoNotCrash() throws {
        let result = try cli.run(["products", "--page", "99999999999999", "--per-page", "99999999999999", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.isEmpty)
    }

    func testControlCharactersInContentNeverReachTheTerminal() throws {
        let catalog = try build(
            writeSources(version: 1, productName: "Evil \u{1B}[2J\u{1B}[31mRED\u{9B}31m\u{07} product"), to: "evil.sqlite")
        for arguments in [
            ["products"], ["product", "p1"], ["pests"], ["pest", "rust"], ["search", "evil"],
            ["products", "--format", "csv"],
        ] {
            let result = try cli.run(["--catalog", catalog] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments) \(result.stderr)")
            for scalar in result.stdout.unicodeScalars {
                XCTAssertFalse(
                    scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || (0x7F...0x9F).contains(scalar.value),
                    "\(arguments) prints control character \(scalar.value)")
            }
        }
        // JSON escapes them instead.
        let json = try cli.run(["--catalog", catalog, "products", "--format", "json"])
        XCTAssertTrue(json.stdout.contains("\\u001b"), json.stdout)
    }

    func testProductItemsAlwaysCarryRegistrationNumber() throws {
        // The test product has no registration: the key is there, as null.
        let catalog = try build(writeSources(version: 1), to: "unregistered.sqlite")
        let result = try cli.run(["--catalog", catalog, "products", "--format", "json"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let item = try XCTUnwrap((document["items"] as? [[String: Any]])?.first)
        XCTAssertTrue(item["registrationNumber"] is NSNull, "\(item)")
    }

    func testCatalogInfo() throws {
        let catalog = try build(writeSources(version: 7), to: "info.sqlite")
        let info = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(try cli.run(["--catalog", catalog, "catalog", "info", "--format", "json"]).stdout.utf8))
                as? [String: Any])
        let details = try XCTUnwrap(info["info"] as? [String: Any])
        XCTAssertEqual(details["identity"] as? String, "test.cli")
        XCTAssertEqual(details["version"] as? Int, 7)
    }

    /// The interactive pager, driven through a pseudo-terminal by util-linux `script`.
    func testPagerOnATerminal() throws {
        try SharedFixtures.tool("/usr/bin/script")
        let command = "\(CLIRunner.binary.path) products --per-page 3 --lang en"
        let result = try cli.run(["-q", "-c", command, "/dev/null"], input: "n\ng 4\n11\nb\nq\n", executable: "/usr/bin/script")
        let text = result.stdout
        XCTAssertTrue(text.contains("Page 1 of"), text)
        XCTAssertTrue(text.contains("Page 2 of"), text)
        XCTAssertTrue(text.contains("Page 4 of"), text)
        XCTAssertTrue(text.contains("[q] quit"), text)
        // Item 11 (on page 4) was opened: a product card has a registration line.
        XCTAssertTrue(text.contains("Registered uses"), text)
        // Emphasis on a terminal is a real escape sequence, never its printable remains.
        XCTAssertTrue(text.contains("\u{1B}[1m"), text)
        XCTAssertFalse(text.replacingOccurrences(of: "\u{1B}[1m", with: "").contains("[1m"), text)
        let plain = try cli.run(
            ["-q", "-c", command, "/dev/null"], input: "q\n", extraEnvironment: ["NO_COLOR": "1"],
            executable: "/usr/bin/script")
        XCTAssertFalse(plain.stdout.contains("\u{1B}[1m"), "NO_COLOR turns emphasis off")
        // Piped, there is no prompt.
        let piped = try cli.run(["products", "--per-page", "3", "--lang", "en"], input: "q\n")
        XCTAssertFalse(piped.stdout.contains("[q] quit"))
    }
}
