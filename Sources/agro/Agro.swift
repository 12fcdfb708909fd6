import AgroDomain
import ArgumentParser
import Foundation

/// `agro`: an agrochemical reference catalog for the command line.
@main
struct Agro: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agro",
        abstract: "Crop-protection reference: products, pests, cultures, schemes, contacts.",
        discussion: """
            Which product works against this pest on this crop, at what dose and growth stage, what the \
            pre-harvest interval is, and whom to call in a region. Exit statuses are listed in the README.
            """,
        version: "0.1.0",
        subcommands: [
            ProductsCommand.self, ProductCommand.self, SubstancesCommand.self, SubstanceCommand.self,
            CulturesCommand.self, CultureCommand.self, PestsCommand.self, PestCommand.self,
            SchemeCommand.self, SearchCommand.self, RegionsCommand.self, ContactsCommand.self,
            WeatherCommand.self, FavoritesCommand.self, NewsCommand.self, RenderHTMLCommand.self, CatalogCommand.self,
            DbCommand.self, KeysCommand.self, ServeCommand.self,
        ])

    @OptionGroup var global: GlobalOptions

    /// Runs the command line, turning every failure into one line on stderr and a documented
    /// exit status, never a stack trace.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as any UserFacingError {
            Terminal.standardError.line("agro: " + error.message)
            Foundation.exit(error.exitStatus.rawValue)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            Terminal.standardError.line("agro: file not found: \(error.filePath ?? "")")
            Foundation.exit(ExitStatus.ioError.rawValue)
        } catch {
            // Help, version, and usage errors: swift-argument-parser prints and picks the status.
            exit(withError: error)
        }
    }
}
