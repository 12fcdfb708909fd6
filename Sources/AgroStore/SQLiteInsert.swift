import GRDB
import GRDBSQLite

/// SQLITE_TRANSIENT (a macro Swift cannot import): SQLite copies the bytes before the call returns.
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

extension String {
    /// Runs `body` on the string's UTF-8 bytes: in place when the string stores them
    /// contiguously (a native string does), without the copy that `withUTF8` on a `var` may
    /// make, or a retain; else on a copy.
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(utf8).withUnsafeBytes(body)
    }
}

/// Binds the values of one insert straight to the SQLite statement, in parameter order.
///
/// A catalog build runs the same few inserts hundreds of thousands of times (some 370 000 rows
/// for the Swiss register). Going through `StatementArguments` boxed every value into a
/// `DatabaseValue` inside a fresh array, which cost more than SQLite's own work; binding here
/// allocates nothing. Values are bound as GRDB binds them (text with SQLITE_TRANSIENT, or from
/// an `InsertCache`'s scratch with SQLITE_STATIC; 64-bit integers, doubles, NULL), so the
/// stored bytes are the same.
struct SQLiteBinder {
    fileprivate let statement: SQLiteStatement
    fileprivate var index: Int32 = 1
    /// Where texts are copied for this statement when a cache is given (see `InsertCache`).
    fileprivate let scratch: UnsafeMutableRawBufferPointer?
    fileprivate var used = 0

    fileprivate init(statement: SQLiteStatement, cache: InsertCache?) {
        self.statement = statement
        scratch = cache?.scratch
    }

    mutating func add(_ text: String?) {
        if let text { add(text) } else { addNull() }
    }

    mutating func add(_ text: String) {
        defer { index += 1 }
        // Read in place: no copy of the string (a retain and a release, on strings the mapping
        // thread holds too, whose counts then move between the cores).
        text.withUTF8Bytes { bind($0) }
    }

    private mutating func addNull() {
        defer { index += 1 }
        sqlite3_bind_null(statement, index)
    }

    /// Binds `bytes` as text at `index`.
    private mutating func bind(_ bytes: UnsafeRawBufferPointer) {
        if let scratch, let target = scratch.baseAddress, bytes.count <= scratch.count - used {
            // Copied into the scratch, which outlives the statement's step: bound without
            // SQLite's own copy (a malloc and free per text, each behind a mutex).
            let start = target + used
            if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
            used += bytes.count
            let characters = start.bindMemory(to: CChar.self, capacity: bytes.count)
            sqlite3_bind_text(statement, index, characters, Int32(bytes.count), nil)
        } else if let base = bytes.baseAddress {
            // An empty buffer may have no address, and a NULL pointer would bind NULL, not ''.
            let characters = base.assumingMemoryBound(to: CChar.self)
            sqlite3_bind_text(statement, index, characters, Int32(bytes.count), sqliteTransient)
        } else {
            sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
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

/// What a catalog writer's inserts reuse: its multi-row statements, prepared once and found by
/// identity rather than by hashing their SQL text (some 600 bytes for 32 rows, hashed on every
/// insert through the connection's statement cache), and memory that the texts of one insert
/// are copied into and bound from with SQLITE_STATIC, without SQLite's own copy (a malloc and
/// a free per text, each behind SQLite's memory mutex).
///
/// SQLite reads bound texts only while the statement steps; every insert binds each parameter
/// afresh before stepping, so the bytes a finished insert left bound are never read again.
/// Texts that do not fit are bound with SQLITE_TRANSIENT, as without a cache. One connection,
/// one thread at a time; `removeStatements()` before the connection closes.
final class InsertCache {
    fileprivate let scratch: UnsafeMutableRawBufferPointer
    private var statements: [ObjectIdentifier: [Statement?]] = [:]

    init(scratchBytes: Int = 1 << 16) {
        scratch = .allocate(byteCount: scratchBytes, alignment: 16)
    }

    deinit { scratch.deallocate() }

    /// The statement inserting `rows` rows of `insert`, prepared on `db` the first time.
    fileprivate func statement(_ insert: MultiRowInsert, rows: Int, in db: Database) throws -> Statement {
        let key = ObjectIdentifier(insert)
        if let statement = statements[key]?[rows - 1] { return statement }
        let statement = try db.makeStatement(sql: insert.sql(rows: rows))
        statements[key, default: Array(repeating: nil, count: insert.maximumRows)][rows - 1] = statement
        return statement
    }

    /// Finalizes the statements: a connection does not close while any is left.
    func removeStatements() { statements.removeAll() }
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
    /// values `bind` adds (every parameter, in order). Texts are bound from `cache` when given.
    func insert(with cache: InsertCache? = nil, _ sql: String, _ bind: (inout SQLiteBinder) -> Void) throws {
        try run(cachedStatement(sql: sql).sqliteStatement, cache: cache, bind)
    }

    fileprivate func run(_ handle: SQLiteStatement, cache: InsertCache?, _ bind: (inout SQLiteBinder) -> Void) throws {
        var binder = SQLiteBinder(statement: handle, cache: cache)
        bind(&binder)
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            return
        }
        let message = lastErrorMessage
        sqlite3_reset(handle)
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: message, sql: String(cString: sqlite3_sql(handle)))
    }
}

/// An insert of several rows in one statement (`INSERT ... VALUES (?, ?), (?, ?), ...`), for
/// the child rows of one record: one statement step instead of one per row. The SQL texts for
/// 1 to `maximumRows` rows are made once. A class: `InsertCache` finds its statements by the
/// instance.
final class MultiRowInsert: Sendable {
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
    /// few statements as `insert.maximumRows` allows; through `cache` when given.
    func insert(
        with cache: InsertCache? = nil, _ insert: MultiRowInsert, count: Int,
        _ bind: (inout SQLiteBinder, Int) -> Void
    ) throws {
        var start = 0
        while start < count {
            let rows = min(insert.maximumRows, count - start)
            let statement = try cache?.statement(insert, rows: rows, in: self) ?? cachedStatement(sql: insert.sql(rows: rows))
            try run(statement.sqliteStatement, cache: cache) { binder in
                for index in start..<(start + rows) { bind(&binder, index) }
            }
            start += rows
        }
    }
}
