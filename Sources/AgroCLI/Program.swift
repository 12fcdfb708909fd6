import AgroDomain
import ArgumentParser
import Foundation

/// The commands that answer from the catalog and the user database alone: the queries of
/// the field. Both programs have them; `agro` runs them itself without starting the complete
/// program (see `Sources/agro/Agro.swift`).
package enum CatalogCommands {
    package static var all: [any ParsableCommand.Type] {
        [
            ProductsCommand.self, ProductCommand.self, SubstancesCommand.self, SubstanceCommand.self,
            CulturesCommand.self, CultureCommand.self, PestsCommand.self, PestCommand.self,
            SchemeCommand.self, SearchCommand.self, RegionsCommand.self, ContactsCommand.self,
            FavoritesCommand.self,
        ]
    }
}

/// Running a parsed command the way every agro command ends: each failure becomes one line on
/// stderr and a documented exit status, never a stack trace.
package enum Program {
    /// Runs `command`, parsed by `root`, and exits with its status.
    package static func run(_ command: any ParsableCommand, root: any ParsableCommand.Type) async -> Never {
        var command = command
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
            root.exit(withError: error)
        } catch let error as CleanExit {
            root.exit(withError: error)
        } catch let error as ExitCode {
            root.exit(withError: error)
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // The library's own errors, such as the help that `agro help products` and
            // `agro products --help` ask for through its internal help command: it prints them.
            root.exit(withError: error)
        } catch {
            // Anything else still gets one line, not a trace.
            fail(String(describing: error), .failure)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    /// One line on stderr, prefixed with the program's name, and `status`.
    package static func fail(_ message: String, _ status: ExitStatus) -> Never {
        Terminal.standardError.line("agro: " + message.split(separator: "\n").joined(separator: " "))
        Foundation.exit(status.rawValue)
    }
}
