import AgroDomain
import Foundation

/// What a publishing directory says about its catalog: `manifest.json`.
///
/// The publisher signs the manifest's canonical bytes (see `JSONValue.canonicalBytes`): the
/// whole JSON object without its top-level `signature` member. The signed manifest names the
/// compressed catalog file and gives the sha256 and size of the file and of its uncompressed
/// content, so that nothing downloaded is trusted before it has been checked against it.
public struct Manifest: Sendable, Hashable, Codable {
    /// The manifest format this build writes and reads.
    public static let currentFormat = 1
    /// The largest manifest a client reads; anything longer is refused unread.
    public static let maximumSize = 1 << 20

    /// Manifest format version; a client refuses a format it does not know.
    public var format: Int
    /// Whose catalog this is; versions compare only within one identity.
    public var identity: String
    /// The catalog's title, for display.
    public var title: String
    /// Version of the newest catalog, monotonic within the identity.
    public var catalogVersion: Int
    /// Schema version of the newest catalog's file layout.
    public var schemaVersion: Int
    /// The catalog's locales, preferred first.
    public var locales: [String]
    /// When the catalog was built (ISO 8601, from the catalog itself).
    public var builtAt: String
    /// When this manifest was signed (ISO 8601).
    public var publishedAt: String
    /// After this instant (ISO 8601) clients refuse the manifest, so that a stale or replayed
    /// one cannot hold them on an old catalog for ever.
    public var expiresAt: String
    /// The newest catalog's file.
    public var file: CatalogFile
    /// Earlier published versions, newest first; their files stay in the directory.
    public var releases: [Release]
    /// The publisher's policy on version jumps: when present, a client refuses a manifest whose
    /// version exceeds the highest it has installed of this identity by more than this. Absent
    /// (the default), any jump is accepted.
    public var maxVersionStep: Int?
    /// The content hash (`ContentHash`) of the newest catalog: what a catalog built by applying
    /// deltas must hash to. Absent in manifests written before deltas existed.
    public var contentHash: String?
    /// Deltas still published, from earlier versions to later ones (the newest version's first):
    /// a client takes the cheapest chain from its installed version when it costs fewer bytes
    /// than `file`. Absent or empty: full downloads only.
    public var deltas: [Delta]?
    /// Absent in an unsigned manifest, which clients refuse.
    public var signature: Signature?

    /// Creates a manifest; `Publisher` fills and signs it.
    public init(
        format: Int = Manifest.currentFormat, identity: String, title: String, catalogVersion: Int,
        schemaVersion: Int, locales: [String], builtAt: String, publishedAt: String, expiresAt: String,
        file: CatalogFile, releases: [Release] = [], maxVersionStep: Int? = nil, contentHash: String? = nil,
        deltas: [Delta]? = nil, signature: Signature? = nil
    ) {
        self.format = format
        self.identity = identity
        self.title = title
        self.catalogVersion = catalogVersion
        self.schemaVersion = schemaVersion
        self.locales = locales
        self.builtAt = builtAt
        self.publishedAt = publishedAt
        self.expiresAt = expiresAt
        self.file = file
        self.releases = releases
        self.maxVersionStep = maxVersionStep
        self.contentHash = contentHash
        self.deltas = deltas
        self.signature = signature
    }

    /// Size and sha256 (lower-case hex) of a sequence of bytes.
    public struct Digest: Sendable, Hashable, Codable {
        /// SHA-256 of the bytes, 64 lower-case hexadecimal digits.
        public var sha256: String
        /// Number of bytes.
        public var size: Int64
        /// Creates a digest.
        public init(sha256: String, size: Int64) {
            self.sha256 = sha256
            self.size = size
        }
    }

    /// A compressed catalog file in the publishing directory.
    public struct CatalogFile: Sendable, Hashable, Codable {
        /// Path relative to the manifest, e.g. `catalogs/<sha256>.sqlite.gz`: derived from the
        /// content, so the file never changes and caches may keep it for ever.
        public var path: String
        /// `gzip`, the only compression this format knows.
        public var compression: String
        /// The file as published (and downloaded).
        public var compressed: Digest
        /// Its content once decompressed.
        public var uncompressed: Digest
        /// Creates a file entry.
        public init(path: String, compression: String = "gzip", compressed: Digest, uncompressed: Digest) {
            self.path = path
            self.compression = compression
            self.compressed = compressed
            self.uncompressed = uncompressed
        }
    }

    /// An earlier published version.
    public struct Release: Sendable, Hashable, Codable {
        /// Its catalog version.
        public var catalogVersion: Int
        /// Its schema version.
        public var schemaVersion: Int
        /// When it was built (ISO 8601).
        public var builtAt: String
        /// When it was published (ISO 8601).
        public var publishedAt: String
        /// Its compressed file, still in the directory.
        public var file: CatalogFile
        /// Its content hash (absent for versions published before deltas existed).
        public var contentHash: String?
        /// Creates a release entry.
        public init(
            catalogVersion: Int, schemaVersion: Int, builtAt: String, publishedAt: String, file: CatalogFile,
            contentHash: String? = nil
        ) {
            self.catalogVersion = catalogVersion
            self.schemaVersion = schemaVersion
            self.builtAt = builtAt
            self.publishedAt = publishedAt
            self.file = file
            self.contentHash = contentHash
        }
    }

    /// A compressed delta file (`DeltaFile`) that turns one published version into a later one.
    public struct Delta: Sendable, Hashable, Codable {
        /// The version it applies to.
        public var fromVersion: Int
        /// The content hash of the catalog it applies to.
        public var fromContentHash: String
        /// The version it produces.
        public var toVersion: Int
        /// The content hash of the catalog it produces, checked after applying.
        public var toContentHash: String
        /// The file: `deltas/<sha256>.delta.gz`, its compressed and uncompressed sizes and sha256.
        public var file: CatalogFile
        /// Creates a delta entry.
        public init(fromVersion: Int, fromContentHash: String, toVersion: Int, toContentHash: String, file: CatalogFile) {
            self.fromVersion = fromVersion
            self.fromContentHash = fromContentHash
            self.toVersion = toVersion
            self.toContentHash = toContentHash
            self.file = file
        }
    }

    /// An Ed25519 signature over the manifest's canonical bytes.
    public struct Signature: Sendable, Hashable, Codable {
        /// `ed25519`.
        public var algorithm: String
        /// The signer's raw 32-byte public key, base64: tells which trusted key to check with.
        public var publicKey: String
        /// The 64-byte signature, base64.
        public var value: String
        /// Creates a signature entry.
        public init(algorithm: String = "ed25519", publicKey: String, value: String) {
            self.algorithm = algorithm
            self.publicKey = publicKey
            self.value = value
        }
    }

    /// The manifest as a JSON value (signature included when present).
    public var jsonValue: JSONValue {
        // Encoding our own Codable model does not fail (every field is a string, integer or
        // array); should it ever, an empty object signs and verifies as nothing useful.
        guard let data = try? JSONEncoder().encode(self), let value = try? JSONValue.parse(data) else {
            return .object([:])
        }
        return value
    }

    /// The bytes the signature covers: canonical JSON without the `signature` member.
    public var signedBytes: Data { jsonValue.removing("signature").canonicalBytes }

    /// The manifest file's bytes: canonical JSON with the signature, and a final newline.
    public var fileBytes: Data { jsonValue.canonicalBytes + Data("\n".utf8) }

    /// Expiry as a date; nil when the text is not ISO 8601.
    public var expiryDate: Date? { Timestamp.parse(expiresAt) }
}

/// ISO 8601 timestamps in UTC with second precision, as manifests carry them.
enum Timestamp {
    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    static func parse(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }
}
