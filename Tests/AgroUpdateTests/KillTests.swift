import AgroStore
import AgroTestSupport
import AgroUpdateClient
import Foundation
import XCTest

@testable import AgroUpdate

/// kill -9 of an updating process at chosen steps and at arbitrary instants: a valid
/// catalog is always current, and the next update completes (resuming the download).
final class KillTests: XCTestCase {
    private var fixture: Fixture!
    private var server: FaultyHTTPServer!

    /// v2 installed from a slow server that also publishes v3 (about 1 MB).
    private func prepare() async throws {
        fixture = try Fixture()
        try fixture.publish(version: 2)
        let directory = fixture.publishDirectory
        // Slow enough that a download takes about a second.
        server = try FaultyHTTPServer {
            FaultyHTTPServer.file($0, in: directory, pacing: FaultyHTTPServer.Pacing(chunkSize: 8192, delay: 0.004))
        }
        _ = try await fixture.client(server.url).update()
        try Publisher.publish(catalog: try Self.bigCatalog(), to: fixture.publishDirectory, key: fixture.keys)
    }

    private func cleanUp() {
        server?.stop()
        server = nil
        fixture = nil
    }

    override func tearDown() { cleanUp() }

    private static let bigCatalogPath = NSTemporaryDirectory() + "agro-kill-tests-big-3-\(getpid()).sqlite"

    /// Built once per run: building it is most of the cost of a round.
    private static func bigCatalog() throws -> String {
        if !FileManager.default.fileExists(atPath: bigCatalogPath) {
            try TestCatalogs.make(at: bigCatalogPath, version: 3, products: 1500, padding: 600)
        }
        return bigCatalogPath
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: bigCatalogPath)
    }

    private var helperPath: String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("AgroUpdateTestHelper").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return ".build/debug/AgroUpdateTestHelper"
    }

    /// Starts the helper; returns it with a reader of its output lines.
    private func spawn(pause: String, bytes: Int64 = 0) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helperPath)
        process.arguments = [
            fixture.dataDirectory, fixture.bundled, server.url.absoluteString, fixture.trustFile, pause, String(bytes),
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe)
    }

    private func waitForLine(_ pipe: Pipe, prefix: String, timeout: TimeInterval = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        let handle = pipe.fileHandleForReading
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { return nil }
            text += String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
        }
        return nil
    }

    private func kill9(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    }

    /// A valid catalog is current: 2, or 3 when the kill came after the link.
    private func assertValid(allowing versions: Set<Int>, file: StaticString = #filePath, line: UInt = #line) throws {
        let selection = try fixture.store.select()
        XCTAssertNil(selection.warning, file: file, line: line)
        XCTAssertEqual(selection.source, .installed, file: file, line: line)
        XCTAssertTrue(versions.contains(selection.info.version), "version \(selection.info.version)", file: file, line: line)
        try fixture.assertCurrent(version: selection.info.version, source: .installed, file: file, line: line)
    }

    func testKillAtEachStepLeavesAValidCatalogAndTheNextUpdateCompletes() async throws {
        let steps: [(String, Set<Int>)] = [
            ("downloading", [2]), ("verifying", [2]), ("fileInPlace", [2]), ("previousLinked", [2]), ("currentLinked", [3]),
        ]
        for (step, versions) in steps {
            try await prepare()
            let (process, pipe) = try spawn(pause: step, bytes: 100_000)
            let line = waitForLine(pipe, prefix: "paused")
            XCTAssertNotNil(line, "helper reached \(step)")
            kill9(process)
            try assertValid(allowing: versions)
            if step == "downloading" {
                let downloads = fixture.store.catalogsDirectory + "/downloads"
                let partial = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: downloads).first)
                XCTAssertGreaterThanOrEqual(
                    FileSystem.size(downloads + "/" + partial) ?? 0, 100_000, "the interrupted download is kept")
            }
            let outcome = try await fixture.client(server.url).update()
            if versions == [3] {
                guard case .upToDate = outcome else { return XCTFail("\(step): expected up to date, got \(outcome)") }
            }
            try fixture.assertCurrent(version: 3, source: .installed)
            if step == "downloading" {
                let resumed = server.requests.filter { $0.path.hasSuffix(".gz") }.last?.headers["range"]
                XCTAssertNotNil(resumed, "the download resumed with a Range request")
            }
            cleanUp()
        }
    }

    func testKillAtArbitraryInstantsLeavesAValidCatalog() async throws {
        // Delays spread over the whole update (about a second), including its install.
        for delay in [0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5] {
            try await prepare()
            let (process, _) = try spawn(pause: "none")
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try assertValid(allowing: [2, 3])
            _ = try await fixture.client(server.url).update()
            try fixture.assertCurrent(version: 3, source: .installed)
            cleanUp()
        }
    }
}
