import CSQLiteSession
import Crypto
import Foundation

/// The content hash of a catalog: SHA-256 over the hashes of its schema and of each of its
/// tables, each canonically encoded, so that two files with the same content hash alike whatever
/// their page layout, free pages, VACUUM or the SQLite version that wrote them (SQLite's `dbhash`
/// is the model). Made of per-table hashes so that a client that changed a few tables re-reads
/// only those (`sections(of:only:except:)`, `combine(_:)`).
///
/// Definition `agro-content-2`. A value is one tag byte and a big-endian form: `n` (NULL); `i`
/// and 8 bytes (integer); `f` and the 8 bytes of the IEEE double; `t` or `b`, an 8-byte length
/// and the bytes (text as UTF-8, blob). A row is `R` followed by its values; a query's rows are
/// preceded by its column count (8 bytes).
/// - The schema section (named `sqlite_schema`): `S`, then the schema rows (type, name, table,
///   SQL of every entry but SQLite's own and the shadow tables of virtual tables), ordered by
///   type and name.
/// - A table's section: `T`, its name (as a text value), then its rows. Ordinary tables give
///   their rows in primary-key order (all columns when there is no key); virtual tables (the
///   FTS5 search index) give rowid and columns in rowid order, read through their module, so
///   their content counts and their storage does not.
/// - The content hash: SHA-256 of `agro-content-2\n`, the 32-byte SHA-256 of the schema section,
///   the 32-byte SHA-256 of each table's section, tables in the byte order of their names, and `E`.
///
/// A full download is checked by the sha256 of its file; a catalog built by applying a delta is
/// checked by this hash, which the signed manifest gives for every version it offers.
public enum ContentHash {
    /// The name of the schema's section among the table names.
    public static let schemaSection = "sqlite_schema"
    /// The first bytes hashed: which definition a hash follows (`agro-content-1` hashed the
    /// encoded rows of all tables in one stream; its hashes match none of this one's).
    static let definition = "agro-content-2\n"

    /// The content hash of the catalog file at `path`: 64 lower-case hexadecimal digits.
    ///
    /// - Throws: `UpdateError.catalogRejected` when the file cannot be read as SQLite.
    public static func of(catalog path: String) throws -> String {
        let all = try sections(of: path)
        guard let hash = combine(all) else { throw UpdateError.catalogRejected("its content cannot be read (no schema)") }
        return hash
    }

    /// The SHA-256 (64 lower-case hexadecimal digits) of each section of the catalog at `path`,
    /// by name (`schemaSection` for the schema, else the table's name); only the sections named
    /// in `only` when given (names the catalog lacks are left out of the answer), and none of
    /// those named in `except`.
    ///
    /// - Throws: `UpdateError.catalogRejected` when the file cannot be read as SQLite.
    public static func sections(of path: String, only: Set<String>? = nil, except: Set<String> = []) throws -> [String: String] {
        try measuredSections(of: path, only: only, except: except).mapValues(\.digest)
    }

    /// The sections' digests and the sizes of their encodings (what hashing them reads).
    static func measuredSections(
        of path: String, only: Set<String>? = nil, except: Set<String> = []
    ) throws -> [String: (digest: String, bytes: Int)] {
        final class Hashers {
            var current: (name: String, hash: SHA256, bytes: Int)?
            var done: [String: (digest: String, bytes: Int)] = [:]
            func finish() {
                if let current { done[current.name] = (current.hash.finalize().hexString, current.bytes) }
                current = nil
            }
        }
        let hashers = Hashers()
        // `only` minus `except`, or everything but `except`.
        let names = only.map { Array($0.subtracting(except)) } ?? Array(except)
        var error: UnsafeMutablePointer<CChar>?
        let code = withExtendedLifetime(hashers) {
            withCStrings(names) { pointers in
                agro_content_stream(
                    path, pointers, only == nil && except.isEmpty ? -1 : Int32(pointers.count), only == nil ? 1 : 0,
                    { context, name in
                        guard let context, let name else { return }
                        let hashers = Unmanaged<Hashers>.fromOpaque(context).takeUnretainedValue()
                        hashers.finish()
                        hashers.current = (String(cString: name), SHA256(), 0)
                    },
                    { context, bytes, size in
                        guard let context, let bytes else { return }
                        let hashers = Unmanaged<Hashers>.fromOpaque(context).takeUnretainedValue()
                        hashers.current?.hash.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: Int(size)))
                        hashers.current?.bytes += Int(size)
                    }, Unmanaged.passUnretained(hashers).toOpaque(), &error)
            }
        }
        let message = SQLiteShim.take(error)
        guard code == 0 else {
            throw UpdateError.catalogRejected("its content cannot be read (\(message ?? "code \(code)"))")
        }
        hashers.finish()
        return hashers.done
    }

    /// The content hash made of section hashes (as `sections(of:)` gives them): nil when the
    /// schema's is missing or a hash is not 64 hexadecimal digits.
    public static func combine(_ sections: [String: String]) -> String? {
        guard let schema = sections[schemaSection].flatMap(bytes(ofHex:)) else { return nil }
        var hash = SHA256()
        hash.update(data: Data(definition.utf8))
        hash.update(data: schema)
        let tables = sections.keys.filter { $0 != schemaSection }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for table in tables {
            guard let digest = sections[table].flatMap(bytes(ofHex:)) else { return nil }
            hash.update(data: digest)
        }
        hash.update(data: Data("E".utf8))
        return hash.finalize().hexString
    }

    /// The 32 bytes of a SHA-256 written in hexadecimal; nil for anything else.
    static func bytes(ofHex hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = Data(capacity: 32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// C strings for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

/// Messages and buffers from the C shim.
enum SQLiteShim {
    /// The message, released.
    static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { agro_delta_free(pointer) }
        return String(cString: pointer)
    }
}
