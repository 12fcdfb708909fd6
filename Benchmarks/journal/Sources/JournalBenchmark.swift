import AgroDomain
import AgroPostgres
import AgroStore
import AgroTestSupport
import Foundation

/// The field journal's two figures (journal/README.md): writing a record with its checks on a
/// field of 50 records, in process (target: p99 at most 20 ms), and `agro journal export` of a
/// season of 10,000 records as a whole process (target: at most 1 s).
///
/// With `--postgres`, the same writes on the PostgreSQL store: a server of its own
/// (`PostgresCluster`, fsync on) or the database at `--postgres-url`.
///
///     agro-journal-bench [--agro-full PATH] [--writes N] [--postgres [--postgres-url URL]]
@main
struct JournalBenchmark {
    static let products = [
        ("azoxystrobin-cyproconazole-280-sc", 0.6), ("pyraclostrobin-epoxiconazole-183-se", 1.2),
        ("prothioconazole-tebuconazole-250-ec", 0.8), ("tebuconazole-250-ec", 0.75),
    ]

    static func record(field: UUID, day: Int, index: Int, now: Date) -> SprayRecord {
        let (product, dose) = products[index % products.count]
        return SprayRecord(
            field: field, start: JournalTime(date: PlanDate(day: day), minute: 7 * 60 + index % 600), bbch: 30 + index % 30,
            products: [AppliedProduct(product: product, dose: dose, unit: "l/ha", pests: ["zymoseptoria-tritici"])],
            water: 200, sprayer: "bench", weather: SprayWeather(wind: Reading(2.5, .measured)), writtenAt: now)
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    /// Revisions of a field's 50 records written with their checks; the sorted times in ms.
    static func timeWrites<Store: JournalStore>(_ journal: Journal<Store>, writes: Int, now: Date) throws -> [Double] {
        let start = PlanDate("2026-03-01")!.day
        let field = Field(name: "Bench", area: 50, culture: "winter-wheat", harvest: PlanDate("2026-08-01"), writtenAt: now)
        try journal.add(field)
        var records: [SprayRecord] = []
        for index in 0..<50 {
            let record = record(field: field.id, day: start + index * 3, index: index, now: now)
            _ = try journal.write(record)
            records.append(record)
        }
        var times: [Double] = []
        for index in 0..<writes {
            var revision = records[index % 50]
            revision.revision = UUID()
            revision.reason = "bench"
            revision.products[0].dose += 0.01
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try journal.write(revision)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        return times.sorted()
    }

    /// The same writes on the PostgreSQL store, one farm, one writer.
    static func postgres(url: String?, writes: Int, catalog: SQLiteCatalog, now: Date) throws {
        let cluster = url == nil ? try PostgresCluster.start(durable: true) : nil
        defer { cluster?.remove() }
        let store = try PostgresFarmStore(url: try url ?? cluster!.createDatabase())
        defer { store.close() }
        let farm = Farm(name: "Bench \(UUID())")
        try store.addFarm(farm)
        let times = try timeWrites(
            Journal(store: store.journal(farm: farm.id), catalog: catalog, locale: "en", now: now), writes: writes, now: now)
        print(
            String(
                format:
                    "PostgreSQL: write a record with its checks, field of 50 records, %d writes: median %.2f ms, p99 %.2f ms (target 20 ms: %.2fx)",
                writes, percentile(times, 0.5), percentile(times, 0.99), percentile(times, 0.99) / 20))
    }

    static func main() throws {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
        let writes = Int(value("--writes") ?? "300") ?? 300
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let catalogPath = root.appendingPathComponent("Database/catalog.sqlite").path
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-journal-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let now = Date(timeIntervalSince1970: Double(PlanDate("2026-11-01")!.day) * 86_400)
        let catalog = try SQLiteCatalog(path: catalogPath, maximumReaders: 1)
        let store = try UserStore(path: home.appendingPathComponent("agro/user.sqlite").path)
        let journal = Journal(store: store, catalog: catalog, locale: "en", now: now)
        let start = PlanDate("2026-03-01")!.day

        // Writing: a field with 50 records; each timed write is a revision of one of them (the
        // field stays at 50 records), checks and the durable append included.
        let times = try timeWrites(journal, writes: writes, now: now)
        let records = try store.records(field: nil).map(\.record)
        // Where a write's time goes: the checks alone, without the append.
        var checks: [Double] = []
        for index in 0..<min(writes, 100) {
            var revision = records[index % 50]
            revision.revision = UUID()
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try journal.check(revision)
            checks.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        checks.sort()
        print(
            String(
                format: "  of which the checks alone: median %.2f ms, p99 %.2f ms", percentile(checks, 0.5),
                percentile(checks, 0.99)))
        print(
            String(
                format:
                    "write a record with its checks, field of 50 records, %d writes: median %.2f ms, p99 %.2f ms (target 20 ms: %.2fx)",
                writes, percentile(times, 0.5), percentile(times, 0.99), percentile(times, 0.99) / 20))

        if arguments.contains("--postgres") {
            try postgres(url: value("--postgres-url"), writes: writes, catalog: catalog, now: now)
        }

        // Export: 200 more fields of 50 records (10,000), appended as written, then the whole
        // process of `agro journal export` on them.
        guard let agro = value("--agro-full") else { return }
        var appended = 0
        for fieldIndex in 0..<200 {
            let other = Field(name: "Field \(fieldIndex)", area: 40, culture: "winter-wheat", writtenAt: now)
            try journal.add(other)
            for index in 0..<50 {
                _ = try store.append(record(field: other.id, day: start + index * 3, index: index, now: now), findings: [])
                appended += 1
            }
        }
        var exports: [Double] = []
        var rows = 0
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: agro)
            process.arguments = ["journal", "export", "--catalog", catalogPath]
            process.environment = ["XDG_DATA_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"]
            let output = home.appendingPathComponent("export.csv")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
            let began = DispatchTime.now().uptimeNanoseconds
            try process.run()
            process.waitUntilExit()
            exports.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            rows = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").count - 1
        }
        exports.sort()
        print(
            String(
                format: "export %d records (%d rows) as a whole process, 5 runs: median %.3f s, max %.3f s (target 1 s: %.2fx)",
                appended + 50, rows, exports[2], exports[4], exports[2]))
    }
}
