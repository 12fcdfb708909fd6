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
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // Help, version and usage errors: swift-argument-parser prints them and picks the status.
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as any UserFacingError {
            fail(error.message, error.exitStatus)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            fail("file not found: \(error.filePath ?? "")", .ioError)
        } catch let error as ValidationError {
            exit(withError: error)
        } catch let error as CleanExit {
            exit(withError: error)
        } catch let error as ExitCode {
            exit(withError: error)
        } catch {
            // Anything else still gets one line, not a trace.
            fail(String(describing: error), .failure)
        }
    }

    private static func fail(_ message: String, _ status: ExitStatus) -> Never {
        Terminal.standardError.line("agro: " + message.split(separator: "\n").joined(separator: " "))
        Foundation.exit(status.rawValue)
    }
}
