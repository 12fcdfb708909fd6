import AgroDomain
import AgroServer
import AgroStore
import AgroTestSupport
import AgroUpdate
import AgroUpdateClient
import Foundation
import Logging
import XCTest

/// A scratch directory with a key pair, a bundled catalog (test.agro v1), a data directory
/// and a publishing directory; removed at the end of the test.
final class Fixture {
    let root: String
    let keys: KeyPair
    let trustFile: String
    let bundled: String
    let dataDirectory: String
    let publishDirectory: String
    var store: CatalogStore { CatalogStore(dataDirectory: dataDirectory, bundledPath: bundled) }

    init() throws {
        root = NSTemporaryDirectory() + "agro-update-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        keys = KeyPair.generate()
        trustFile = try keys.write(prefix: root + "/publisher").publicKey
        bundled = root + "/bundled.sqlite"
        try TestCatalogs.make(at: bundled, version: 1)
        dataDirectory = root + "/data"
        publishDirectory = root + "/publish"
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Builds test.agro (or `identity`) at `version` and publishes it, with deltas from the last
    /// `deltas` published versions (none by default: most tests are about the full download).
    @discardableResult
    func publish(
        version: Int, identity: String = "test.agro", expiry: TimeInterval = 3600, now: Date = Date(),
        to directory: String? = nil, key: KeyPair? = nil, deltas: Int = 0
    ) throws -> Manifest {
        let path = builtPath(version: version, identity: identity)
        try TestCatalogs.make(at: path, identity: identity, version: version)
        return try Publisher.publish(
            catalog: path, to: directory ?? publishDirectory, key: key ?? keys, expiry: expiry, now: now, deltas: deltas)
    }

    /// Where `publish` builds a version before publishing it.
    func builtPath(version: Int, identity: String = "test.agro") -> String {
        root + "/build-\(identity)-\(version).sqlite"
    }

    func client(_ server: URL, timeout: TimeInterval = 5, now: @escaping @Sendable () -> Date = { Date() }) throws -> UpdateClient
    {
        let configuration = try UpdateConfiguration(
            server: server, trustedKeys: [try PublicSigningKey.read(file: trustFile)], timeout: timeout)
        return UpdateClient(configuration: configuration, store: store, now: now)
    }

    /// The catalog selected at start-up is `version` from `source`, it answers a query with
    /// that version's data, and it passes the full verification.
    func assertCurrent(version: Int, source: CatalogSource, file: StaticString = #filePath, line: UInt = #line) throws {
        let selection = try store.select()
        XCTAssertEqual(selection.info.version, version, "current version", file: file, line: line)
        XCTAssertEqual(selection.source, source, "current source", file: file, line: line)
        let catalog = try SQLiteCatalog(path: selection.path)
        defer { try? catalog.close() }
        let page = try catalog.products(ProductFilter(), page: PageRequest(perPage: 5), locale: "en")
        XCTAssertEqual(
            page.items.first?.name.hasSuffix("v\(version)"), true, "query answered by v\(version)", file: file, line: line)
        XCTAssertEqual(try store.verify().info.version, version, file: file, line: line)
    }

    /// Modifies a published file in place.
    func mutatePublished(_ relativePath: String, _ body: (inout Data) -> Void) throws {
        let path = publishDirectory + "/" + relativePath
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        body(&data)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Re-signs the published manifest after `change`, with `key` (nil: unsigned).
    func rewriteManifest(signWith key: KeyPair?, _ change: (inout Manifest) -> Void) throws {
        let path = publishDirectory + "/manifest.json"
        var manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        change(&manifest)
        manifest.signature = nil
        if let key { manifest = try key.sign(manifest) }
        try manifest.fileBytes.write(to: URL(fileURLWithPath: path))
    }
}

extension Fixture {
    /// The baseline of the failure tests: test.agro v2 installed from the server, then v3
    /// published (and returned).
    static func withV2InstalledAndV3Published() async throws -> (Fixture, Manifest) {
        let fixture = try Fixture()
        try fixture.publish(version: 2)
        let server = try fixture.server { _, _ in nil }
        defer { server.stop() }
        _ = try await fixture.client(server.url).update()
        try fixture.assertCurrent(version: 2, source: .installed)
        return (fixture, try fixture.publish(version: 3))
    }

    /// A server on the publishing directory whose answers `change` may replace (nil: the file).
    func server(_ change: @escaping @Sendable (FaultyHTTPServer.Request, String) -> FaultyHTTPServer.Reply?) throws
        -> FaultyHTTPServer
    {
        let directory = publishDirectory
        return try FaultyHTTPServer { request in change(request, directory) ?? FaultyHTTPServer.file(request, in: directory) }
    }
}

/// The Hummingbird catalog server on 127.0.0.1, on a free port.
final class RunningServer: @unchecked Sendable {
    let port: Int
    let log: LogCollector
    private let task: Task<Void, any Error>

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static func start(directory: String) async throws -> RunningServer {
        let log = LogCollector()
        let logger = Logger(label: "test-server") { _ in CollectingLogHandler(collector: log) }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = CatalogServer.makeApplication(
            directory: directory, host: "127.0.0.1", port: 0, logger: logger, onRunning: { continuation.yield($0) })
        let task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw POSIXError(.EADDRNOTAVAIL) }
        return RunningServer(port: port, log: log, task: task)
    }

    private init(port: Int, log: LogCollector, task: Task<Void, any Error>) {
        self.port = port
        self.log = log
        self.task = task
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

/// Log lines kept in memory, to check the access log.
final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(message: String, metadata: [String: String])] = []

    func append(_ message: String, _ metadata: [String: String]) { lock.withLock { entries.append((message, metadata)) } }
    var access: [[String: String]] { lock.withLock { entries.filter { $0.message == "access" }.map(\.metadata) } }
}

struct CollectingLogHandler: LogHandler {
    let collector: LogCollector
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var flat: [String: String] = [:]
        for (key, value) in event.metadata ?? [:] { flat[key] = "\(value)" }
        collector.append("\(event.message)", flat)
    }
}

/// Asserts that `body` throws exactly `expected`, and that its message is one line.
func assertThrows<T>(
    _ expected: UpdateError, file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> T
) async {
    do {
        _ = try await body()
        XCTFail("expected \(expected)", file: file, line: line)
    } catch let error as UpdateError {
        XCTAssertEqual(error, expected, file: file, line: line)
        XCTAssertFalse(error.message.isEmpty || error.message.contains("\n"), file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}

/// Runs an update and returns the error it threw.
func updateError(_ client: UpdateClient, file: StaticString = #filePath, line: UInt = #line) async -> UpdateError? {
    do {
        let outcome = try await client.update()
        XCTFail("update succeeded: \(outcome)", file: file, line: line)
        return nil
    } catch let error as UpdateError {
        XCTAssertFalse(error.message.contains("\n"), file: file, line: line)
        return error
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
        return nil
    }
}

/// The failure tests' baseline: test.agro v2 installed from the server, v3 published.
class UpdateBaselineTestCase: XCTestCase {
    var fixture: Fixture!
    /// The published v3 manifest, which the tests spoil or serve.
    var v3: Manifest!

    override func setUp() async throws {
        (fixture, v3) = try await Fixture.withV2InstalledAndV3Published()
    }

    // Test case objects outlive their test; dropping the fixture removes its directory now.
    override func tearDown() {
        fixture = nil
    }

    /// A server on the publishing directory whose answers `change` may replace.
    func server(_ change: @escaping @Sendable (FaultyHTTPServer.Request, String) -> FaultyHTTPServer.Reply?) throws
        -> FaultyHTTPServer
    {
        try fixture.server(change)
    }
}
