import Dispatch
import GRDB
import GRDBSQLite

/// A time limit for the catalog reads of one piece of work (a web request), carried as a
/// task-local value: every `SQLiteCatalog` read made while it is set stops with
/// `CatalogDeadline.Exceeded` once the limit has passed, even in the middle of a statement
/// (SQLite's progress handler interrupts it), so no query can hold a reader for long.
public enum CatalogDeadline {
    /// The instant (DispatchTime's uptime nanoseconds) after which reads stop; nil: no limit.
    @TaskLocal public static var current: UInt64?

    /// Runs `body` with reads limited to `seconds` from now.
    public static func within<T>(seconds: Double, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9), operation: body)
    }

    /// The catalog work went past its deadline.
    public struct Exceeded: Error, Sendable {}

    /// How often (in SQLite virtual-machine steps) the deadline is looked at: about every
    /// 0.1 ms of work, too seldom to cost anything measurable.
    static let steps: Int32 = 4096

    /// Runs `body` on `db` with SQLite's progress handler watching `deadline`.
    static func watching<T>(_ db: Database, until deadline: UInt64, _ body: (Database) throws -> T) throws -> T {
        guard let connection = db.sqliteConnection else { return try body(db) }
        if DispatchTime.now().uptimeNanoseconds >= deadline { throw Exceeded() }
        let box = Box(deadline: deadline)
        let context = Unmanaged.passRetained(box).toOpaque()
        sqlite3_progress_handler(
            connection, steps,
            { context in
                guard let context else { return 0 }
                let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
                if DispatchTime.now().uptimeNanoseconds < box.deadline { return 0 }
                box.fired = true
                return 1
            }, context)
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            Unmanaged<Box>.fromOpaque(context).release()
        }
        do {
            return try body(db)
        } catch let error as DatabaseError where box.fired || error.resultCode == .SQLITE_INTERRUPT {
            throw Exceeded()
        }
    }

    private final class Box {
        let deadline: UInt64
        var fired = false
        init(deadline: UInt64) { self.deadline = deadline }
    }
}
