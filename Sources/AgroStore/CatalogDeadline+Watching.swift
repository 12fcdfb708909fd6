import AgroDomain
import Dispatch
import GRDB
import GRDBSQLite

/// How `SQLiteCatalog` keeps to a `CatalogDeadline`: SQLite's progress handler interrupts a
/// statement once the deadline has passed.
extension CatalogDeadline {
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
