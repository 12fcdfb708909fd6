import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

/// The complete `agro`: every command, including those that need the network (weather, news
/// feeds, updates, the catalog server) or libxml2 (HTML, register import). `agro` runs the
/// catalog queries itself and hands every other command line to this program, so users only
/// ever type `agro`.
@main
struct AgroFull: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "agro",
        abstract: "Crop-protection reference: products, pests, cultures, schemes, contacts.",
        discussion: """
            Which product works against this pest on this crop, at what dose and growth stage, what the \
            pre-harvest interval is, and whom to call in a region. Exit statuses are listed in docs/cli.md.
            """,
        version: "0.1.0",
        subcommands: CatalogCommands.all + [
            WeatherCommand.self, NewsCommand.self, RenderHTMLCommand.self, CatalogCommand.self,
            DbCommand.self, KeysCommand.self, ServeCommand.self, WebCommand.self, FieldCommand.self, JournalCommand.self,
            FarmsCommand.self, UsersCommand.self,
        ])

    @OptionGroup var global: GlobalOptions

    static func main() async {
        if CommandLine.arguments.dropFirst() == ["--build-id"] {
            print(BuildID.value)
            Foundation.exit(0)
        }
        // Handed over by an `agro` of another build: the two programs do not match.
        if let caller = ProcessInfo.processInfo.environment[BuildID.variable] {
            unsetenv(BuildID.variable)
            if caller != BuildID.value {
                Program.fail(
                    "agro (build \(caller)) and agro-full (build \(BuildID.value)) come from different builds; "
                        + "install both again with scripts/install", .ioError)
            }
        }
        // The catalog files and user database on this machine, each list through the store
        // every other use case reads (`agro` runs lists itself, through a faster one).
        let stores = LocalStoreOpener()
        // A catalog query is parsed by its own command type, as `agro` parses it: the same
        // command, without reflecting over the whole tree.
        let arguments = Array(CommandLine.arguments.dropFirst())
        let usageError: @Sendable (any Error) -> Never = {
            Program.refuse($0, arguments: arguments, root: AgroFull.self, wordings: wordings)
        }
        if let query = CatalogCommands.parse(arguments) {
            Program.run(query, stores: stores, wordings: wordings, usageError: usageError)
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // Help and version as swift-argument-parser prints them; a usage error worded in the
            // interface language.
            usageError(error)
        }
        if let command = command as? any AsyncParsableCommand {
            await Program.run(command, stores: stores, wordings: wordings, usageError: usageError)
        }
        Program.run(command, stores: stores, wordings: wordings, usageError: usageError)
    }

    /// Status and wording of every library's errors.
    static let wordings: [any ErrorWording] = [CatalogErrorWording(), ServiceErrorWording()]
}
