import AgroDomain
import Foundation
import GRDBSQLite

/// A value bound to a statement's parameter.
enum SQLArgument: Sendable, Hashable {
    case text(String?)
    case integer(Int)
}

/// The values of a statement: `?` parameters in order, `:name` parameters by name (the name
/// without its colon). Both kinds may mix in one statement, as GRDB allows.
struct SQLArguments: Sendable {
    var positional: [SQLArgument] = []
    var named: [String: SQLArgument] = [:]

    /// `?` parameters, in order, bound to `texts`.
    init(positional texts: [String] = []) {
        positional = texts.map { .text($0) }
    }
}

/// One row of a statement being stepped, its columns by position.
///
/// The reading functions that serve both the server's catalog (GRDB) and the quick command
/// line (`DirectCatalog`) read their rows through this, so each row is mapped to its model once.
protocol CatalogRow {
    /// The column's text; nil for NULL.
    func string(at index: Int) -> String?
    func double(at index: Int) -> Double?
    func integer(at index: Int) -> Int?
}

extension CatalogRow {
    /// A column that may hold NULL or an empty string, as an optional non-empty string.
    func text(at index: Int) -> String? {
        guard let value = string(at: index), !value.isEmpty else { return nil }
        return value
    }
}

/// What runs the statements of the shared reading functions: GRDB's `Database` on the
/// server's connections, `DirectConnection` in the quick command line.
protocol CatalogReading {
    /// Steps the statement `sql` with `arguments`, handing each row to `body`.
    func each(_ sql: String, _ arguments: SQLArguments, _ body: (any CatalogRow) throws -> Void) throws
}

extension CatalogReading {
    /// The first column of every row, as text.
    func strings(_ sql: String, _ arguments: SQLArguments) throws -> [String] {
        var found: [String] = []
        try each(sql, arguments) { row in if let value = row.string(at: 0) { found.append(value) } }
        return found
    }
}

/// A catalog file opened read-only through the SQLite C API, without GRDB.
///
/// For the one-shot catalog queries of `agro`: GRDB's connection set-up (its configuration,
/// functions and statement authorizer) and the Swift runtime's first look-ups of its generic
/// rows cost a products query 9 M of its 22.6 M instructions (Benchmarks/startup/README.md).
/// Opened as `SQLiteCatalog` opens its connections: immutable, memory-mapped, with the
/// `agro_name` collation.
final class DirectConnection: CatalogReading {
    let path: String
    private let handle: OpaquePointer

    /// - Throws: `CatalogError.missing` when there is no file, `.corrupt` when SQLite cannot
    ///   open it.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw CatalogError.missing(path: path) }
        var handle: OpaquePointer?
        let location = "file:" + SQLiteCatalog.uriPath(path) + "?immutable=1"
        let code = sqlite3_open_v2(location, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw CatalogError.corrupt(path: path, reason: reason)
        }
        self.handle = handle
    }

    /// Readies the connection for catalog queries as `SQLiteCatalog` readies its own: the
    /// `agro_name` collation and the file mapped. A connection that reads only the metadata
    /// (`CatalogStore.identityAndVersion`) goes without.
    func prepareForQueries() throws {
        guard SQLiteCatalog.addNameCollation(handle) == SQLITE_OK else {
            throw CatalogError.corrupt(path: path, reason: "agro_name collation not registered")
        }
        try each("PRAGMA mmap_size = \(SQLiteCatalog.mmapSize)", SQLArguments()) { _ in }
    }

    deinit { sqlite3_close_v2(handle) }

    func each(_ sql: String, _ arguments: SQLArguments, _ body: (any CatalogRow) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        defer { sqlite3_finalize(statement) }
        try bind(arguments, to: statement)
        let row = DirectRow(statement: statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try body(row)
            case SQLITE_DONE: return
            default: throw failure()
            }
        }
    }

    /// Binds each parameter as GRDB does: a named one by its name, a `?` to the next
    /// positional value.
    private func bind(_ arguments: SQLArguments, to statement: OpaquePointer) throws {
        var positional = arguments.positional.makeIterator()
        let count = sqlite3_bind_parameter_count(statement)
        guard count > 0 else { return }
        for index in 1...count {
            let value: SQLArgument?
            if let name = sqlite3_bind_parameter_name(statement, index) {
                value = arguments.named[String(String(cString: name).dropFirst())]
            } else {
                value = positional.next()
            }
            switch value {
            case .text(let text?): sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
            case .integer(let number): sqlite3_bind_int64(statement, index, Int64(number))
            case .text(nil), nil: sqlite3_bind_null(statement, index)
            }
        }
    }

    private func failure() -> CatalogError {
        .corrupt(path: path, reason: String(cString: sqlite3_errmsg(handle)))
    }
}

/// The current row of a statement `DirectConnection` steps.
private struct DirectRow: CatalogRow {
    let statement: OpaquePointer

    func string(at index: Int) -> String? {
        guard let bytes = sqlite3_column_text(statement, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func double(at index: Int) -> Double? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL ? nil : sqlite3_column_double(statement, Int32(index))
    }

    func integer(at index: Int) -> Int? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, Int32(index)))
    }
}
