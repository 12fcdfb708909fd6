import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import AgroUpdateClient
import ArgumentParser
import Foundation

struct DbCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fetch and verify the server's manifest; say whether an update exists and how much it downloads.",
        discussion: """
            An unchanged manifest costs a 304. Nothing is installed. The size is that of the deltas from the installed \
            version when they cost fewer bytes than the full catalog, whose size is given beside.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var update: UpdateOptions

    struct Document: Encodable {
        var available: Bool
        var identity: String
        var version: Int
        var schemaVersion: Int
        var downloadSize: Int64
        var fullDownloadSize: Int64
        var deltas: Int
        var notModified: Bool
        var active: CatalogInfo
        var activeSource: CatalogSource
    }

    func run() async throws {
        let environment = try Environment(global)
        try environment.refuseCSV("db check")
        let configuration = try environment.updateConfiguration(update)
        let check = try await UpdateClient(configuration: configuration, store: environment.catalogStore).check()
        let manifest = check.manifest, active = check.active.info
        switch environment.format {
        case .json, .csv:  // csv: refused at the start
            try environment.printJSON(
                Document(
                    available: check.availability == .available, identity: manifest.identity, version: manifest.catalogVersion,
                    schemaVersion: manifest.schemaVersion, downloadSize: check.downloadSize,
                    fullDownloadSize: check.fullDownloadSize, deltas: check.deltaChain.count, notModified: check.notModified,
                    active: active, activeSource: check.active.source))
        case .table:
            switch check.availability {
            case .available where !check.deltaChain.isEmpty:
                environment.print(
                    environment.strings(
                        "db.check.availableDelta", manifest.identity, manifest.catalogVersion, active.identity, active.version,
                        ByteCountFormatter.string(fromByteCount: check.downloadSize, countStyle: .file), check.deltaChain.count,
                        ByteCountFormatter.string(fromByteCount: check.fullDownloadSize, countStyle: .file)))
            case .available:
                environment.print(
                    environment.strings(
                        "db.check.available", manifest.identity, manifest.catalogVersion, active.identity, active.version,
                        ByteCountFormatter.string(fromByteCount: check.downloadSize, countStyle: .file)))
            case .upToDate:
                environment.print(environment.strings("db.upToDate", active.identity, active.version))
            }
        }
    }
}
