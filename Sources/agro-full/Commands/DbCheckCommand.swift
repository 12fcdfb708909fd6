import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import AgroUpdateClient
import ArgumentParser
import Foundation

struct DbCheckCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fetch and verify the server's manifest; say whether an update exists and how much it downloads.",
        discussion: """
            An unchanged manifest costs a 304. Nothing is installed. The size is that of the deltas from the installed \
            version when they cost fewer bytes than the full catalog, whose size is given beside.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var update: UpdateOptions

    func run() async throws {
        let environment = try Environment(global, refusingCSVFor: "db check")
        let configuration = try environment.updateConfiguration(update)
        let check = try await UpdateClient(configuration: configuration, store: environment.catalogStore).check()
        let manifest = check.manifest, active = check.active.info
        let document = UpdateCheckDocument(
            available: check.availability == .available, identity: manifest.identity, version: manifest.catalogVersion,
            schemaVersion: manifest.schemaVersion, downloadSize: check.downloadSize, fullDownloadSize: check.fullDownloadSize,
            deltas: check.deltaChain.count, notModified: check.notModified, active: active, activeSource: check.active.source)
        try environment.print(document) { [document.line(environment.strings)] }
    }
}
