import AgroCLI
import AgroPresentation
import AgroUpdate
import ArgumentParser
import Foundation

/// `agro keys`: signing keys for publishing catalogs.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the Ed25519 keys that sign published catalogs.",
        subcommands: [KeysGenerateCommand.self])
}

struct KeysGenerateCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate an Ed25519 key pair: PREFIX.key (secret, mode 0600) and PREFIX.pub (for clients).",
        discussion: "Existing key files are never overwritten. Clients trust PREFIX.pub with --trust, AGRO_TRUST or update.trust."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Path prefix of the two key files.", valueName: "prefix")) var out: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "keys generate")
        let pair = KeyPair.generate()
        let (privatePath, publicPath) = try pair.write(prefix: out)
        environment.print(environment.strings("keys.generated", privatePath, publicPath, pair.publicKey.keyID))
    }
}
