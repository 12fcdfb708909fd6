import AgroDomain
import AgroPostgres
import AgroStore
import AgroTestSupport
import Foundation

/// The farm journal's figures (journal/README.md, "Sync"):
///
/// - a season of 10,000 records (200 fields of 50) synced to an empty device by
///   `agro journal sync`, as a whole process against `agro web --farm-journal` on loopback
///   (target: at most 2 s), with the bytes of the bodies exchanged;
/// - records written through `POST /api/v1/sync` under wrk, each a new spray on one of the 200
///   fields, checked by the journal's engine and stored (target: at least 500 a second, p99 at
///   most 50 ms).
///
///     agro-sync-bench --agro-full PATH [--records 10000] [--postgres | --journal-db URL]
///         [--instances 1] [--connections 16] [--seconds 10]
///
/// With `--postgres` (a PostgreSQL server of its own, fsync on: `PostgresCluster`) or
/// `--journal-db postgresql://...`, and `--instances 3`, three `agro web` share the store behind
/// nginx on loopback (nginx-light), as docs/farm-journal.md describes.
@main
struct SyncBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
        guard let agro = value("--agro-full") else {
            FileHandle.standardError.write(Data("usage: agro-sync-bench --agro-full PATH [...]\n".utf8))
            exit(64)
        }
        let records = Int(value("--records") ?? "10000") ?? 10_000
        let instances = Int(value("--instances") ?? "1") ?? 1
        let connections = value("--connections") ?? "16"
        let seconds = value("--seconds") ?? "10"
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-sync-bench-\(UUID())")
        // `--keep`: the folders stay, to look into (the server's log, the stores).
        defer { if !arguments.contains("--keep") { try? FileManager.default.removeItem(at: home) } }
        let server = Home(root: home.appendingPathComponent("server"), agro: agro)
        let cluster = arguments.contains("--postgres") ? try PostgresCluster.start(durable: true) : nil
        defer { cluster?.remove() }
        let journalDB =
            try cluster?.createDatabase() ?? value("--journal-db")
            ?? server.root.appendingPathComponent("data/agro/journal.sqlite").path
        let password = "bench-password-1"

        // The farm, its agronomist and a season: 200 fields of 50 records, appended as stored.
        try server.run(["farms", "add", "Bench", "--journal-db", journalDB])
        try server.run(
            ["users", "add", "bench", "--farm", "Bench", "--role", "agronomist", "--journal-db", journalDB],
            environment: ["AGRO_PASSWORD": password])
        let store: any FarmStore = try openStore(journalDB)
        let farm = try store.farms().first { $0.name == "Bench" }!
        let journal = store.journal(farm: farm.id)
        let now = Date()
        let start = PlanDate("2026-03-01")!.day
        let fields = (0..<200).map { Field(name: "Field \($0)", area: 40, culture: "winter-wheat", writtenAt: now) }
        for field in fields { _ = try journal.addField(field) }
        for index in 0..<records {
            let field = fields[index % fields.count]
            let record = SprayRecord(
                field: field.id, start: JournalTime(date: PlanDate(day: start + index / fields.count * 3)), bbch: 30,
                products: [AppliedProduct(product: "tebuconazole-250-ec", dose: 0.75, unit: "l/ha")], water: 200,
                writtenAt: now)
            _ = try journal.append(record, findings: [])
        }

        say("folders: " + home.path)
        let ports = try (0..<instances).map { _ in try server.startWeb(journalDB: journalDB) }
        defer { server.stopAll() }
        var address = "http://127.0.0.1:\(ports[0])"
        if instances > 1 { address = "http://127.0.0.1:\(try Nginx.start(in: home, upstreams: ports))" }

        // An empty device fetches the season: three runs, each a fresh device.
        var times: [Double] = []
        var bytes = 0
        for run in 0..<3 {
            let device = Home(root: home.appendingPathComponent("device-\(run)"), agro: agro)
            let began = DispatchTime.now().uptimeNanoseconds
            let output = try device.run(
                ["journal", "sync", "--server", address, "--user", "bench", "--format", "json"],
                environment: ["AGRO_PASSWORD": password])
            times.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            let outcome = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            bytes = outcome?["bytes"] as? Int ?? 0
            let received = outcome?["received"] as? Int ?? 0
            guard received == records + fields.count else {
                FileHandle.standardError.write(Data("received \(received), expected \(records + fields.count)\n".utf8))
                exit(1)
            }
        }
        times.sort()
        say(
            String(
                format:
                    "sync %d records and %d fields to an empty device, whole process, 3 runs: median %.3f s (target 2 s: %.2fx), %.1f MB of bodies",
                records, fields.count, times[1], times[1] / 2, Double(bytes) / 1e6))

        // Writes under wrk: each request one new record on one of the 200 fields.
        let script = home.appendingPathComponent("post.lua")
        let cookie = try signIn(address, password: password)
        try Wrk.script(cookie: cookie, fields: fields.map { $0.id.uuidString }).write(
            to: script, atomically: true, encoding: .utf8)
        let before = CPU.now()
        let report = try Wrk.run(
            ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script.path, address + "/api/v1/sync"])
        let after = CPU.now()
        let store2 = try openStore(journalDB)
        let stored = try store2.lastSequence(farm: farm.id)
        say(
            String(
                format:
                    "write records through %d instance(s) (%@), wrk -c%@ %@ s: %.0f writes/s (target 500: %.2fx), p99 %.1f ms (target 50 ms: %.2fx), %d non-2xx, farm at change %lld",
                instances, journalDB.hasPrefix("postgres") ? "PostgreSQL" : "SQLite", connections, seconds,
                report.rate, report.rate / 500, report.p99, report.p99 / 50, report.errors, stored))
        // Where the CPU went while wrk ran: a write's CPU in agro and in PostgreSQL, and the most
        // writes a second the machine's cores could give them if nothing else ran (wrk, nginx,
        // builds).
        let writes = report.rate * (Double(seconds) ?? 10)
        // By the name the kernel keeps (15 bytes: a copy named agro-full-before is "agro-full-befor").
        func used(_ prefix: String) -> Double {
            after.byName.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +)
                - before.byName.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +)
        }
        let agroCPU = used("agro-full"), postgresCPU = used("postgres")
        let perWrite = (agroCPU + postgresCPU) / max(1, writes) * 1000
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        say(
            String(
                format:
                    "CPU while wrk ran: machine %.0f%% busy; per write %.2f ms in agro + %.2f ms in PostgreSQL = %.2f ms, so %d cores give at most %.0f writes/s (target 500: %.2fx of that limit; measured %.2fx of it)",
                (1 - (after.idle - before.idle) / max(0.001, after.total - before.total)) * 100,
                agroCPU / max(1, writes) * 1000, postgresCPU / max(1, writes) * 1000, perWrite, Int(cores),
                cores * 1000 / perWrite, 500 / (cores * 1000 / perWrite), report.rate / (cores * 1000 / perWrite)))
    }

    static func openStore(_ location: String) throws -> any FarmStore {
        location.hasPrefix("postgres") ? try PostgresFarmStore(url: location) : try SQLiteFarmStore(path: location)
    }

    /// A session cookie for the bench account.
    static func signIn(_ address: String, password: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "-D", "-", "-o", "/dev/null", "-H", "Content-Type: application/json", "-d",
            #"{"user": "bench", "password": "\#(password)"}"#, address + "/api/v1/session",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let head = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("set-cookie:") }),
            let pair = line.dropFirst("set-cookie:".count).split(separator: ";").first
        else { throw BenchError("no session: " + head) }
        return pair.trimmingCharacters(in: .whitespaces)
    }
}

/// A line on standard output at once (print's buffer would hide how far a stalled run got).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A user-data folder and the `agro web` processes started from it.
final class Home: @unchecked Sendable {
    let root: URL
    let agro: String
    private var servers: [Process] = []

    init(root: URL, agro: String) {
        self.root = root
        self.agro = agro
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        [
            "HOME": root.path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path, "PATH": "/usr/bin:/bin", "LANG": "C",
        ]
    }

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: agro)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("agro \(arguments.joined(separator: " ")): " + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Starts `agro web --farm-journal` on a free loopback port; its port.
    func startWeb(journalDB: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: agro)
        // wrk is one client address standing for many phones: the per-client cap is lifted.
        process.arguments = [
            "web", "--host", "127.0.0.1", "--port", "0", "--farm-journal", "--journal-db", journalDB,
            "--requests-per-client", "1024", "--connections-per-client", "1024",
        ]
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        // The access log goes to a file: a pipe nobody reads would stall the server.
        let log = root.appendingPathComponent("web-\(servers.count).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        servers.append(process)
        var text = ""
        while !text.contains("Listening on") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { throw BenchError("agro web stopped: " + (try String(contentsOf: log, encoding: .utf8))) }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(text[range].split(separator: ":")[1])
        else { throw BenchError("no port in " + text) }
        return port
    }

    func stopAll() {
        for server in servers where server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        Nginx.stop()
    }
}

/// nginx in front of several instances, on loopback (Debian's nginx-light), in the foreground as
/// a child of this process, stopped by `stop()`.
enum Nginx {
    nonisolated(unsafe) static var process: Process?

    static func start(in home: URL, upstreams: [Int]) throws -> Int {
        let port = try freeLoopbackPort()
        let directory = home.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
            daemon off; pid \(directory.path)/nginx.pid; error_log \(directory.path)/error.log;
            worker_processes 2;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(directory.path)/body; proxy_temp_path \(directory.path)/proxy;
                fastcgi_temp_path \(directory.path)/f; uwsgi_temp_path \(directory.path)/u; scgi_temp_path \(directory.path)/s;
                upstream agro { \(upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: " ")) keepalive 32; }
                server {
                    listen 127.0.0.1:\(port);
                    client_max_body_size 16m;
                    location / {
                        proxy_pass http://agro; proxy_http_version 1.1; proxy_set_header Connection "";
                        proxy_set_header Host $host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
                    }
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-c", file.path, "-p", directory.path]
        try nginx.run()
        process = nginx
        for _ in 0..<100 {
            if let socket = try? loopbackConnection(port: port) {
                close(socket)
                return port
            }
            guard nginx.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BenchError("nginx did not start: see " + directory.appendingPathComponent("error.log").path)
    }

    static func stop() {
        // SIGKILL to the process group (Process starts nginx in one of its own): nginx under
        // Process keeps SIGTERM pending (NginxPipelineTests), and its workers outlive a killed
        // master. Reaped here: Foundation left the killed master a zombie and `waitUntilExit()`
        // waiting for ever.
        guard let process, process.isRunning else { return }
        kill(-process.processIdentifier, SIGKILL)
        var status: Int32 = 0
        waitpid(process.processIdentifier, &status, 0)
    }
}

/// wrk with a script that posts one new record per request.
enum Wrk {
    static func script(cookie: String, fields: [String]) -> String {
        """
        local fields = {\(fields.map { "\"\($0)\"" }.joined(separator: ","))}
        local counter = 0
        local thread_seed = 0
        local threads = 0
        -- Each thread its own random ids: unseeded, every thread would make the same ones.
        function setup(thread)
          threads = threads + 1
          thread:set("number", threads)
        end
        function init(args)
          math.randomseed(os.time() * 1000 + number)
          thread_seed = math.random(1, 1000000000)
        end
        local function uuid()
          return string.format("%08x-%04x-4%03x-8%03x-%012x", math.random(0, 0xffffffff), math.random(0, 0xffff),
            math.random(0, 0xfff), math.random(0, 0xfff), math.random(0, 0xffffffffffff))
        end
        request = function()
          counter = counter + 1
          local id = uuid()
          local field = fields[(counter + thread_seed) % #fields + 1]
          local body = '{"changes": [{"kind": "record", "record": {"id": "' .. id .. '", "revision": "' .. id ..
            '", "field": "' .. field .. '", "start": "2026-07-01", "bbch": 61, "products": [{"product": ' ..
            '"prothioconazole-tebuconazole-250-ec", "dose": 0.8, "unit": "l/ha", "pests": []}], "weather": {}, "writtenAt": 0}}]}'
          return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Cookie"] = "\(cookie)"}, body)
        end
        local refused = 0
        response = function(status, headers, body)
          if status ~= 200 and refused < 3 then
            refused = refused + 1
            io.write("refused " .. status .. ": " .. body:gsub("%s+", " ") .. "\\n")
          end
        end
        """
    }

    struct Report {
        var rate: Double
        var p99: Double
        var errors: Int
    }

    static func run(_ arguments: [String]) throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func number(after label: String) -> Double? {
            guard
                let line = text.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
            else { return nil }
            let field = line.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            let token = field.split(separator: " ").first.map(String.init) ?? ""
            if token.hasSuffix("ms") { return Double(token.dropLast(2)) }
            if token.hasSuffix("us") { return Double(token.dropLast(2)).map { $0 / 1000 } }
            if token.hasSuffix("s") { return Double(token.dropLast(1)).map { $0 * 1000 } }
            return Double(token)
        }
        let errors = text.split(separator: "\n").first { $0.contains("Non-2xx") }.flatMap {
            Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        say(text)
        return Report(rate: number(after: "Requests/sec:") ?? 0, p99: number(after: "99%") ?? 0, errors: errors ?? 0)
    }
}

/// CPU time from /proc: the machine's (all cores, and idle) and each program's by name, in seconds.
struct CPU {
    var total: Double = 0
    var idle: Double = 0
    var byName: [String: Double] = [:]

    static func now() -> CPU {
        var cpu = CPU()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        if let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first
        {
            let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            cpu.total = values.reduce(0, +) / ticks
            cpu.idle = (values.count > 4 ? values[3] + values[4] : 0) / ticks
        }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            // After the name: state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            cpu.byName[name, default: 0] += (user + system) / ticks
        }
        return cpu
    }
}
