// Update benchmarks, kept out of the tests. See Benchmarks/update/README.md.
//
// 1. A full update of a ~20 MB catalog over loopback from the Hummingbird catalog server,
//    as a ratio to `curl -o` of the same compressed file plus `sha256sum` (target <= 1.3).
// 2. The longest pause a reader sees at a swap of LiveCatalog (target <= 10 ms).
// 3. Delta updates against full updates (DeltaBenchmark.swift).
import AgroDomain
import AgroServer
import AgroStore
import AgroTestSupport
import AgroUpdate
import AgroUpdateClient
import Foundation
import Logging

@main
enum UpdateBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        let runs = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5
        // `delta` or `swap` as a second argument runs only that part.
        let only = arguments.count > 2 ? arguments[2] : nil
        let root = NSTemporaryDirectory() + "agro-update-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer {
            // AGRO_BENCH_KEEP=1 keeps the files, to look at them with other tools.
            if ProcessInfo.processInfo.environment["AGRO_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: root) }
        }

        if only == "delta" {
            try await DeltaBenchmark.run(root: root, runs: runs)
            return
        }
        let big = root + "/catalog-2.sqlite"
        if only == "swap" {
            try TestCatalogs.make(at: big, version: 2, products: 2200, padding: 1000)
            let other = root + "/catalog-3.sqlite"
            try TestCatalogs.make(at: other, version: 3, products: 2200, padding: 1000)
            // main's warm-up (an unknown product's card, on however many connections
            // concurrentPerform reaches) and this one, twice in turn, in the same run.
            for _ in 0..<2 {
                try swapPause(a: big, b: other, products: 2200, warm: true, previousWarm: true)
                try swapPause(a: big, b: other, products: 2200, warm: true)
            }
            try swapPause(a: big, b: other, products: 2200, warm: true, readers: 1)
            return
        }
        var clock = ContinuousClock.now
        try TestCatalogs.make(at: big, version: 2, products: 2200, padding: 1000)
        let size = UpdateBenchmark.fileSize(big) ?? 0
        print(String(format: "catalog: %.1f MB, built in %@", Double(size) / 1e6, "\(ContinuousClock.now - clock)"))
        let bundled = root + "/bundled-1.sqlite"
        try TestCatalogs.make(at: bundled, version: 1, products: 10)

        let keys = KeyPair.generate()
        let trust = try keys.write(prefix: root + "/key").publicKey
        clock = ContinuousClock.now
        let manifest = try Publisher.publish(catalog: big, to: root + "/publish", key: keys)
        print(String(format: "published: %.1f MB compressed, in %@", Double(manifest.file.compressed.size) / 1e6, "\(ContinuousClock.now - clock)"))

        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = CatalogServer.makeApplication(
            directory: root + "/publish", host: "127.0.0.1", port: 0, logger: logger, onRunning: { continuation.yield($0) })
        let server = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next()!
        let base = "http://127.0.0.1:\(port)"

        // Full update, from a fresh data directory each time.
        var updates: [Double] = []
        var phases: [String: [Double]] = [:]
        for run in 0..<runs + 1 {
            let data = root + "/data-\(run)"
            let configuration = try UpdateConfiguration(
                server: URL(string: base)!, trustedKeys: [try PublicSigningKey.read(file: trust)])
            let client = UpdateClient(configuration: configuration, store: CatalogStore(dataDirectory: data, bundledPath: bundled))
            let marks = Marks()
            let start = ContinuousClock.now
            let outcome = try await client.update { event in
                switch event {
                case .fetchingManifest: marks.mark("manifest")
                case .downloading: marks.markOnce("download")
                case .verifying: marks.mark("verify")
                case let .installing(step): marks.mark(step.rawValue)
                case .applyingDeltas, .fallingBack: break
                }
            }
            let end = ContinuousClock.now
            let seconds = (end - start).seconds
            guard case .installed = outcome else { fatalError("no update: \(outcome)") }
            if run > 0 {  // the first run warms caches
                updates.append(seconds)
                let times = marks.all
                func at(_ name: String) -> Double { times[name].map { ($0 - start).seconds } ?? 0 }
                phases["manifest", default: []].append(at("download"))
                phases["download", default: []].append(at("verify") - at("download"))
                phases["decompress+hash+integrity", default: []].append(at("fileInPlace") - at("verify"))
                phases["install (links, fsync)", default: []].append((end - start).seconds - at("fileInPlace"))
            }
            try? FileManager.default.removeItem(atPath: data)
        }
        // curl + sha256sum of the same file.
        var curls: [Double] = []
        let target = root + "/curl.gz"
        for run in 0..<runs + 1 {
            let start = ContinuousClock.now
            try shell("curl -s -f -o '\(target)' '\(base)/\(manifest.file.path)' && sha256sum '\(target)' > /dev/null")
            let seconds = (ContinuousClock.now - start).seconds
            if run > 0 { curls.append(seconds) }
            try? FileManager.default.removeItem(atPath: target)
        }
        // The same work as the update, with C tools: download, both hashes, gunzip,
        // integrity check, fsync.
        var tools: [Double] = []
        for run in 0..<runs + 1 {
            let start = ContinuousClock.now
            try shell("""
                curl -s -f -o '\(target)' '\(base)/\(manifest.file.path)' && sha256sum '\(target)' > /dev/null \
                && gzip -dc '\(target)' > '\(target).sqlite' && sha256sum '\(target).sqlite' > /dev/null \
                && sqlite3 '\(target).sqlite' 'PRAGMA integrity_check' > /dev/null && sync '\(target).sqlite'
                """)
            let seconds = (ContinuousClock.now - start).seconds
            if run > 0 { tools.append(seconds) }
            try? FileManager.default.removeItem(atPath: target)
            try? FileManager.default.removeItem(atPath: target + ".sqlite")
        }
        let update = median(updates), curl = median(curls)
        print(String(format: "full update: median %.1f ms (runs: %@)", update * 1000, updates.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ")))
        print(String(format: "curl + sha256sum: median %.1f ms (runs: %@)", curl * 1000, curls.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ")))
        print(String(format: "ratio: %.2fx (target <= 1.3x)", update / curl))
        print(String(
            format: "same work with C tools (curl, sha256sum x2, gzip -dc, sqlite3 integrity_check, sync): median %.1f ms; update / tools: %.2fx",
            median(tools) * 1000, update / median(tools)))
        for name in ["manifest", "download", "decompress+hash+integrity", "install (links, fsync)"] {
            print(String(format: "  %@: median %.1f ms", name, median(phases[name] ?? []) * 1000))
        }
        // What the same checks cost in C tools, for scale.
        let published = root + "/publish/" + manifest.file.path
        for (name, command) in [
            ("gunzip | sha256sum", "gzip -dc '\(published)' | sha256sum > /dev/null"),
            ("sha256sum of the catalog", "sha256sum '\(big)' > /dev/null"),
            ("sqlite3 integrity_check", "sqlite3 '\(big)' 'PRAGMA integrity_check' > /dev/null"),
        ] {
            var times: [Double] = []
            for _ in 0..<3 {
                let start = ContinuousClock.now
                try shell(command)
                times.append((ContinuousClock.now - start).seconds)
            }
            print(String(format: "  for scale, %@: median %.1f ms", name, median(times) * 1000))
        }
        server.cancel()
        _ = try? await server.value

        let other = root + "/catalog-3.sqlite"
        try TestCatalogs.make(at: other, version: 3, products: 2200, padding: 1000)
        try swapPause(a: big, b: other, products: 2200, warm: false)
        try swapPause(a: big, b: other, products: 2200, warm: true)
        // One reader leaves a core free: what a swap costs a reader with less scheduling noise.
        try swapPause(a: big, b: other, products: 2200, warm: true, readers: 1)
        try await DeltaBenchmark.run(root: root, runs: runs)
    }

    /// Four threads query without pause (random product cards) while the catalog is swapped
    /// every 5 ms between two 20 MB catalogs, 400 times. A query is "at a swap" when a swap
    /// happened since the same thread's previous query; its latency is the pause a reader sees.
    /// Queries not at a swap give the machine's own noise (2 cores, 5 busy threads).
    static func swapPause(a: String, b: String, products: Int, warm: Bool, readers: Int = 4, previousWarm: Bool = false) throws {
        print(
            "\(readers) reader thread(s), swaps to "
                + (warm
                    ? (previousWarm
                        ? "catalogs warmed as main's LiveCatalog.warm did:" : "catalogs warmed by LiveCatalog.warm (as reload and watch do):")
                    : "cold catalogs:"))
        let live = LiveCatalog(try SQLiteCatalog(path: a))
        let stop = Atomic(), swaps = Tally()
        let results = Results()
        let threads = (0..<readers).map { _ in
            Thread {
                var atSwap: [Double] = [], other: [Double] = []
                var generator = SystemRandomNumberGenerator()
                var seen = 0
                while !stop.isSet {
                    let id = "p\(Int.random(in: 0..<products, using: &generator))"
                    let before = swaps.value
                    let start = ContinuousClock.now
                    if (try? live.product(id: id, locale: "en")) == nil { fatalError("failed read") }
                    let seconds = (ContinuousClock.now - start).seconds
                    if before != seen {
                        atSwap.append(seconds)
                        seen = before
                    } else {
                        other.append(seconds)
                    }
                }
                results.add(atSwap: atSwap, other: other)
            }
        }
        threads.forEach { $0.start() }
        Thread.sleep(forTimeInterval: 0.2)
        var swapTimes: [Double] = []
        for swap in 0..<400 {
            let next = try SQLiteCatalog(path: swap % 2 == 0 ? b : a)
            if warm, previousWarm {
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    _ = try? next.products(ProductFilter(), page: PageRequest(perPage: 1), locale: "en")
                    _ = try? next.product(id: "", locale: "en")
                }
            } else if warm {
                LiveCatalog.warm(next)
            }
            let start = ContinuousClock.now
            live.swap(to: next)
            swapTimes.append((ContinuousClock.now - start).seconds)
            swaps.increment()
            Thread.sleep(forTimeInterval: 0.005)
        }
        stop.set()
        while results.count < readers { Thread.sleep(forTimeInterval: 0.01) }
        let (atSwap, other) = results.all
        for (name, latencies) in [("queries at a swap", atSwap.sorted()), ("other queries", other.sorted())] {
            print(String(
                format: "  %@: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms", name, latencies.count,
                percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000, (latencies.last ?? 0) * 1000))
        }
        print(String(format: "  swap(to:) call: max %.3f ms", (swapTimes.max() ?? 0) * 1000))
        print(String(format: "  longest reader pause at a swap: %.2f ms (target <= 10 ms)", (atSwap.max() ?? 0) * 1000))
    }

    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fatalError("failed: \(command)") }
    }

    /// A file's size in bytes, nil when it cannot be read.
    static func fileSize(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }
}

final class Marks: @unchecked Sendable {
    private let lock = NSLock()
    private var marks: [String: ContinuousClock.Instant] = [:]
    func mark(_ name: String) { lock.withLock { marks[name] = .now } }
    func markOnce(_ name: String) { lock.withLock { if marks[name] == nil { marks[name] = .now } } }
    func remove(_ name: String) { _ = lock.withLock { marks.removeValue(forKey: name) } }
    var all: [String: ContinuousClock.Instant] { lock.withLock { marks } }
}

final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var isSet: Bool { lock.withLock { flag } }
}

final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var atSwap: [Double] = [], other: [Double] = []
    private var threads = 0
    func add(atSwap: [Double], other: [Double]) {
        lock.withLock {
            self.atSwap += atSwap
            self.other += other
            threads += 1
        }
    }
    var count: Int { lock.withLock { threads } }
    var all: (atSwap: [Double], other: [Double]) { lock.withLock { (atSwap, other) } }
}

final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
