import CSQLiteSession
import Crypto
import Foundation

/// The content hash of a catalog: SHA-256 over its schema and every row, canonically encoded,
/// so that two files with the same content hash alike whatever their page layout, free pages,
/// VACUUM or the SQLite version that wrote them (SQLite's `dbhash` is the model).
///
/// Encoding, in order: `agro-content-1\n`; `S` and the schema rows (type, name, table, SQL of
/// every entry but SQLite's own and the shadow tables of virtual tables), ordered by type and
/// name; then per table, ordered by name, `T`, its name, its column count and each row as `R`
/// followed by its values. Ordinary tables give their rows in primary-key order (all columns
/// when there is no key); virtual tables (the FTS5 search index) give rowid and columns in rowid
/// order, read through their module, so their content counts and their storage does not. A
/// value is one tag byte and a big-endian form: `n` (NULL); `i` and 8 bytes (integer); `f` and
/// the 8 bytes of the IEEE double; `t` or `b`, an 8-byte length and the bytes (text as UTF-8,
/// blob). Then `E`.
///
/// A full download is checked by the sha256 of its file; a catalog built by applying a delta is
/// checked by this hash, which the signed manifest gives for every version it offers.
public enum ContentHash {
    /// The content hash of the catalog file at `path`: 64 lower-case hexadecimal digits.
    ///
    /// - Throws: `UpdateError.catalogRejected` when the file cannot be read as SQLite.
    public static func of(catalog path: String) throws -> String {
        final class Hasher {
            var hash = SHA256()
        }
        let hasher = Hasher()
        var error: UnsafeMutablePointer<CChar>?
        let code = withExtendedLifetime(hasher) {
            agro_content_stream(
                path,
                { context, bytes, size in
                    guard let context, let bytes else { return }
                    let hasher = Unmanaged<Hasher>.fromOpaque(context).takeUnretainedValue()
                    hasher.hash.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: Int(size)))
                }, Unmanaged.passUnretained(hasher).toOpaque(), &error)
        }
        let message = SQLiteShim.take(error)
        guard code == 0 else {
            throw UpdateError.catalogRejected("its content cannot be read (\(message ?? "code \(code)"))")
        }
        return hasher.hash.finalize().hexString
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
