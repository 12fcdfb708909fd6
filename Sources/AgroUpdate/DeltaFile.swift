import CSQLiteSession
import Foundation

/// What a delta file says it does; checked against the signed manifest and the installed
/// catalog before it is applied, so a delta for another identity or version is refused.
public struct DeltaHeader: Sendable, Hashable, Codable {
    /// The catalog identity both versions belong to.
    public var identity: String
    /// The version the delta applies to.
    public var fromVersion: Int
    /// The content hash (`ContentHash`) of the catalog the delta applies to.
    public var fromContentHash: String
    /// The version the delta produces.
    public var toVersion: Int
    /// The content hash of the catalog the delta produces.
    public var toContentHash: String
    /// The section hashes (`ContentHash.sections(of:)`) of the large tables of the catalog the
    /// delta applies to (`DeltaFile.listedTableBytes`): a client takes those of the tables the
    /// changesets leave alone from here and re-hashes only the others (the changed tables, the
    /// small ones and the schema). Absent when no table is that large, and in deltas written
    /// before it existed (the client then hashes the whole result).
    public var fromTableHashes: [String: String]?

    /// Creates a header.
    public init(
        identity: String, fromVersion: Int, fromContentHash: String, toVersion: Int, toContentHash: String,
        fromTableHashes: [String: String]? = nil
    ) {
        self.identity = identity
        self.fromVersion = fromVersion
        self.fromContentHash = fromContentHash
        self.toVersion = toVersion
        self.toContentHash = toContentHash
        self.fromTableHashes = fromTableHashes
    }

    /// Whether the header joins the versions and content hashes `delta` lists (identity too).
    public func describes(_ delta: Manifest.Delta, identity: String) -> Bool {
        self.identity == identity && fromVersion == delta.fromVersion && fromContentHash == delta.fromContentHash
            && toVersion == delta.toVersion && toContentHash == delta.toContentHash
    }
}

/// A delta between two catalog versions: the uncompressed file is `AGRODELTA1\n`, the header
/// as canonical JSON and a newline, then an SQLite changeset (session extension) of every
/// ordinary table. The search index is not in it: the client brings the copy's index up to date
/// after applying (`CatalogStore.refreshSearchIndex`).
public enum DeltaFile {
    static let magic = Data("AGRODELTA1\n".utf8)
    /// The longest header a reader accepts (about 100 bytes per listed table: room for some 600).
    static let maximumHeader = 65536
    /// A table is listed in a delta's header (`DeltaHeader.fromTableHashes`) when its canonical
    /// encoding has at least this many bytes: re-hashing a smaller one costs a client less
    /// than the 40-odd compressed bytes of its hash cost every client on the wire.
    public static let listedTableBytes = 65536

    /// The file's bytes.
    public static func encode(_ header: DeltaHeader, changeset: Data) -> Data {
        let json = (try? JSONEncoder().encode(header)).flatMap { try? JSONValue.parse($0) }?.canonicalBytes ?? Data()
        return magic + json + Data("\n".utf8) + changeset
    }

    /// The header and the changeset of a delta file.
    ///
    /// - Throws: `UpdateError.deltaFailed` when the bytes are not a delta file.
    public static func decode(_ data: Data) throws -> (header: DeltaHeader, changeset: Data) {
        guard data.starts(with: magic) else { throw UpdateError.deltaFailed("a delta file is not in the delta format") }
        let rest = data.dropFirst(magic.count)
        guard let newline = rest.prefix(maximumHeader).firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(DeltaHeader.self, from: Data(rest[rest.startIndex..<newline]))
        else { throw UpdateError.deltaFailed("a delta file has no readable header") }
        return (header, Data(rest[(newline + 1)...]))
    }

    /// The changeset that turns the catalog at `from` into the one at `to`; nil when their
    /// schemas differ (a changeset cannot carry a schema change: clients download the full file).
    ///
    /// - Throws: `UpdateError.catalogRejected` when either file cannot be read.
    public static func changeset(from: String, to: String) throws -> Data? {
        var bytes: UnsafeMutableRawPointer?
        var size: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        let code = agro_delta_diff(from, to, &bytes, &size, &error)
        let message = SQLiteShim.take(error)
        defer { agro_delta_free(bytes) }
        if code == Int32(AGRO_DELTA_SCHEMA) { return nil }
        guard code == 0 else { throw UpdateError.catalogRejected("cannot compare with \(from): \(message ?? "code \(code)")") }
        guard let bytes else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }

    /// Applies changesets in order to the catalog file at `path`, in one transaction: a
    /// conflict or a malformed changeset leaves the file as it was. The file is written without
    /// syncing: apply to a copy not yet in use, and fsync it once checked.
    ///
    /// - Throws: `UpdateError.deltaFailed` saying what went wrong.
    public static func apply(_ changesets: [Data], to path: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code: Int32 = withPointers(changesets) { pointers, sizes in
            agro_delta_apply(path, pointers, sizes, Int32(changesets.count), &error)
        }
        let message = SQLiteShim.take(error)
        switch code {
        case 0: return
        case Int32(AGRO_DELTA_MALFORMED): throw UpdateError.deltaFailed("a delta's changeset is malformed")
        case Int32(AGRO_DELTA_CONFLICT):
            throw UpdateError.deltaFailed("the delta does not fit the installed catalog: \(message ?? "a conflict")")
        default: throw UpdateError.deltaFailed("the delta cannot be applied: \(message ?? "code \(code)")")
        }
    }

    /// The names of the tables the changesets change (insert, update or delete rows of): what the
    /// client needs to know which derived data (the search index) they may have made stale.
    ///
    /// - Throws: `UpdateError.deltaFailed` when a changeset is malformed (checked before SQLite
    ///   reads it: SQLite 3.40's reader loops for ever on a truncated table header).
    public static func tables(changedBy changesets: [Data]) throws -> Set<String> {
        final class Names {
            var names: Set<String> = []
        }
        let names = Names()
        for changeset in changesets {
            var error: UnsafeMutablePointer<CChar>?
            let code = withExtendedLifetime(names) {
                withPointers([changeset]) { pointers, sizes in
                    agro_changeset_tables(
                        pointers[0], sizes[0],
                        { context, table in
                            guard let context, let table else { return }
                            Unmanaged<Names>.fromOpaque(context).takeUnretainedValue().names.insert(String(cString: table))
                        }, Unmanaged.passUnretained(names).toOpaque(), &error)
                }
            }
            let message = SQLiteShim.take(error)
            if code == Int32(AGRO_DELTA_MALFORMED) { throw UpdateError.deltaFailed("a delta's changeset is malformed") }
            guard code == 0 else { throw UpdateError.deltaFailed("the delta cannot be read: \(message ?? "code \(code)")") }
        }
        return names.names
    }

    private static func withPointers<R>(
        _ buffers: [Data], _ body: ([UnsafeRawPointer?], [Int32]) -> R
    ) -> R {
        // Copies held for the duration of the call; changesets are small next to a catalog.
        let copies = buffers.map { data -> UnsafeMutableRawPointer in
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(1, data.count), alignment: 8)
            data.withUnsafeBytes { if let base = $0.baseAddress { pointer.copyMemory(from: base, byteCount: data.count) } }
            return pointer
        }
        defer { copies.forEach { $0.deallocate() } }
        return body(copies.map { UnsafeRawPointer($0) }, buffers.map { Int32(clamping: $0.count) })
    }
}

extension Manifest {
    /// The cheapest chain of deltas (fewest compressed bytes) from the catalog whose content
    /// hash is `contentHash` at `version` to the manifest's newest catalog; nil when there is
    /// none. Each step must raise the version, so the search ends.
    public func deltaChain(fromContentHash contentHash: String, version: Int) -> [Delta]? {
        guard let target = self.contentHash, let deltas, contentHash != target else { return nil }
        // Versions only rise along a chain: relaxing edges in order of their source version
        // visits every node after all its incoming edges (a shortest path in a DAG).
        var best: [String: (bytes: Int64, version: Int, chain: [Delta])] = [contentHash: (0, version, [])]
        for delta in deltas.sorted(by: { $0.fromVersion < $1.fromVersion }) where delta.toVersion > delta.fromVersion {
            guard let from = best[delta.fromContentHash], from.version == delta.fromVersion else { continue }
            let bytes = from.bytes + delta.file.compressed.size
            if let known = best[delta.toContentHash], known.bytes <= bytes { continue }
            best[delta.toContentHash] = (bytes, delta.toVersion, from.chain + [delta])
        }
        guard let found = best[target], found.version == catalogVersion else { return nil }
        return found.chain
    }
}
