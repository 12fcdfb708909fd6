import AgroTestSupport
import Foundation
import XCTest

/// Delta updates through the built binary: `catalog publish` writes a delta, `db check` says what
/// it costs, `db update` applies it, a missing delta falls back with one line, `catalog info`
/// shows the content hash the manifest promised.
extension UpdateCommandTests {
    func testDeltaUpdateAndItsFallbackThroughTheCommands() throws {
        let key = path("release")
        try ok(["keys", "generate", "--out", key])
        let site = path("site")
        try ok(["catalog", "publish", try build(version: 1, productName: "Alpha One"), "--to", site, "--key", key + ".key"])
        let server = try ServeProcess(binary: CLIRunner.binary, directory: site, environment: cli.environment)
        defer { server.stop() }
        let trust = ["--server", server.url, "--trust", key + ".pub"]
        try ok(["db", "update"] + trust)

        let published = try ok([
            "catalog", "publish", try build(version: 2, productName: "Alpha Two"), "--to", site, "--key", key + ".key",
        ])
        XCTAssertTrue(published.stdout.contains("delta from version 1: \(site)/deltas/"), published.stdout)
        let manifest = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: site + "/manifest.json"))) as? [String: Any])
        let delta = try XCTUnwrap((manifest["deltas"] as? [[String: Any]])?.first)
        let deltaSize = try XCTUnwrap(((delta["file"] as? [String: Any])?["compressed"] as? [String: Any])?["size"] as? Int)
        let fullSize = try XCTUnwrap(((manifest["file"] as? [String: Any])?["compressed"] as? [String: Any])?["size"] as? Int)
        XCTAssertLessThan(deltaSize, fullSize)

        let check = try cli.json(["db", "check"] + trust)
        XCTAssertEqual(check["deltas"] as? Int, 1)
        XCTAssertEqual(check["downloadSize"] as? Int, deltaSize)
        XCTAssertEqual(check["fullDownloadSize"] as? Int, fullSize)
        XCTAssertTrue(try ok(["db", "check"] + trust).stdout.contains("in 1 delta(s) instead of the full"))

        let update = try ok(["db", "update"] + trust)
        XCTAssertTrue(update.stdout.contains("Applying 1 delta(s)"), update.stdout)
        XCTAssertEqual(update.stderr, "")
        XCTAssertEqual(try productNames(), ["Alpha Two"])
        let info = try cli.json(["catalog", "info"])
        XCTAssertEqual(info["contentHash"] as? String, manifest["contentHash"] as? String)
        XCTAssertTrue(try ok(["catalog", "info"]).stdout.contains(try XCTUnwrap(manifest["contentHash"] as? String)))

        // v3 with its delta gone from the server: the full file, and one line saying why.
        try ok(["catalog", "publish", try build(version: 3, productName: "Alpha Three"), "--to", site, "--key", key + ".key"])
        for name in try FileManager.default.contentsOfDirectory(atPath: site + "/deltas") {
            try FileManager.default.removeItem(atPath: site + "/deltas/" + name)
        }
        let fallback = try ok(["db", "update"] + trust)
        XCTAssertEqual(fallback.stderr.lines.count, 1, fallback.stderr)
        XCTAssertTrue(fallback.stderr.hasPrefix("agro: the delta update failed ("), fallback.stderr)
        XCTAssertTrue(fallback.stderr.contains("HTTP 404"), fallback.stderr)
        XCTAssertTrue(fallback.stderr.contains("downloading the full catalog"), fallback.stderr)
        XCTAssertEqual(try productNames(), ["Alpha Three"])
    }
}
