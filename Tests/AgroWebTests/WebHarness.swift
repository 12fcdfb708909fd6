import AgroTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `agro-full web` run as a user runs it, on 127.0.0.1 with a port the system picks, with
/// its own XDG folders; and the same binary for the CLI's answers.
final class WebProcess {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `agro-full`, built beside this test bundle.
    static let binary: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "agro-full")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
        if let near = bundle?.deletingLastPathComponent().appendingPathComponent("agro-full"),
            FileManager.default.isExecutableFile(atPath: near.path)
        {
            return near
        }
        return root.appendingPathComponent(".build/debug/agro-full")
    }()

    let home: URL
    let environment: [String: String]
    private(set) var process: Process?
    private(set) var port = 0
    private var output = Data()
    private var errors: Pipe?

    init(extraEnvironment: [String: String] = [:]) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-web-\(UUID())")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "PATH": "/usr/bin:/bin", "LANG": "C",
        ].merging(extraEnvironment) { $1 }
    }

    deinit {
        _ = stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// Starts `agro-full ARGUMENTS web --host 127.0.0.1 --port 0 WEB-ARGUMENTS` and waits for
    /// its "Listening on" line.
    func start(_ arguments: [String] = [], web: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        // A restart reads its own "Listening on" line, not the last run's.
        output = Data()
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["web", "--host", "127.0.0.1", "--port", "0"] + web
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        errors = err
        // The access log goes to stderr: drain it so the server never blocks on a full pipe.
        let log = home.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { logHandle.write(data) }
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            output.append(data)
            let text = String(decoding: output, as: UTF8.self)
            if let range = text.range(of: #"Listening on http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                let address = text[range]
                port = Int(address.split(separator: ":").last!.dropLast()) ?? 0
                return
            }
        }
        XCTFail("agro web did not start: \(String(decoding: output, as: UTF8.self)) \(stderrText)", file: file, line: line)
        throw XCTSkip("server not started")
    }

    var stderrText: String {
        (try? String(contentsOf: home.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
    }

    /// Whether stderr comes to contain `text` within `seconds`: the log is copied from the pipe
    /// on another thread, so a line the server wrote just now may not be in the file yet.
    func stderrComesToContain(_ text: String, within seconds: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !stderrText.contains(text) {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    /// Stops the server with SIGTERM and returns its exit status.
    @discardableResult
    func stop() -> Int32? {
        guard let process, process.isRunning else { return process?.terminationStatus }
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    }

    /// GET `target` over a fresh connection (HTTP/1.1, Connection: close), with exactly the
    /// headers given: no client adds an Accept-Language behind the test's back.
    func get(_ target: String, headers: [String: String] = [:]) throws -> Answer {
        try exchange("GET", target, headers: headers)
    }

    /// `method` `target` with `body` (its length given), over a fresh connection.
    func exchange(_ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data()) throws -> Answer {
        let fd = try loopbackConnection(port: port)
        defer { close(fd) }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if method != "GET" { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + Array(body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw NSError(domain: "send", code: Int(errno)) }
            sent += count
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        let data = Data(received)
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw NSError(domain: "no head", code: 0) }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if fields["transfer-encoding"]?.lowercased() == "chunked" { body = Self.dechunk(body) }
        return Answer(status: status, headers: fields, body: String(decoding: body, as: UTF8.self))
    }

    static func dechunk(_ data: Data) -> Data {
        var result = Data(), rest = data[...]
        while let end = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<end.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
            if size == 0 { break }
            let start = end.upperBound
            result += rest[start..<(start + size)]
            rest = rest[(start + size + 2)...]
        }
        return result
    }

    struct CLIResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `agro-full ARGUMENTS` in this process's XDG folders.
    func cli(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> CLIResult {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let out = home.appendingPathComponent("cli-out-\(UUID())"), err = home.appendingPathComponent("cli-err-\(UUID())")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

/// A test case with `agro web` running on the bundled catalog, one server per test.
class BundledCatalogWebTestCase: XCTestCase {
    static let catalog = WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path
    var server: WebProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = WebProcess()
        try server.start(["--catalog", Self.catalog])
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }
}
