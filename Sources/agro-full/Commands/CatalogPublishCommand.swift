import AgroCLI
import AgroPresentation
import AgroUpdate
import ArgumentParser
import Foundation

/// `agro catalog publish`: compresses a catalog into a publishing directory and signs its manifest.
struct CatalogPublishCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a catalog file into a directory that agro serve (or any static web server) serves.",
        discussion: """
            Writes DIR/catalogs/<sha256>.sqlite.gz, a delta from each of the last --deltas published versions \
            (DIR/deltas/<sha256>.delta.gz), then DIR/manifest.json signed with the key. Earlier versions stay \
            published. A version not greater than the newest published one is refused (exit status 64).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The catalog file to publish.") var catalog: String
    @Option(help: ArgumentHelp("The publishing directory (created if needed).", valueName: "dir")) var to: String
    @Option(help: ArgumentHelp("The private key file written by agro keys generate.", valueName: "prefix.key")) var key: String
    @Option(help: ArgumentHelp("Days clients accept the manifest; publish again before then.", valueName: "days"))
    var expiryDays: Int = 30
    @Option(
        help: ArgumentHelp(
            "Clients refuse a manifest whose version exceeds the highest they installed by more than this.",
            valueName: "n"))
    var maxVersionStep: Int?
    @Option(
        help: ArgumentHelp(
            "Write a delta from each of the last n published versions to this one (0: none).", valueName: "n"))
    var deltas: Int = 3

    func validate() throws {
        let command = "agro catalog publish"
        if deltas < 0 || deltas > 50 {
            throw UsageError(.outOfRange(option: "--deltas", value: String(deltas), minimum: 0, maximum: 50), command: command)
        }
        // An upper bound too: the expiry must stay a date every client can format and compare.
        if expiryDays < 1 || expiryDays > 36_500 {
            throw UsageError(
                .outOfRange(option: "--expiry-days", value: String(expiryDays), minimum: 1, maximum: 36_500), command: command)
        }
        if let maxVersionStep, maxVersionStep < 1 {
            throw UsageError(
                .belowMinimum(option: "--max-version-step", value: String(maxVersionStep), minimum: 1), command: command)
        }
    }

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "catalog publish")
        let pair = try KeyPair.read(privateKeyFile: key)
        let manifest = try Publisher.publish(
            catalog: catalog, to: to, key: pair, expiry: TimeInterval(expiryDays) * 24 * 3600,
            maxVersionStep: maxVersionStep, deltas: deltas)
        let s = environment.strings
        try environment.print(manifest) {
            let published = (manifest.deltas ?? []).filter { $0.toVersion == manifest.catalogVersion }
            return [
                s(
                    "catalog.published", manifest.identity, manifest.catalogVersion, to + "/" + manifest.file.path,
                    s.bytes(manifest.file.compressed.size), s.timestamp(manifest.expiresAt), pair.publicKey.keyID)
            ]
                + published.map {
                    s("catalog.published.delta", $0.fromVersion, to + "/" + $0.file.path, s.bytes($0.file.compressed.size))
                }
        }
    }
}
