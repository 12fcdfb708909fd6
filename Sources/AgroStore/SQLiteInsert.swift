import GRDB
import GRDBSQLite

/// Binds the values of one insert straight to the SQLite statement, in parameter order.
///
/// A catalog build runs the same few inserts hundreds of thousands of times (some 370 000 rows
/// for the Swiss register). Going through `StatementArguments` boxed every value into a
/// `DatabaseValue` inside a fresh array, which cost more than SQLite's own work; binding here
/// allocates nothing. Values are bound as GRDB binds them (text with SQLITE_TRANSIENT, 64-bit
/// integers, doubles, NULL), so the stored bytes are the same.
struct SQLiteBinder {
    fileprivate let statement: SQLiteStatement
    fileprivate var index: Int32 = 1

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    mutating func add(_ text: String?) {
        defer { index += 1 }
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { bytes in
            // An empty buffer may have no address, and a NULL pointer would bind NULL, not ''.
            if let base = bytes.baseAddress {
                let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                sqlite3_bind_text(statement, index, characters, Int32(bytes.count), Self.transient)
            } else {
                sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
        }
    }

    mutating func add(_ number: Int?) {
        defer { index += 1 }
        if let number { sqlite3_bind_int64(statement, index, Int64(number)) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func add(_ number: Int64) {
        defer { index += 1 }
        sqlite3_bind_int64(statement, index, number)
    }

    mutating func add(_ number: Double?) {
        defer { index += 1 }
        if let number { sqlite3_bind_double(statement, index, number) } else { sqlite3_bind_null(statement, index) }
    }
}

/// A value that binds itself as one parameter: the keys of i18n rows are texts or row ids.
protocol SQLiteBindable {
    func bind(to binder: inout SQLiteBinder)
}

extension String: SQLiteBindable {
    func bind(to binder: inout SQLiteBinder) { binder.add(self) }
}

extension Int64: SQLiteBindable {
    func bind(to binder: inout SQLiteBinder) { binder.add(self) }
}

extension Database {
    /// Runs one insert through the connection's cached prepared statement for `sql`, with the
    /// values `bind` adds (every parameter, in order).
    func insert(_ sql: String, _ bind: (inout SQLiteBinder) -> Void) throws {
        let handle = try cachedStatement(sql: sql).sqliteStatement
        var binder = SQLiteBinder(statement: handle)
        bind(&binder)
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            return
        }
        let message = lastErrorMessage
        sqlite3_reset(handle)
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}

/// An insert of several rows in one statement (`INSERT ... VALUES (?, ?), (?, ?), ...`), for
/// the child rows of one record: one statement step instead of one per row. The SQL texts for
/// 1 to `maximumRows` rows are made once.
struct MultiRowInsert: Sendable {
    private let texts: [String]
    var maximumRows: Int { texts.count }

    /// `prefix` is `INSERT INTO t(a, b) VALUES `; `columns` the number of values per row.
    init(_ prefix: String, columns: Int, maximumRows: Int) {
        let row = "(?" + String(repeating: ", ?", count: columns - 1) + ")"
        texts = (1...maximumRows).map { prefix + Array(repeating: row, count: $0).joined(separator: ", ") }
    }

    func sql(rows: Int) -> String { texts[rows - 1] }
}

extension Database {
    /// Inserts `count` rows, `bind` adding the values of row `index` (0-based) each time, in as
    /// few statements as `insert.maximumRows` allows.
    func insert(_ insert: MultiRowInsert, count: Int, _ bind: (inout SQLiteBinder, Int) -> Void) throws {
        var start = 0
        while start < count {
            let rows = min(insert.maximumRows, count - start)
            try self.insert(insert.sql(rows: rows)) { binder in
                for index in start..<(start + rows) { bind(&binder, index) }
            }
            start += rows
        }
    }
}
