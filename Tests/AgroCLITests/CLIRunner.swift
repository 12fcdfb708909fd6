import Foundation
import XCTest

/// Runs the built `agro` binary as a user would, with its own XDG folders, and captures
/// what it prints.
struct CLIRunner {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `agro` executable built beside this test bundle.
    static let binary: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("agro")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return root.appendingPathComponent(".build/debug/agro")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A fresh home for user data, config and cache.
    let home: URL
    var environment: [String: String]

    init() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-cli-\(UUID())")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "PATH": "/usr/bin:/bin",
            "LANG": "C",
        ]
    }

    /// Writes `json` as this runner's `config.json` (in its `XDG_CONFIG_HOME`).
    func writeConfig(_ json: String) throws {
        let directory = home.appendingPathComponent("config").appendingPathComponent("agro")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: directory.appendingPathComponent("config.json"))
    }

    /// Runs `agro arguments...`; standard input is empty unless given.
    @discardableResult
    func run(
        _ arguments: [String], input: String = "", extraEnvironment: [String: String] = [:], executable: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable.map(URL.init(fileURLWithPath:)) ?? Self.binary
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let out = home.appendingPathComponent("stdout-\(UUID())"), err = home.appendingPathComponent("stderr-\(UUID())")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let inputFile = home.appendingPathComponent("stdin-\(UUID())")
        try Data(input.utf8).write(to: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Runs and decodes standard output as a JSON object.
    func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try run(arguments + ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout, file: file, line: line)
    }
}

extension String {
    /// Non-empty lines.
    var lines: [String] { split(separator: "\n").map(String.init) }
}
