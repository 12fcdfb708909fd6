import AgroDomain
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A few connections to one PostgreSQL database, used from blocking threads: the store's
/// protocol is synchronous (the web runs journal work on its own blocking threads), so each
/// call waits here for postgres-nio's futures, which run on NIO's event loops. Waiting on an
/// event-loop thread would stall it, so that is refused.
///
/// A connection that fails (the server restarted, the network dropped) is closed and forgotten;
/// the next call opens a new one. So the store recovers by itself when PostgreSQL is back, and
/// until then every call throws `FarmError.storeUnavailable`.
///
/// @unchecked: a caller waits for a free connection on an `NSCondition`, which guards the pool.
final class PostgresConnections: @unchecked Sendable {
    let location: PostgresLocation
    let maximum: Int
    /// How long one statement may take before its connection is given up.
    let statementTimeout: TimeInterval
    private let configuration: PostgresConnection.Configuration
    private let group: any EventLoopGroup
    // postgres-nio logs each query at debug level and the connection's life at others; the
    // store reports what matters as errors, and a password never reaches a log.
    private let logger = Logger(label: "agro.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var opened = 0
    private var nextID = 0
    private var closed = false

    init(location: PostgresLocation, maximum: Int, statementTimeout: TimeInterval = 30) throws {
        self.location = location
        self.maximum = max(1, maximum)
        self.statementTimeout = statementTimeout
        configuration = try location.configuration()
        group = MultiThreadedEventLoopGroup.singleton
    }

    /// Runs `body` with a connection of its own. A connection failure, or a server that cannot
    /// take connections now, becomes `FarmError.storeUnavailable`; a connection that was idle
    /// in the pool and turns out dead (the server restarted since) is replaced once before
    /// anything is reported, because nothing was sent on it.
    @discardableResult
    func with<T>(_ body: (SQLSession) throws -> T) throws -> T {
        var fresh = false
        while true {
            let (connection, new) = try checkOut(fresh: fresh)
            let session = SQLSession(connection: connection, connections: self)
            do {
                let result = try body(session)
                checkIn(connection)
                return result
            } catch let error {
                let lost = Self.isConnectionLost(error) || connection.isClosed
                if lost {
                    discard(connection)
                } else {
                    checkIn(connection)
                }
                if lost, !new, session.statements == 1, !fresh {
                    fresh = true
                    continue
                }
                throw Self.mapped(error)
            }
        }
    }

    /// Closes every idle connection, and each lent one when it comes back; calls after this
    /// fail. Does not wait, so it may run anywhere (a deinit, an event loop).
    func close() {
        condition.lock()
        closed = true
        let connections = idle
        idle = []
        condition.broadcast()
        condition.unlock()
        for connection in connections { Self.closeQuietly(connection) }
    }

    private func checkOut(fresh: Bool) throws -> (PostgresConnection, new: Bool) {
        condition.lock()
        while true {
            guard !closed else {
                condition.unlock()
                throw FarmError.storeUnavailable("the store is closed")
            }
            if !fresh, let connection = idle.popLast() {
                if connection.isClosed {
                    opened -= 1
                    continue
                }
                condition.unlock()
                return (connection, false)
            }
            if fresh, let connection = idle.popLast() {
                // After a dead idle connection the others are likely dead too: start afresh.
                opened -= 1
                Self.closeQuietly(connection)
                continue
            }
            if opened < maximum { break }
            guard condition.wait(until: Date() + statementTimeout) else {
                condition.unlock()
                throw FarmError.storeUnavailable("every connection to \(location) is busy")
            }
        }
        opened += 1
        nextID += 1
        let id = nextID
        condition.unlock()
        let future = PostgresConnection.connect(on: group.next(), configuration: configuration, id: id, logger: logger)
        do {
            return (try wait(future, timeout: statementTimeout), true)
        } catch {
            // A connection that comes after its caller gave up is closed, not left open.
            if error is Timeout { future.whenSuccess { Self.closeQuietly($0) } }
            if let reason = Self.connectionRefusal(error) {
                condition.lock()
                opened -= 1
                condition.signal()
                condition.unlock()
                throw FarmError.storeUnavailable("cannot connect to \(location): \(reason)")
            }
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw Self.mapped(error)
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        condition.lock()
        if closed || connection.isClosed {
            opened -= 1
            condition.signal()
            condition.unlock()
            if !connection.isClosed { Self.closeQuietly(connection) }
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    private func discard(_ connection: PostgresConnection) {
        condition.lock()
        opened -= 1
        condition.signal()
        condition.unlock()
        Self.closeQuietly(connection)
    }

    /// Starts closing a connection without waiting for it.
    private static func closeQuietly(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        // Held until closed: postgres-nio asserts that a connection is closed when it goes.
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Waits for `future` on this (blocking) thread, at most `timeout` seconds.
    func wait<T: Sendable>(_ future: EventLoopFuture<T>, timeout: TimeInterval) throws -> T {
        precondition(
            MultiThreadedEventLoopGroup.currentEventLoop == nil,
            "the PostgreSQL store is synchronous: call it from a blocking thread, never from an event loop")
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        future.whenComplete { result in
            box.set(result)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let result = box.get() else {
            throw Timeout(seconds: timeout)
        }
        return try result.get()
    }

    /// A statement or connection attempt that took longer than allowed.
    struct Timeout: Error {
        var seconds: TimeInterval
    }

    /// The system's words for a connection the network refused ("Connection refused"), if so.
    private static func connectionRefusal(_ error: any Error) -> String? {
        let underlying = (error as? PSQLError)?.underlying ?? error
        guard let failure = (underlying as? NIOConnectionError)?.connectionErrors.first else { return nil }
        if let error = failure.error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(failure.error)"
    }

    /// Whether the error means the connection is gone (or never came), rather than a refusal
    /// of one statement.
    static func isConnectionLost(_ error: any Error) -> Bool {
        if error is Timeout || error is ChannelError || error is IOError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown,
            .messageDecodingFailure, .unexpectedBackendMessage, .sslUnsupported, .failedToAddSSLHandler:
            return true
        case .server:
            return unavailableStates.contains(error.serverInfo?[.sqlState].map { String($0.prefix(2)) } ?? "")
                || unavailableStates.contains(error.serverInfo?[.sqlState] ?? "")
        default: return false
        }
    }

    /// SQLSTATEs and classes that mean "not now": connection exceptions (08), the server
    /// shutting down or starting up (57P01-57P03), too many connections (53300), out of disk
    /// or memory (53100, 53200), a read-only standby (25006).
    private static let unavailableStates: Set<String> = ["08", "57P01", "57P02", "57P03", "53300", "53100", "53200", "25006"]

    /// The store's error for `error`: the domain's own errors pass; a lost connection, a server
    /// that cannot answer now, or any other refusal the store did not expect becomes
    /// `FarmError.storeUnavailable` with the server's words.
    static func mapped(_ error: any Error) -> any Error {
        switch error {
        case is FarmError, is JournalError, is PostgresStoreError: return error
        case let error as Timeout: return FarmError.storeUnavailable("no answer in \(Int(error.seconds)) s")
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (\($0))" } ?? ""
                return FarmError.storeUnavailable(message + state)
            }
            if let underlying = error.underlying { return FarmError.storeUnavailable("\(underlying)") }
            return FarmError.storeUnavailable(error.code.description)
        default: return FarmError.storeUnavailable("\(error)")
        }
    }
}

/// One connection lent to one call: its statements, and transactions on it.
struct SQLSession {
    let connection: PostgresConnection
    let connections: PostgresConnections
    private let counter = Counter()

    init(connection: PostgresConnection, connections: PostgresConnections) {
        self.connection = connection
        self.connections = connections
    }

    /// How many statements were sent on this session.
    var statements: Int { counter.value }

    /// Runs one statement (its values bound, never spliced) and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        counter.value += 1
        let logger = Logger(label: "agro.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        return try connections.wait(connection.query(query, logger: logger), timeout: connections.statementTimeout).rows
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (or
    /// when it returns false as `commit`: a write that finds its change already stored leaves
    /// no trace, not even a used number).
    func transaction<T>(_ body: () throws -> (T, commit: Bool)) throws -> T {
        try query("BEGIN")
        do {
            let (result, commit) = try body()
            try query(commit ? "COMMIT" : "ROLLBACK")
            return result
        } catch {
            if !PostgresConnections.isConnectionLost(error) { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Counts across the struct's copies; a session stays on its caller's thread, so no lock.
    private final class Counter {
        var value = 0
    }
}

/// A future's result handed from its event loop to the thread waiting for it.
private final class ResultBox<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)

    func set(_ result: Result<T, any Error>) {
        self.result.withLock { $0 = result }
    }

    func get() -> Result<T, any Error>? {
        result.withLock { $0 }
    }
}
