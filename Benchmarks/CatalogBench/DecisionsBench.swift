import AgroDomain
import AgroStore
import ArgumentParser
import Foundation

/// `agro-bench decisions`: `agro uses` and a 30-application `agro plan check`, in
/// process and as whole processes, against sqlite3 running the same SQL in the same run.
struct Decisions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time agro uses and a 30-application plan check against sqlite3 running the same SQL.",
        discussion: """
            The catalog is normally the imported Swiss register (agro catalog import srppp ... --out FILE). \
            Without --pest and --culture, the pest and culture with the most uses are taken, the culture \
            replaced by one of its members where it has any (so culture groups must resolve). The plan is \
            30 applications of the first 30 products registered on that culture, 5 days apart, each at \
            its registered dose. Targets: uses at most 5 ms median in process, the plan check at most 20 ms.
            """)

    @Option(help: "The catalog (e.g. the imported Swiss register).") var catalog: String
    @Option(help: "Pest id (default: the one with the most uses).") var pest: String?
    @Option(help: "Culture id (default: see above).") var culture: String?
    @Option(help: "Locale.") var locale: String = "de"
    @Option(help: "In-process calls per query.") var iterations: Int = 200
    @Option(help: "Runs of each process per query.") var processRuns: Int = 20
    @Option(help: "The agro program (default .build/release/agro if present, else .build/debug/agro).") var agro: String?
    @Option(help: "The sqlite3 program.") var sqlite3: String = "/usr/bin/sqlite3"
    @Option(help: "Applications in the plan.") var applications: Int = 30

    func run() throws {
        let store = try SQLiteCatalog(path: catalog)
        let log = StatementLog()
        let traced = try SQLiteCatalog(path: catalog, maximumReaders: 1, traceStatements: log.append)
        let (pestID, cultureID) = try pair(store)
        let page = PageRequest(page: 1, perPage: 20)
        let query = UseQuery(pest: pestID, culture: cultureID, asOf: "2026-06-01")

        // The plan: products registered on the culture, each at its registered dose.
        let onCulture = try store.compareUses(UseQuery(culture: cultureID, asOf: "2026-06-01"), page: .all, locale: locale).items
        var seen = Set<String>(), chosen: [UseRow] = []
        for row in onCulture where seen.insert(row.productID).inserted && row.dose.unit != nil && (row.dose.to ?? row.dose.from) != nil {
            chosen.append(row)
            if chosen.count == applications { break }
        }
        guard chosen.count == applications else { throw ValidationError("only \(chosen.count) products on \(cultureID)") }
        guard let start = PlanDate("2026-03-01") else { throw ValidationError("bad date") }
        let plan = SeasonPlan(culture: cultureID, harvest: PlanDate(day: start.day + 5 * applications + 30), applications: chosen.enumerated().map { index, row in
            SeasonPlan.Application(
                date: PlanDate(day: start.day + 5 * index), bbch: row.bbch?.from, product: row.productID,
                dose: row.dose.to ?? row.dose.from ?? 1, unit: row.dose.unit ?? "l/ha", pests: row.pests.prefix(1).map(\.id))
        })
        let planFile = FileManager.default.temporaryDirectory.appendingPathComponent("agro-bench-plan-\(getpid()).json")
        try JSONEncoder().encode(plan).write(to: planFile)
        defer { try? FileManager.default.removeItem(at: planFile) }

        _ = log.drain()
        let found = try traced.compareUses(query, page: page, locale: locale)
        let usesSQL = StatementLog.queries(log.drain())
        let (_, report) = try PlanCheck.run(plan, in: traced, locale: locale)
        let planSQL = StatementLog.queries(log.drain())
        print("catalog \(catalog): pest \(pestID), culture \(cultureID): \(found.total) uses; plan of \(applications): \(report.findings.count) findings, \(report.violations) violations, \(planSQL.count) statements")

        let agroPath = agro ?? (FileManager.default.isExecutableFile(atPath: ".build/release/agro") ? ".build/release/agro" : ".build/debug/agro")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-bench-home-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config",
                           "XDG_CACHE_HOME": home.path + "/cache", "PATH": "/usr/bin:/bin", "LANG": "C"]
        let cases: [(String, () throws -> Void, [String], [String], Double)] = [
            ("uses --pest --culture (page of 20)", { _ = try store.compareUses(query, page: page, locale: locale) }, usesSQL,
             ["uses", "--pest", pestID, "--culture", cultureID, "--per-page", "20"], 5),
            ("plan check (\(applications) applications)", { _ = try PlanCheck.run(plan, in: store, locale: locale) }, planSQL,
             ["plan", "check", planFile.path], 20),
        ]
        print("| query | in process, median | p90 | target | sqlite3 process (same SQL) | in process / sqlite3 | agro process | agro / sqlite3 |")
        print("|---|---|---|---|---|---|---|---|")
        for (name, call, sql, arguments, target) in cases {
            for _ in 0..<min(20, iterations) { try call() }
            var times: [Double] = []
            for _ in 0..<iterations { times.append(try Clock.time(call)) }
            let inProcess = Sample(times)
            // The plan check runs hundreds of statements: too long for one argument, so sqlite3
            // reads them from a file (.read), which it parses as it would its argument.
            let scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("agro-bench-sql-\(getpid()).sql")
            try Data((sql.map { $0 + ";" }.joined(separator: "\n") + "\n").utf8).write(to: scriptFile)
            defer { try? FileManager.default.removeItem(at: scriptFile) }
            let sqliteCommand = [sqlite3, "-readonly", catalog, ".read \(scriptFile.path)"]
            let agroCommand = [agroPath, "--catalog", catalog, "--lang", locale, "--format", "json"] + arguments
            _ = try ProcessRunner.output(sqliteCommand, environment: environment)
            var sqliteTimes: [Double] = [], agroTimes: [Double] = []
            for _ in 0..<processRuns {
                sqliteTimes.append(try ProcessRunner.run(sqliteCommand, environment: environment))
                // plan check exits 20 on violations: time it whatever its status.
                agroTimes.append(try ProcessRunner.run(agroCommand, environment: environment, allowing: [0, 20]))
            }
            let sqlite = Sample(sqliteTimes).median, whole = Sample(agroTimes).median
            let f = { (value: Double) in String(format: "%.2f ms", value) }
            print("| \(name) | \(f(inProcess.median)) | \(f(inProcess.p90)) | \(Int(target)) ms: \(inProcess.median <= target ? "ok" : "MISSED") | \(f(sqlite)) | \(String(format: "%.2fx", inProcess.median / sqlite)) | \(f(whole)) | \(String(format: "%.2fx", whole / sqlite)) |")
        }
    }

    /// The pest and culture to query.
    private func pair(_ store: SQLiteCatalog) throws -> (String, String) {
        if let pest, let culture { return (pest, culture) }
        let db = try DatabaseHandle(path: catalog)
        let top = try db.rows("""
            SELECT up.pest_id, uc.culture_id FROM use_pests up JOIN use_cultures uc ON uc.use_id = up.use_id
            GROUP BY 1, 2 ORDER BY COUNT(*) DESC, 1, 2 LIMIT 1
            """)
        guard let first = top.first, first.count == 2 else { throw ValidationError("no uses in \(catalog)") }
        let child = try db.rows("SELECT culture_id FROM culture_parents WHERE parent_id = '\(first[1])' ORDER BY culture_id LIMIT 1")
        return (pest ?? first[0], culture ?? child.first?.first ?? first[1])
    }
}

/// A read-only sqlite3 process reading a few rows, for choosing what to measure.
private struct DatabaseHandle {
    let path: String
    init(path: String) throws { self.path = path }
    func rows(_ sql: String) throws -> [[String]] {
        try ProcessRunner.output(["/usr/bin/sqlite3", "-readonly", "-separator", "\t", path, sql], environment: [:])
            .split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
