import AgroDomain
import AgroPresentation
import AgroStore
import Foundation

// The documents of the commands about catalog files (`agro catalog info`, `agro db status`,
// `verify`, `check`, `update`): the JSON each prints with `--format json` (docs/json-keys.md)
// and the card or line it prints as a table. The commands only gather the facts.

/// `agro catalog info`: the catalog file in use and what it says of itself.
///
/// `/api/v1/catalog` answers with `info` alone: the file's path and size are the server's
/// business, not a browser's.
struct CatalogFileDocument: Encodable, Sendable {
    var path: String
    /// Bytes.
    var size: Int
    /// sha256 of the catalog's content (`ContentHash`).
    var contentHash: String
    var info: CatalogInfo

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case path, size, contentHash, info }

    /// The table: the catalog's title, then one fact a line.
    func card(_ environment: Environment) -> [String] {
        let s = environment.strings
        var facts =
            CatalogFileDocument.facts(info, s) + [
                (s("field.path"), path), (s("field.size"), s.bytes(Int64(size))),
                (s("field.contentHash"), contentHash),
            ]
        if let attribution = info.attribution { facts.append((s("field.attribution"), attribution)) }
        return Card.head(name: info.title, facts: facts, description: nil, environment: environment)
    }

    /// The facts every card of a catalog starts with: identity, version, schema, build time, languages.
    static func facts(_ info: CatalogInfo, _ s: Localizer) -> [(String, String)] {
        [
            (s("field.identity"), info.identity), (s("field.version"), String(info.version)),
            (s("field.schema"), String(info.schemaVersion)), (s("field.built"), s.timestamp(info.builtAt)),
            (s("field.locales"), info.locales.locales.joined(separator: ", ")),
        ]
    }

}

/// `agro db status`: the catalog in use (bundled or installed), the one kept for a rollback,
/// the last update check.
struct CatalogStatusDocument: Encodable, Sendable {
    var source: CatalogSource
    var path: String
    /// Bytes.
    var size: Int64
    var info: CatalogInfo
    var previous: CatalogInfo?
    /// ISO 8601, UTC.
    var lastCheck: String?
    var warning: String?

    /// The document of `status`, with `info` read in the reader's language.
    init(_ status: CatalogStatus, info: CatalogInfo) {
        source = status.active.source
        path = status.active.path
        size = status.size
        self.info = info
        previous = status.previous
        lastCheck = status.lastCheck.map { ISO8601DateFormatter().string(from: $0) }
        warning = status.active.warning
    }

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case source, path, size, info, previous, lastCheck, warning }

    /// The table: the catalog's title, then one fact a line.
    func card(_ environment: Environment) -> [String] {
        let s = environment.strings
        var facts =
            [(s("field.origin"), s("db.source." + source.rawValue))] + CatalogFileDocument.facts(info, s) + [
                (s("field.path"), path), (s("field.size"), s.bytes(size)),
                (s("field.lastCheck"), lastCheck.map(s.timestamp) ?? s("db.never")),
            ]
        if let previous { facts.append((s("field.previous"), "\(previous.identity) \(previous.version)")) }
        return Card.head(name: info.title, facts: facts, description: nil, environment: environment)
    }
}

/// `agro db verify`: the catalog in use passed its checks (a failure is an error, status 96).
struct CatalogVerificationDocument: Encodable, Sendable {
    var ok: Bool
    var source: CatalogSource
    var path: String
    var sha256: String
    /// Bytes.
    var size: Int64
    var info: CatalogInfo

    /// The document of a catalog that passed.
    init(source: CatalogSource, path: String, sha256: String, size: Int64, info: CatalogInfo) {
        ok = true
        self.source = source
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.info = info
    }

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case ok, source, path, sha256, size, info }

    /// The table: one line.
    func line(_ s: Localizer) -> String {
        s("db.verify.ok", info.identity, info.version, s("db.source." + source.rawValue), path, sha256)
    }
}

/// `agro db check`: whether the update server has a newer catalog and what it downloads.
struct UpdateCheckDocument: Encodable, Sendable {
    var available: Bool
    var identity: String
    var version: Int
    var schemaVersion: Int
    /// Bytes to download: the deltas when they cost less, else the full catalog.
    var downloadSize: Int64
    var fullDownloadSize: Int64
    /// Deltas in the chain from the installed version (0: the full catalog).
    var deltas: Int
    var notModified: Bool
    var active: CatalogInfo
    var activeSource: CatalogSource

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey {
        case available, identity, version, schemaVersion, downloadSize, fullDownloadSize, deltas, notModified, active
        case activeSource
    }

    /// The table: one line.
    func line(_ s: Localizer) -> String {
        let download = s.bytes(downloadSize)
        switch (available, deltas) {
        case (false, _): return s("db.upToDate", active.identity, active.version)
        case (true, 0): return s("db.check.available", identity, version, active.identity, active.version, download)
        case (true, _):
            return s(
                "db.check.availableDelta", identity, version, active.identity, active.version, download, deltas,
                s.bytes(fullDownloadSize))
        }
    }
}

/// `agro db update`: what is in use after an update, and what was before when it installed one.
struct UpdateDocument: Encodable, Sendable {
    var installed: Bool
    var from: CatalogInfo?
    var to: CatalogInfo

    /// `to` installed over `from`; nothing installed when `from` is nil (`to` is up to date).
    init(from: CatalogInfo?, to: CatalogInfo) {
        installed = from != nil
        self.from = from
        self.to = to
    }

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case installed, from, to }

    /// The table: one line.
    func line(_ s: Localizer) -> String {
        guard let from else { return s("db.upToDate", to.identity, to.version) }
        return s("db.update.installed", to.identity, to.version, from.identity, from.version)
    }
}
