import Foundation
import Synchronization

#if canImport(XCTest)
    import XCTest
#endif

/// A PostgreSQL server of the tests' own: Debian's PostgreSQL 15 binaries run a new cluster in
/// a temporary directory, listening on 127.0.0.1 only (a free port) with its unix socket in
/// that directory, so it needs neither the Debian package's default cluster nor any port of
/// the machine's. Run as the `postgres` user when the tests run as root (PostgreSQL refuses
/// root). The store signs in as `agro`, a role that owns its databases but is no superuser, by
/// password (SCRAM), as a fleet's instances would.
///
///     let cluster = try PostgresCluster.start()
///     let url = try cluster.createDatabase()   // postgresql://agro:…@127.0.0.1:PORT/agro_1
///     defer { cluster.remove() }
///
/// `start()` skips the test when PostgreSQL is not installed and cannot be
/// (`scripts/install-deps postgresql`), except under CI (`CI=true`), where that fails it.
public final class PostgresCluster: Sendable {
    /// Where Debian puts the server's programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"
    /// The temporary directory: the data directory, the socket, the log.
    public let directory: URL
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The `agro` role's password.
    public let password: String
    private var data: URL { directory.appendingPathComponent("data") }
    private var log: URL { directory.appendingPathComponent("server.log") }
    private let state = Mutex((databases: 0, removed: false))

    private init(directory: URL, port: Int, password: String) {
        self.directory = directory
        self.port = port
        self.password = password
    }

    /// Makes and starts a cluster. `durable` false turns fsync off: the tests stop the server
    /// cleanly or not at all, and a loaded machine's disk then costs them nothing.
    public static func start(durable: Bool = false) throws -> PostgresCluster {
        try requireBinaries()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("agro-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cluster = PostgresCluster(
            directory: directory, port: try freeLoopbackPort(), password: UUID().uuidString.lowercased())
        do {
            try cluster.initialize(durable: durable)
            try cluster.start()
            try cluster.psql(
                "CREATE ROLE agro LOGIN PASSWORD '\(cluster.password)'", database: "postgres", superuser: true)
        } catch {
            cluster.remove()
            throw error
        }
        return cluster
    }

    deinit { remove() }

    /// A new, empty database owned by `agro`, and the store's URL for it.
    public func createDatabase() throws -> String {
        let name = state.withLock { state in
            state.databases += 1
            return "agro_\(state.databases)"
        }
        try psql("CREATE DATABASE \(name) OWNER agro", database: "postgres", superuser: true)
        return url(database: name)
    }

    /// The store's URL for `database`, with the password.
    public func url(database: String) -> String {
        "postgresql://agro:\(password)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs SQL with psql as `agro` (or as the superuser over the socket); its output, unaligned
    /// and without headers. Throws `Failure` with psql's words when the server refuses it.
    @discardableResult
    public func psql(_ sql: String, database: String, superuser: Bool = false) throws -> String {
        let target =
            superuser
            ? ["-h", directory.path, "-p", String(port), "-U", "postgres", "-d", database]
            : ["-d", url(database: database)]
        return try Self.run(
            [Self.binaries + "/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"] + target + ["-c", sql],
            asPostgres: superuser)
    }

    /// The database of a store URL made by `createDatabase()`.
    public static func database(of url: String) -> String {
        String(url.split(separator: "/").last ?? "")
    }

    /// Starts the server (after `stop()`), waiting until it accepts connections.
    public func start() throws {
        try pgctl(["start", "-w", "-t", "60", "-l", log.path])
    }

    /// Stops the server: `fast` ends every session (what a restart does), `immediate` is a crash.
    public func stop(mode: String = "fast") throws {
        try pgctl(["stop", "-w", "-t", "60", "-m", mode])
    }

    /// `pg_ctl restart`: the server stops (ending every session) and starts again.
    public func restart() throws {
        try pgctl(["restart", "-w", "-t", "60", "-m", "fast", "-l", log.path])
    }

    /// Stops the server and deletes its directory.
    public func remove() {
        let done = state.withLock { state in
            defer { state.removed = true }
            return state.removed
        }
        guard !done else { return }
        if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
            try? pgctl(["stop", "-w", "-t", "30", "-m", "immediate"])
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's log, for a failure's message.
    public var serverLog: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// A program that failed, with what it printed.
    public struct Failure: Error, CustomStringConvertible {
        /// The command.
        public var command: [String]
        /// Its exit status.
        public var status: Int32
        /// What it printed (standard output and error).
        public var output: String
        /// The command and its words.
        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(output)" }
    }

    // MARK: Making the cluster

    private static func requireBinaries() throws {
        let initdb = binaries + "/initdb"
        if !FileManager.default.isExecutableFile(atPath: initdb) {
            let install = Process()
            install.executableURL = SharedFixtures.packageRoot.appendingPathComponent("scripts/install-deps")
            install.arguments = ["postgresql"]
            install.standardOutput = FileHandle.nullDevice
            install.standardError = FileHandle.nullDevice
            try? install.run()
            install.waitUntilExit()
        }
        try SharedFixtures.tool(initdb)
    }

    private func initialize(durable: Bool) throws {
        let passwordFile = directory.appendingPathComponent("superuser-password")
        try password.write(to: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0 {
            // The server's own user must own its directory; nobody else may read it.
            guard let user = getpwnam("postgres") else {
                throw Failure(command: ["getpwnam"], status: 1, output: "no postgres user")
            }
            for path in [directory.path, passwordFile.path] { chown(path, user.pointee.pw_uid, user.pointee.pw_gid) }
        }
        chmod(directory.path, 0o700)
        try Self.run(
            [
                Self.binaries + "/initdb", "-D", data.path, "-U", "postgres", "--pwfile", passwordFile.path,
                "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync",
            ], asPostgres: true)
        let settings = """

            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = '\(directory.path)'
            fsync = \(durable ? "on" : "off")
            max_connections = 100
            """
        let configuration = data.appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: configuration)
        handle.seekToEndOfFile()
        handle.write(Data(settings.utf8))
        try handle.close()
    }

    /// pg_ctl, through a shell that first closes every descriptor but the three standard ones:
    /// the server it starts outlives it, and would otherwise keep the descriptor by which
    /// Foundation's `Process` learns that its child ended, so `waitUntilExit` would never return.
    private func pgctl(_ arguments: [String]) throws {
        let closing = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
        try Self.run(
            ["/bin/bash", "-c", closing, "pg_ctl", Self.binaries + "/pg_ctl", "-D", data.path] + arguments, asPostgres: true)
    }

    /// Runs a program to its end (as `postgres` when asked and when running as root), its
    /// output in a file: the server pg_ctl starts outlives it and would hold a pipe open.
    @discardableResult
    private static func run(_ command: [String], asPostgres: Bool) throws -> String {
        let process = Process()
        if asPostgres, getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "postgres", "--"] + command
        } else {
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        }
        let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("agro-pg-out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment.removeValue(forKey: "PGPASSWORD")
        process.environment = environment
        // runuser's `postgres` cannot enter root's working directory.
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        try process.run()
        // A test never waits on a hung program for ever.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure(command: command, status: process.terminationStatus, output: text)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
