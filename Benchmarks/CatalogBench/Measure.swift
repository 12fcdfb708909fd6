import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic clock readings in milliseconds.
enum Clock {
    static func milliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }

    /// CPU milliseconds the calling thread has used (preemption by other processes does not count).
    static func threadCPUMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds `body` took.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = milliseconds()
        try body()
        return milliseconds() - start
    }
}

/// Order statistics of a sample.
struct Sample {
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    /// The value below which `fraction` of the sample lies (nearest rank).
    func quantile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }

    var median: Double {
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var p90: Double { quantile(0.9) }
}

/// Runs programs directly through posix_spawn, with stdout and stderr sent to /dev/null, and
/// reports the wall time from spawn to exit.
enum ProcessRunner {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Wall milliseconds of one run of `arguments` (the first is the executable path); an exit
    /// status outside `allowing` is a failure (agro plan check exits 20 on violations).
    static func run(_ arguments: [String], environment: [String: String], allowing: Set<Int32> = [0]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let start = Clock.milliseconds()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = Clock.milliseconds() - start
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0, allowing.contains((status >> 8) & 0xff) else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed with wait status \(status)")
        }
        return elapsed
    }

    /// Standard output of one run (for checks), through Foundation.
    static func output(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Statements a traced catalog ran, in order.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ sql: String) {
        lock.lock()
        statements.append(sql)
        lock.unlock()
    }

    /// Takes the statements logged so far, leaving the log empty.
    func drain() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let taken = statements
        statements = []
        return taken
    }

    /// The queries among `statements`: transactions, pragmas, GRDB's own probes and the
    /// statements SQLite runs by itself on FTS5 shadow tables (`'main'.'search_index_config'`)
    /// dropped, since sqlite3 runs those too. The store's name collation (`agro_name`) is
    /// unknown to sqlite3, which sorts those names in binary order instead.
    static func queries(_ statements: [String]) -> [String] {
        statements.filter { sql in
            let head = sql.prefix(8).uppercased()
            guard head.hasPrefix("SELECT") || head.hasPrefix("WITH") else { return false }
            return !sql.contains("sqlite_master") && !sql.contains("'main'.'")
        }.map { $0.replacingOccurrences(of: " COLLATE agro_name", with: "") }
    }
}
