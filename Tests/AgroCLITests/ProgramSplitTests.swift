import Foundation
import XCTest

/// `agro` answers the catalog queries and hands everything else to `agro-full` beside it; to
/// a user it is one program.
final class ProgramSplitTests: XCTestCase {
    func testTopLevelHelpListsEveryCommand() throws {
        let result = try CLIRunner().run(["--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let listed = Set(
            result.stdout.lines.filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        let commands = [
            "products", "product", "substances", "substance", "cultures", "culture", "pests", "pest", "scheme", "search",
            "regions", "contacts", "favorites", "weather", "news", "render-html", "catalog", "db", "keys", "serve", "web",
        ]
        for command in commands { XCTAssertTrue(listed.contains(command), "\(command) missing from:\n\(result.stdout)") }
    }

    func testHelpOfEachKindOfCommand() throws {
        let runner = CLIRunner()
        // A catalog query, the same through the help command, a handed-over command, a subcommand.
        for (arguments, option) in [
            (["products", "--help"], "--pest"), (["help", "scheme"], "--stage"), (["weather", "--help"], "--at"),
            (["db", "update", "--help"], "--server"), (["favorites", "add", "--help"], "USAGE: agro favorites add"),
        ] {
            let result = try runner.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains(option), "\(arguments): \(result.stdout)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
        XCTAssertEqual(try runner.run(["--version"]).stdout.lines.count, 1)
    }

    func testUsageErrorsOnBothSidesOfTheSplit() throws {
        let runner = CLIRunner()
        for arguments in [["products", "--bogus"], ["weather", "--bogus"], ["bogus"], ["products", "--page", "0"]] {
            let result = try runner.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    /// A lone `agro` still answers catalog queries; another command fails with one line.
    func testALoneQueryProgramAnswersQueriesAndSaysWhatIsMissing() throws {
        let runner = CLIRunner()
        let folder = runner.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lone = folder.appendingPathComponent("agro")
        try FileManager.default.copyItem(at: CLIRunner.binary, to: lone)
        let home = ["AGRO_HOME": CLIRunner.root.path]

        let query = try runner.run(
            ["products", "--culture", "winter-wheat", "--format", "json"], extraEnvironment: home, executable: lone.path)
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertTrue(query.stdout.contains("\"items\""), query.stdout)

        let other = try runner.run(["news"], extraEnvironment: home, executable: lone.path)
        XCTAssertEqual(other.status, 74)
        XCTAssertEqual(other.stderr.lines.count, 1, other.stderr)
        XCTAssertTrue(other.stderr.hasPrefix("agro: cannot start \(folder.path)/agro-full"), other.stderr)
    }

    /// `scripts/agro` builds agro-full only when agro says it would hand the command line over.
    func testAgroSaysWhichCommandLinesItAnswersItself() throws {
        let runner = CLIRunner()
        let itself: [[String]] = [
            ["products", "--pest", "x"], ["--lang", "ru", "search", "ржавч"], ["plan", "check", "plan.json"],
            ["favorites", "list"],
        ]
        let handedOver: [[String]] = [
            ["weather"], ["news", "refresh"], ["help"], ["--help"], ["products", "--bogus"], ["db", "status"],
        ]
        for arguments in itself {
            let result = try runner.run(["--answers-itself"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout + result.stderr, "", "\(arguments)")
        }
        for arguments in handedOver {
            let result = try runner.run(["--answers-itself"] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout + result.stderr, "", "\(arguments)")
        }
    }

    /// `scripts/agro` builds a catalog query from `Query/`, the same manifest seen from there:
    /// `agro` alone, the targets it needs with the dependencies they have in the whole package,
    /// and of the packages only GRDB and swift-argument-parser, so that a fresh clone's first
    /// answer waits for none of the web stack's.
    func testTheQueryPackageDeclaresAgroAndOnlyWhatItNeeds() throws {
        let whole = try Self.manifest(of: CLIRunner.root)
        let query = try Self.manifest(of: CLIRunner.root.appendingPathComponent("Query"))
        XCTAssertEqual(query.products, ["agro"])
        XCTAssertEqual(
            query.packages, ["https://github.com/groue/GRDB.swift", "https://github.com/apple/swift-argument-parser"])
        XCTAssertGreaterThan(whole.packages.count, 2)
        // agro's dependency graph in Package.swift, written out.
        XCTAssertEqual(
            Set(query.targets.keys),
            [
                "agro", "AgroCLI", "AgroPresentation", "AgroStore", "AgroDomain", "AgroCaching", "AgroTerminal",
                "AgroWeather", "CSQLiteConfig",
            ])
        for (name, dependencies) in query.targets {
            XCTAssertEqual(dependencies, whole.targets[name], name)
        }
    }

    /// Products, packages (their URLs) and targets (name: dependencies as JSON) of the package
    /// at `folder`, as `swift package dump-package` reads its manifest.
    private static func manifest(of folder: URL) throws -> (
        products: [String], packages: Set<String>, targets: [String: [String]]
    ) {
        let swift =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/swift"
        // A scratch folder of its own: the test command holds the lock of `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agro-manifest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try CLIRunner().run(
            ["package", "--package-path", folder.path, "--scratch-path", scratch.path, "dump-package"],
            extraEnvironment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], executable: swift)
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let products = (manifest["products"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let packages = (manifest["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
            let control = (dependency["sourceControl"] as? [[String: Any]])?.first
            let remote = ((control?["location"] as? [String: Any])?["remote"] as? [[String: Any]])?.first
            return remote?["urlString"] as? String
        }
        var targets: [String: [String]] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            targets[name] = try (target["dependencies"] as? [Any] ?? []).map { dependency in
                String(decoding: try JSONSerialization.data(withJSONObject: dependency, options: .sortedKeys), as: UTF8.self)
            }
        }
        return (products, Set(packages), targets)
    }

    /// Both programs report their build, and agro-full refuses a command line handed over by
    /// an agro of another build (scripts/install checks the first, the hand-over the second).
    func testBothProgramsComeFromOneBuild() throws {
        let runner = CLIRunner()
        let full = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("agro-full").path
        let agroID = try runner.run(["--build-id"])
        let fullID = try runner.run(["--build-id"], executable: full)
        XCTAssertEqual(agroID.status, 0, agroID.stderr)
        XCTAssertEqual(agroID.stdout.lines.count, 1, agroID.stdout)
        XCTAssertEqual(agroID.stdout, fullID.stdout)
        // A handed-over command of this build runs: help exits 0.
        XCTAssertEqual(try runner.run(["news", "--help"]).status, 0)

        let foreign = try runner.run(["news"], extraEnvironment: ["AGRO_BUILD_ID": "some-other-build"], executable: full)
        XCTAssertEqual(foreign.status, 74)
        XCTAssertEqual(foreign.stderr.lines.count, 1, foreign.stderr)
        XCTAssertTrue(foreign.stderr.hasPrefix("agro: agro (build some-other-build) and agro-full (build "), foreign.stderr)
        XCTAssertEqual(foreign.stdout, "")
    }

    /// The query program keeps libcurl, libxml2, zlib and swift-crypto out of its process
    /// (they take longer to load than a query takes to answer): none among its shared libraries,
    /// and no code of the modules that bring them. SwiftPM links every object file of every module a product depends on, so a
    /// presentation layer importing one of them would put it back without a compile error.
    func testTheQueryProgramLinksNoNetworkingXMLCompressionOrCrypto() throws {
        let binary = CLIRunner.binary
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        XCTAssertTrue(libraries.contains("libsqlite3"), libraries)
        for library in ["libcurl", "libxml2", "libz.so", "libssl", "libcrypto"] {
            XCTAssertFalse(libraries.contains(library), "agro links \(library):\n\(libraries)")
        }
        // Symbols name their module ("16AgroPresentation", Swift's mangling) and C functions
        // by name: a stripped build has neither, and says nothing here.
        let image = try Data(contentsOf: binary)
        guard image.range(of: Data("16AgroPresentation".utf8)) != nil else {
            throw XCTSkip("\(binary.path) is stripped: its modules cannot be told apart")
        }
        for symbol in [
            "CCryptoBoringSSL", "10AgroUpdate", "16AgroUpdateClient", "8AgroNews", "10AgroImport", "8AgroHTTP",
            "17AgroWeatherClient", "8AgroHTML", "curl_easy_init", "htmlReadMemory", "inflateInit",
        ] {
            XCTAssertNil(image.range(of: Data(symbol.utf8)), "agro contains \(symbol)")
        }
    }
}
