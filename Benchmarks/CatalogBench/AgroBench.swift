import AgroContent
import AgroDomain
import AgroStore
import ArgumentParser
import Foundation

/// `agro-bench`: benchmarks of the catalog core. Not part of the test suite.
@main
struct AgroBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agro-bench",
        abstract: "Benchmarks of the catalog core: search and products by pest and culture.",
        subcommands: [Generate.self, Run.self, Decisions.self])
}

/// Writes a catalog N times larger than the content sources.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a catalog N times larger than Database/content (deterministic).")

    @Option(help: "How many copies of every product, use, pest, substance, culture, scheme and news item.")
    var factor: Int = 20
    @Option(help: "Catalog file to write (replaced).") var out: String
    @Option(help: "Content sources.") var content: String = "Database/content"
    @Option(help: ArgumentHelp(
        "Change the dose of this share of the uses (0.01: one in a hundred) and raise the version by one: the next release, for the delta benchmark.",
        valueName: "share"))
    var mutate: Double = 0

    func validate() throws {
        if factor < 1 { throw ValidationError("--factor must be 1 or more") }
        if !(0...1).contains(mutate) { throw ValidationError("--mutate must be between 0 and 1") }
    }

    func run() throws {
        let counts = try generate(content: content, factor: factor, out: out, mutate: mutate)
        print("wrote \(out): " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}

func generate(content directory: String, factor: Int, out: String, mutate: Double = 0) throws -> [String: Int] {
    let content = try ContentBuilder(sourceDirectory: URL(fileURLWithPath: directory)).load()
    return try CatalogGenerator(content: content, factor: factor, mutate: mutate).write(to: out)
}

/// Times the queries in process and as whole processes against sqlite3.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time search and products --pest --culture in process, and the agro process against sqlite3.",
        discussion: """
            Without --catalog, runs on Database/catalog.sqlite and on a 20x catalog generated into a \
            temporary file. Targets: median in-process query at most 1 ms on the bundled catalog and \
            5 ms on a generated (xN) one; the agro process at most 1.5 times sqlite3 running the same SQL.
            """)

    @Option(name: .customLong("catalog"), help: "Catalog file to measure (repeatable).")
    var catalogs: [String] = []
    @Option(help: "In-process calls per query.") var iterations: Int = 300
    @Option(help: "Runs of each process per query.") var processRuns: Int = 30
    @Option(help: "The agro program (default .build/release/agro if present, else .build/debug/agro).")
    var agro: String?
    @Option(help: ArgumentHelp(
        "A single-executable variant to time against agro, interleaved with it (agro-full: every command in one binary).",
        valueName: "path"))
    var single: String?
    @Option(help: "The sqlite3 program.") var sqlite3: String = "/usr/bin/sqlite3"
    @Option(help: "A Swift program that only starts Foundation (agro-floor), built like agro: the process-start floor.")
    var floor: String?

    @Option(help: ArgumentHelp(
        "agro-library-floor, built like agro: agro's libraries (argument parsing, GRDB, JSONEncoder) running the same SQL.",
        valueName: "path"))
    var libraryFloor: String?
    @Option(help: "The bundled catalog.") var bundled: String = "Database/catalog.sqlite"
    @Option(help: "Content sources for the generated catalog.") var content: String = "Database/content"
    @Option(help: "Size factor of the generated catalog.") var factor: Int = 20
    @Option(help: "Search text.") var word: String = "ржавч"
    @Option(help: "Pest id for products.") var pest: String = "zymoseptoria-tritici"
    @Option(help: "Culture id for products.") var culture: String = "winter-wheat"
    @Option(help: "Locale of the queries.") var locale: String = "ru"
    @Option(help: "Results per page.") var perPage: Int = 20
    @Flag(help: "Print the SQL given to sqlite3.") var showSQL = false
    @Flag(help: "Skip the whole-process measurement.") var noProcess = false

    func validate() throws {
        if iterations < 1 || processRuns < 1 { throw ValidationError("--iterations and --process-runs must be 1 or more") }
    }

    struct Row {
        var catalog: String
        var query: String
        var median: Double
        var p90: Double
        var cpu: Double
        var target: Double
        var agro: Double?
        var sqlite: Double?
        var library: Double?
        var single: Double?
        var results: Int
    }

    func run() throws {
        let fileManager = FileManager.default
        var files = catalogs
        var temporary: URL?
        if files.isEmpty {
            let directory = fileManager.temporaryDirectory.appendingPathComponent("agro-bench-\(getpid())")
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            temporary = directory
            let generated = directory.appendingPathComponent("catalog-x\(factor).sqlite").path
            let seconds = try Clock.time { _ = try generate(content: content, factor: factor, out: generated) } / 1000
            log("generated \(generated) (x\(factor)) in \(String(format: "%.1f", seconds)) s")
            files = [bundled, generated]
        }
        defer { if let temporary { try? fileManager.removeItem(at: temporary) } }

        let agroPath = agro ?? (fileManager.isExecutableFile(atPath: ".build/release/agro") ? ".build/release/agro" : ".build/debug/agro")
        let home = fileManager.temporaryDirectory.appendingPathComponent("agro-bench-home-\(getpid())")
        try fileManager.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment
        for variable in ["AGRO_LANG", "AGRO_HOME", "LC_ALL", "LC_MESSAGES", "LANG"] { environment[variable] = nil }
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path

        log("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load \(loadAverage())")
        log("agro: \(agroPath); sqlite3: \(sqlite3); \(iterations) in-process calls, \(processRuns) process runs per query")

        var rows: [Row] = []
        for file in files {
            rows += try measure(file: file, agroPath: agroPath, environment: environment)
        }
        printTable(rows)
        if let floor, !noProcess { try printFloor(floor, environment: environment, rows: rows) }
        if let single, !noProcess { printSingle(single, rows: rows) }
    }

    /// Whole-process time has a floor that no query work can go below: starting the Swift
    /// runtime and Foundation. Measured here with sqlite3 interleaved, so both see the same load.
    private func printFloor(_ floor: String, environment: [String: String], rows: [Row]) throws {
        let sqliteCommand = [sqlite3, "-readonly", bundled, "SELECT count(*) FROM products"]
        // The library floor without statements: parsing a products command line, opening the
        // catalog, encoding an empty list; the libraries' start-up before any query.
        let startCommand = libraryFloor.map { [
            $0, "--catalog", bundled, "--lang", locale, "--format", "json", "--pest", pest, "--culture", culture,
            "--per-page", String(perPage),
        ] }
        var floorTimes: [Double] = [], sqliteTimes: [Double] = [], startTimes: [Double] = []
        for _ in 0..<processRuns {
            floorTimes.append(try ProcessRunner.run([floor], environment: environment))
            sqliteTimes.append(try ProcessRunner.run(sqliteCommand, environment: environment))
            if let startCommand { startTimes.append(try ProcessRunner.run(startCommand, environment: environment)) }
        }
        let floorMedian = Sample(floorTimes).median, sqliteMedian = Sample(sqliteTimes).median
        print("")
        print(String(format: "process floor: %@ %.3f ms, sqlite3 (count of products) %.3f ms: the floor alone is %.2fx sqlite3",
                     floor, floorMedian, sqliteMedian, floorMedian / sqliteMedian))
        if !startTimes.isEmpty {
            let start = Sample(startTimes).median
            print(String(format: "library start-up (parse, open, encode nothing): %.3f ms = %.2fx sqlite3", start, start / sqliteMedian))
        }
        for row in rows {
            guard let agro = row.agro, let sqlite = row.sqlite else { continue }
            var line = String(format: "  %@ %@: agro %.2fx sqlite3, %.2fx the floor", row.catalog, row.query, agro / sqlite, agro / floorMedian)
            if let library = row.library {
                line += String(format: "; library floor %.3f ms = %.2fx sqlite3, agro %.2fx the library floor",
                               library, library / sqlite, agro / library)
            }
            print(line)
        }
    }

    /// The single-executable variant against agro, from the same interleaved runs.
    private func printSingle(_ single: String, rows: [Row]) {
        print("")
        print("single executable \(single) against agro (the split: agro hands only other commands to agro-full):")
        for row in rows {
            guard let agro = row.agro, let one = row.single else { continue }
            print(String(format: "  %@ %@: single %.3f ms, agro %.3f ms: %.2fx", row.catalog, row.query, one, agro, one / agro))
        }
    }

    private func measure(file: String, agroPath: String, environment: [String: String]) throws -> [Row] {
        let catalog = try SQLiteCatalog(path: file)
        defer { try? catalog.close() }
        let log = StatementLog()
        let traced = try SQLiteCatalog(path: file, maximumReaders: 1, traceStatements: log.append)
        defer { try? traced.close() }
        let identity = catalog.info.identity
        // Generated catalogs are named <identity>.x<N>; they get the larger target.
        let generatedFactor = identity.split(separator: ".").last.flatMap { $0.hasPrefix("x") ? Int($0.dropFirst()) : nil } ?? 1
        let target = generatedFactor > 1 ? 5.0 : 1.0
        let name = "\(URL(fileURLWithPath: file).lastPathComponent)" + (generatedFactor > 1 ? " (x\(generatedFactor))" : "")
        let page = PageRequest(page: 1, perPage: perPage)
        let filter = ProductFilter(pest: pest, culture: culture)

        let search = { try catalog.search(word, kinds: nil, page: page, locale: locale) }
        let products = { try catalog.products(filter, page: page, locale: locale) }

        // The SQL the store runs for each call, values written in, for sqlite3.
        _ = log.drain()
        let found = try traced.search(word, kinds: nil, page: page, locale: locale)
        let searchSQL = StatementLog.queries(log.drain())
        let listed = try traced.products(filter, page: page, locale: locale)
        let productsSQL = StatementLog.queries(log.drain())
        guard found.total > 0, listed.total > 0 else {
            throw ValidationError("\(file): nothing found for search \(word) (\(found.total)) or products \(pest) on \(culture) (\(listed.total))")
        }

        var result: [Row] = []
        let cases: [(query: String, call: () throws -> Void, sql: [String], total: Int, arguments: [String])] = [
            ("search \(word)", { _ = try search() }, searchSQL, found.total,
             ["search", word]),
            ("products --pest --culture", { _ = try products() }, productsSQL, listed.total,
             ["products", "--pest", pest, "--culture", culture]),
        ]
        for item in cases {
            for _ in 0..<min(20, iterations) { try item.call() }  // warm the statement cache and the page cache
            var times: [Double] = [], cpu: [Double] = []
            times.reserveCapacity(iterations)
            cpu.reserveCapacity(iterations)
            for _ in 0..<iterations {
                // The store reads through dispatch_sync, which runs the block on this thread.
                let cpuStart = Clock.threadCPUMilliseconds()
                times.append(try Clock.time(item.call))
                cpu.append(Clock.threadCPUMilliseconds() - cpuStart)
            }
            let sample = Sample(times)
            var row = Row(catalog: name, query: item.query, median: sample.median, p90: sample.p90,
                          cpu: Sample(cpu).median, target: target, results: item.total)

            if !noProcess {
                let script = item.sql.map { $0 + ";" }.joined(separator: "\n")
                if showSQL { self.log("-- \(name), \(item.query): SQL given to sqlite3\n\(script)") }
                let agroCommand = [agroPath, "--catalog", file, "--lang", locale, "--format", "json"]
                    + item.arguments + ["--per-page", String(perPage)]
                let sqliteCommand = [sqlite3, "-readonly", file, script]
                // Both must succeed and sqlite3 must return rows before anything is timed.
                let check = try ProcessRunner.output(sqliteCommand, environment: environment)
                guard !check.isEmpty else { throw ValidationError("sqlite3 returned nothing for \(item.query) on \(file)") }
                for _ in 0..<3 {
                    _ = try ProcessRunner.run(agroCommand, environment: environment)
                    _ = try ProcessRunner.run(sqliteCommand, environment: environment)
                }
                // The library floor gets the query's options (not the command's name) and its SQL.
                let libraryCommand = libraryFloor.map { floor in
                    [floor, "--catalog", file, "--lang", locale, "--format", "json"] + item.arguments.dropFirst()
                        + ["--per-page", String(perPage)] + item.sql.flatMap { ["--sql", $0] }
                }
                if let libraryCommand { _ = try ProcessRunner.run(libraryCommand, environment: environment) }
                let singleCommand = single.map { [$0] + agroCommand.dropFirst() }
                if let singleCommand { _ = try ProcessRunner.run(singleCommand, environment: environment) }
                var agroTimes: [Double] = [], sqliteTimes: [Double] = [], libraryTimes: [Double] = [], singleTimes: [Double] = []
                // Interleaved, so load from other users hits all alike.
                for _ in 0..<processRuns {
                    agroTimes.append(try ProcessRunner.run(agroCommand, environment: environment))
                    sqliteTimes.append(try ProcessRunner.run(sqliteCommand, environment: environment))
                    if let libraryCommand { libraryTimes.append(try ProcessRunner.run(libraryCommand, environment: environment)) }
                    if let singleCommand { singleTimes.append(try ProcessRunner.run(singleCommand, environment: environment)) }
                }
                if !singleTimes.isEmpty { row.single = Sample(singleTimes).median }
                row.agro = Sample(agroTimes).median
                row.sqlite = Sample(sqliteTimes).median
                if !libraryTimes.isEmpty { row.library = Sample(libraryTimes).median }
            }
            result.append(row)
        }
        return result
    }

    private func printTable(_ rows: [Row]) {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }
        let header = ["catalog", "query", "results", "median ms", "p90 ms", "cpu ms", "target", "", "agro ms", "sqlite3 ms", "ratio", "target", ""]
        var lines: [[String]] = [header]
        for row in rows {
            let ratio = row.agro.flatMap { agro in row.sqlite.map { agro / $0 } }
            lines.append([
                row.catalog, row.query, String(row.results), ms(row.median), ms(row.p90), ms(row.cpu),
                String(format: "<= %.0f ms", row.target), row.median <= row.target ? "ok" : "MISSED",
                ms(row.agro), ms(row.sqlite), ratio.map { String(format: "%.2fx", $0) } ?? "-", "<= 1.5x",
                ratio.map { $0 <= 1.5 ? "ok" : "MISSED" } ?? "-",
            ])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        print("")
        print("in process: median and p90 wall time, and median thread CPU time, of one call on an open SQLiteCatalog")
        print("  (locale \(locale), page of \(perPage)); the target applies to the median wall time;")
        print("whole process: median wall time of the agro command and of sqlite3 running the same SQL.")
        for (index, line) in lines.enumerated() {
            print(zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
            if index == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    private func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
