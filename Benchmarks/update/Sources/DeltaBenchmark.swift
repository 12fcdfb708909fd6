// Delta updates against full updates, same run, same server (see Benchmarks/update/README.md):
// (a) one dose changed in the demo catalog, (b) 1 % of the uses changed in the 20x generated
// catalog, (c) the Swiss register 2024 to 2026. Bytes on the wire and update times.
import AgroServer
import AgroStore
import AgroTestSupport
import AgroUpdate
import AgroUpdateClient
import Crypto
import Foundation
import Logging

enum DeltaBenchmark {
    struct Scenario {
        let name: String
        let old: String
        let new: String
    }

    /// What one update cost.
    struct Sample {
        var seconds: Double
        /// From the start of applying (delta) or decompressing (full) to the file in place.
        var applyAndVerify: Double
        /// Delta path: the part before verifying (copy, changesets, search index).
        var apply: Double
        var bytes: Int64
        var fallbacks: Int
    }

    static func run(root: String, runs: Int) async throws {
        // agro-bench and agro-full make the inputs: those beside this program, else agro-bench of
        // this package's debug build and agro-full of agro's (their speed does not enter the figures).
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        func tool(_ name: String, else fallback: String) -> String {
            FileManager.default.isExecutableFile(atPath: beside + "/" + name) ? beside + "/" + name : fallback + "/" + name
        }
        let agroBench = tool("agro-bench", else: "Benchmarks/.build/debug"), agroFull = tool("agro-full", else: ".build/debug")
        let cache = ProcessInfo.processInfo.environment["AGRO_BENCH_CACHE"] ?? NSTemporaryDirectory() + "agro-delta-bench-cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        var scenarios: [Scenario] = []

        // (a) The demo catalog and the same with one dose changed (the next version).
        let demo = root + "/demo-1.sqlite", demoNext = root + "/demo-2.sqlite"
        try FileManager.default.copyItem(atPath: "Database/catalog.sqlite", toPath: demo)
        try FileManager.default.copyItem(atPath: demo, toPath: demoNext)
        try UpdateBenchmark.shell(
            """
            sqlite3 '\(demoNext)' "UPDATE uses SET dose_to = dose_to + 0.5 WHERE id = (SELECT min(id) FROM uses WHERE dose_to IS NOT NULL); \
            UPDATE catalog_metadata SET value = CAST(value AS INTEGER) + 1 WHERE key = 'version'; VACUUM;"
            """)
        scenarios.append(Scenario(name: "(a) demo, one dose changed", old: demo, new: demoNext))

        // (b) The 20x generated catalog and its next release with 1 % of the uses changed.
        let generated = cache + "/generated-x20.sqlite", mutated = cache + "/generated-x20-mutated.sqlite"
        if !FileManager.default.fileExists(atPath: mutated) {
            try UpdateBenchmark.shell("'\(agroBench)' generate --factor 20 --out '\(generated)' > /dev/null")
            try UpdateBenchmark.shell("'\(agroBench)' generate --factor 20 --mutate 0.01 --out '\(mutated)' > /dev/null")
        }
        scenarios.append(Scenario(name: "(b) 20x generated, 1 % of uses changed", old: generated, new: mutated))

        // (c) The Swiss register, 2024 and 2026 publications (read from ../shared, never copied
        // into the repository; the imports are cached outside it).
        let shared = SharedFixtures.root.path + "/data/srppp"
        let ch2024 = cache + "/srppp-2024.sqlite", ch2026 = cache + "/srppp-2026.sqlite"
        if FileManager.default.fileExists(atPath: shared) {
            for (file, out) in [
                ("Daten_Pflanzenschutzmittelverzeichnis_2024-12-16.zip", ch2024), ("PublicationData_2026_02_03.xml.xz", ch2026),
            ]
            where !FileManager.default.fileExists(atPath: out) {
                try UpdateBenchmark.shell("'\(agroFull)' catalog import srppp '\(shared)/\(file)' --out '\(out)' > /dev/null")
            }
            scenarios.append(Scenario(name: "(c) Swiss register 2024 -> 2026", old: ch2024, new: ch2026))
        } else {
            print("(c) skipped: \(shared) missing")
        }

        let keys = KeyPair.generate()
        let trust = try PublicSigningKey.read(file: try keys.write(prefix: root + "/delta-key").publicKey)
        let sites = root + "/sites"
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        try FileManager.default.createDirectory(atPath: sites, withIntermediateDirectories: true)
        let app = CatalogServer.makeApplication(
            directory: sites, host: "127.0.0.1", port: 0, logger: logger, onRunning: { continuation.yield($0) })
        let server = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next()!
        let base = "http://127.0.0.1:\(port)"
        let bundled = root + "/delta-bundled.sqlite"
        try TestCatalogs.make(at: bundled, identity: "bench.other", version: 1, products: 2)
        defer { server.cancel() }

        for (index, scenario) in scenarios.enumerated() {
            print(scenario.name + ":")
            let oldSite = sites + "/s\(index)-old", deltaSite = sites + "/s\(index)-delta", fullSite = sites + "/s\(index)-full"
            try Publisher.publish(catalog: scenario.old, to: oldSite, key: keys)
            try Publisher.publish(catalog: scenario.old, to: deltaSite, key: keys)
            let clock = ContinuousClock.now
            let manifest = try Publisher.publish(catalog: scenario.new, to: deltaSite, key: keys)
            let publishTime = (ContinuousClock.now - clock).seconds
            try Publisher.publish(catalog: scenario.old, to: fullSite, key: keys)
            try Publisher.publish(catalog: scenario.new, to: fullSite, key: keys, deltas: 0)
            let full = manifest.file.compressed.size
            let manifestBytes = UpdateBenchmark.fileSize(deltaSite + "/manifest.json") ?? 0
            let fullManifestBytes = UpdateBenchmark.fileSize(fullSite + "/manifest.json") ?? 0
            print(
                String(
                    format: "  catalogs %.1f -> %.1f MB; full download %d bytes compressed; publishing with deltas took %.2f s",
                    Double(UpdateBenchmark.fileSize(scenario.old) ?? 0) / 1e6,
                    Double(UpdateBenchmark.fileSize(scenario.new) ?? 0) / 1e6, full, publishTime))
            if let delta = manifest.deltas?.first {
                print(
                    "  delta listed: \(delta.file.compressed.size) bytes compressed (\(delta.file.uncompressed.size) uncompressed)"
                )
            } else {
                // Left out by the publisher: say how large it would have been.
                let plain = root + "/unlisted.delta", packed = plain + ".gz"
                if let changeset = try DeltaFile.changeset(from: scenario.old, to: scenario.new) {
                    try changeset.write(to: URL(fileURLWithPath: plain))
                    let (_, compressed) = try Gzip.compress(file: plain, to: packed)
                    print(
                        "  no delta listed: the changeset is \(changeset.count) bytes, \(compressed.size) compressed, not smaller than the full file"
                    )
                } else {
                    print("  no delta listed: the schemas differ")
                }
            }
            var deltas: [Sample] = [], fulls: [Sample] = [], replays: [[String: Double]] = []
            let changeset = try DeltaFile.changeset(from: scenario.old, to: scenario.new)
            // The large tables' hashes the published delta lists, for the replay's checks.
            var listed: [String: String] = [:]
            if let delta = manifest.deltas?.first {
                let plain = root + "/listed.delta"
                try UpdateBenchmark.shell("gzip -dc '\(deltaSite)/\(delta.file.path)' > '\(plain)'")
                listed = try DeltaFile.decode(Data(contentsOf: URL(fileURLWithPath: plain))).header.fromTableHashes ?? [:]
                print("  tables listed in the delta's header: \(listed.count)")
            }
            for run in 0..<runs + 1 {
                let deltaData = root + "/delta-data-\(index)-\(run)", fullData = root + "/full-data-\(index)-\(run)"
                for data in [deltaData, fullData] {
                    _ = try await client(base + "/s\(index)-old/", trust: trust, data: data, bundled: bundled).update()
                }
                let deltaSample = try await timedUpdate(
                    client(base + "/s\(index)-delta/", trust: trust, data: deltaData, bundled: bundled))
                let fullSample = try await timedUpdate(
                    client(base + "/s\(index)-full/", trust: trust, data: fullData, bundled: bundled))
                let replay = try changeset.map {
                    try previousApplyAndVerify(old: scenario.old, changeset: $0, listed: listed, scratch: root)
                }
                if run > 0 {
                    deltas.append(deltaSample)
                    fulls.append(fullSample)
                    if let replay { replays.append(replay) }
                }
                try? FileManager.default.removeItem(atPath: deltaData)
                try? FileManager.default.removeItem(atPath: fullData)
            }
            let deltaBytes = deltas.map(\.bytes).max() ?? 0, fullBytes = fulls.map(\.bytes).max() ?? 0
            let wireDelta = deltaBytes + manifestBytes, wireFull = fullBytes + fullManifestBytes
            print(
                String(
                    format: "  bytes on the wire (manifest + files): delta path %lld, full %lld: %.2f %% of the full download%@",
                    wireDelta, wireFull, Double(wireDelta) / Double(wireFull) * 100,
                    deltaBytes == full ? " (the client chose the full file)" : ""))
            print("  fallbacks to the full download: \(deltas.map(\.fallbacks).reduce(0, +))")
            let deltaTime = UpdateBenchmark.median(deltas.map(\.seconds)), fullTime = UpdateBenchmark.median(fulls.map(\.seconds))
            let deltaApply = UpdateBenchmark.median(deltas.map(\.applyAndVerify)),
                fullApply = UpdateBenchmark.median(fulls.map(\.applyAndVerify))
            print(
                String(
                    format: "  whole update, median of %d: delta path %.1f ms, full %.1f ms: %.2fx", runs, deltaTime * 1000,
                    fullTime * 1000,
                    deltaTime / fullTime))
            print(
                String(
                    format:
                        "  apply-and-verify (delta: copy, apply, search index, content hash, integrity check, sha256; full: gunzip, sha256 x2, integrity check), median: %.1f ms vs %.1f ms: %.2fx",
                    deltaApply * 1000, fullApply * 1000, deltaApply / fullApply))
            if !replays.isEmpty {
                func step(_ name: String) -> Double { UpdateBenchmark.median(replays.map { $0[name] ?? 0 }) }
                print(
                    String(
                        format:
                            "  the previous client's apply-and-verify replayed (serial: copy with sha256, apply, rebuild search index, content hash, integrity check, sha256), median: %.1f ms: %.2fx the full update's",
                        step("total") * 1000, step("total") / fullApply))
                let names = [
                    "copy with sha256", "apply", "rebuild search index", "carry search index", "carry, changeset's tables",
                    "content hash", "integrity check", "sha256", "checks, whole result", "checks, changed tables",
                ]
                print(
                    "  steps alone, medians: "
                        + names.map { String(format: "%@ %.1f ms", $0, step($0) * 1000) }.joined(separator: ", "))
                // Measured only when the search index was left as it was and some table is listed.
                if replays.contains(where: { $0["checks, changed tables"] != nil }) {
                    print(
                        String(
                            format:
                                "  checks of the result side by side, changed tables / whole result (main's): %.1f / %.1f ms: %.2fx",
                            step("checks, changed tables") * 1000, step("checks, whole result") * 1000,
                            step("checks, changed tables") / step("checks, whole result")))
                }
            }
            print(
                String(
                    format:
                        "  of the delta path's: copy, changesets and search index %.1f ms; checks and fsync %.1f ms (medians)",
                    UpdateBenchmark.median(deltas.map(\.apply)) * 1000,
                    UpdateBenchmark.median(deltas.map { $0.applyAndVerify - $0.apply }) * 1000))
        }
    }

    /// The apply-and-verify steps of the client before the search index was carried, one after
    /// the other as it ran them, on a copy of `old`: copy while hashing (1 MiB pieces), apply,
    /// rebuild the whole search index, content hash, integrity check, sha256 of the result (the
    /// "before" figure of the same run, under "total"); then, on a second copy, the search index
    /// carried instead of rebuilt. Returns the time of each step.
    static func previousApplyAndVerify(
        old: String, changeset: Data, listed: [String: String], scratch: String
    ) throws -> [String: Double] {
        let copy = scratch + "/replay.sqlite"
        try? FileManager.default.removeItem(atPath: copy)
        var times: [String: Double] = [:]
        func time(_ step: String, _ body: () throws -> Void) rethrows {
            let start = ContinuousClock.now
            try body()
            times[step] = (ContinuousClock.now - start).seconds
        }
        try time("copy with sha256") { _ = try sha256(of: old, copyingTo: copy) }
        try time("apply") { try DeltaFile.apply([changeset], to: copy) }
        try time("rebuild search index") { try CatalogStore.rebuildSearchIndex(at: copy) }
        try time("content hash") { _ = try ContentHash.of(catalog: copy) }
        try time("integrity check") { _ = try CatalogStore.inspect(copy, full: true) }
        try time("sha256") { _ = try sha256(of: copy) }
        times["total"] = times.values.reduce(0, +)
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        try DeltaFile.apply([changeset], to: copy)
        try time("carry search index") { _ = try CatalogStore.refreshSearchIndex(at: copy, previous: old) }
        try FileManager.default.removeItem(atPath: copy)
        // As the client now does it: the tables the changeset changes decide whether any index
        // row can be stale.
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        try DeltaFile.apply([changeset], to: copy)
        let changed = try DeltaFile.tables(changedBy: [changeset])
        var refresh: SearchIndexRefresh?
        try time("carry, changeset's tables") {
            refresh = try CatalogStore.refreshSearchIndex(at: copy, previous: old, changedTables: changed)
        }
        // The checks of the result, side by side on three threads, as main's client ran them
        // (whole content hash, whole integrity check, sha256) and as this one does when the
        // search index was left as it was (the large tables the changeset leaves alone taken from
        // the delta's header, every other section hashed; the changed tables' integrity check;
        // sha256).
        try time("checks, whole result") {
            try sideBySide(
                { _ = try ContentHash.of(catalog: copy) }, { _ = try CatalogStore.inspect(copy, full: true) },
                { _ = try sha256(of: copy) })
        }
        let carried = listed.filter { !changed.contains($0.key) }
        if let refresh, refresh.changed == 0, !refresh.rebuilt, !carried.isEmpty {
            var combined: String?
            try time("checks, changed tables") {
                try sideBySide(
                    {
                        let rehashed = try ContentHash.sections(of: copy, except: Set(carried.keys))
                        combined = ContentHash.combine(carried.merging(rehashed) { $1 })
                    },
                    { _ = try CatalogStore.inspect(copy, full: true, integrityOf: changed) }, { _ = try sha256(of: copy) })
            }
            guard combined == (try ContentHash.of(catalog: copy)) else { fatalError("the partial content hash differs") }
        }
        try FileManager.default.removeItem(atPath: copy)
        return times
    }

    /// Runs the bodies on threads of their own and waits for all; the first error is rethrown.
    static func sideBySide(_ bodies: (() throws -> Void)...) throws {
        let errors = Errors()
        // Each body runs on one thread only, and all have ended when concurrentPerform returns.
        nonisolated(unsafe) let each = bodies
        DispatchQueue.concurrentPerform(iterations: each.count) { index in
            do { try each[index]() } catch { errors.append(error) }
        }
        if let first = errors.first { throw first }
    }

    /// A file's sha256 read in 1 MiB pieces, written to `destination` as it is read when given.
    static func sha256(of path: String, copyingTo destination: String? = nil) throws -> String {
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? input.close() }
        var output: FileHandle?
        if let destination {
            _ = FileManager.default.createFile(atPath: destination, contents: nil)
            output = try FileHandle(forWritingTo: URL(fileURLWithPath: destination))
        }
        defer { try? output?.close() }
        var hasher = SHA256()
        while let data = try input.read(upToCount: 1 << 20), !data.isEmpty {
            hasher.update(data: data)
            try output?.write(contentsOf: data)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func client(_ url: String, trust: PublicSigningKey, data: String, bundled: String) throws -> UpdateClient {
        let configuration = try UpdateConfiguration(server: URL(string: url)!, trustedKeys: [trust])
        return UpdateClient(configuration: configuration, store: CatalogStore(dataDirectory: data, bundledPath: bundled))
    }

    static func timedUpdate(_ client: UpdateClient) async throws -> Sample {
        let marks = Marks()
        let totals = Totals()
        let start = ContinuousClock.now
        let outcome = try await client.update { event in
            switch event {
            case let .downloading(_, total): totals.set(total)
            case .applyingDeltas: marks.markOnce("apply")
            case .fallingBack:
                totals.fallback()
                marks.remove("apply")
            case .verifying: marks.markOnce("verify")
            case .installing(.fileInPlace): marks.mark("fileInPlace")
            default: break
            }
        }
        let end = ContinuousClock.now
        guard case .installed = outcome else { fatalError("no update: \(outcome)") }
        let times = marks.all
        let begin = times["apply"] ?? times["verify"] ?? start
        let applied = (times["fileInPlace"] ?? end) - begin
        let apply = times["apply"].map { (times["verify"] ?? end) - $0 }?.seconds ?? 0
        return Sample(
            seconds: (end - start).seconds, applyAndVerify: applied.seconds, apply: apply, bytes: totals.total,
            fallbacks: totals.fallbacks)
    }
}

final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func append(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
}

final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    private var count = 0
    func set(_ total: Int64) { lock.withLock { value = total } }
    func fallback() { lock.withLock { count += 1 } }
    var total: Int64 { lock.withLock { value } }
    var fallbacks: Int { lock.withLock { count } }
}
