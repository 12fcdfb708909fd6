import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import ArgumentParser
import Foundation

struct DbStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the catalog in use: bundled or installed, version, schema, languages, file, size, last check.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var source: CatalogSource
        var path: String
        var size: Int64
        var info: CatalogInfo
        var previous: CatalogInfo?
        /// ISO 8601, UTC.
        var lastCheck: String?
        var warning: String?
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    func run() throws {
        let environment = try Environment(global)
        try environment.refuseCSV("db status")
        let status = try environment.catalogStore.status()
        if let warning = status.active.warning { Terminal.standardError.line("agro: warning: " + warning) }
        let active = status.active
        // The selection read the title in the catalog's default locale; the reader's language wins.
        let info =
            (try? SQLiteCatalog(path: active.path, maximumReaders: 1).catalogInfo(locale: environment.locale)) ?? active.info
        switch environment.format {
        case .json, .csv:  // csv: refused at the start
            try environment.printJSON(
                Document(
                    source: active.source, path: active.path, size: status.size, info: info, previous: status.previous,
                    lastCheck: status.lastCheck.map(Self.timestamp), warning: active.warning))
        case .table:
            let s = environment.strings
            var facts = [
                (s("field.origin"), s("db.source." + active.source.rawValue)),
                (s("field.identity"), info.identity),
                (s("field.version"), String(info.version)),
                (s("field.schema"), String(info.schemaVersion)),
                (s("field.built"), info.builtAt),
                (s("field.locales"), info.locales.locales.joined(separator: ", ")),
                (s("field.path"), active.path),
                (s("field.size"), ByteCountFormatter.string(fromByteCount: status.size, countStyle: .file)),
                (s("field.lastCheck"), status.lastCheck.map(Self.timestamp) ?? s("db.never")),
            ]
            if let previous = status.previous {
                facts.append((s("field.previous"), "\(previous.identity) \(previous.version)"))
            }
            environment.print([environment.bold(info.title), ""] + Card.facts(facts))
        }
    }
}
