import AgroDomain
import AgroPresentation
import AgroTerminal
import ArgumentParser
import Foundation

/// Running a parsed command the way every agro command ends: each failure becomes one line on
/// stderr and a documented exit status, never a stack trace.
package enum Program {
    /// Runs `command` and exits with its status. `wordings` give library errors their status
    /// and message; `usageError` reports what swift-argument-parser reports (validation errors,
    /// help, exit codes thrown by the command), for instance through the root command's
    /// `exit(withError:)`.
    package static func run(
        _ command: any ParsableCommand, wordings: [any ErrorWording] = [CatalogErrorWording()],
        usageError: @Sendable (any Error) -> Never
    ) -> Never {
        var command = command
        do {
            try command.run()
        } catch {
            fail(error, of: command, wordings: wordings, usageError: usageError)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    /// `run(_:wordings:usageError:)` for a command that runs asynchronously.
    package static func run(
        _ command: any AsyncParsableCommand, wordings: [any ErrorWording] = [CatalogErrorWording()],
        usageError: @Sendable (any Error) -> Never
    ) async -> Never {
        var command = command
        do {
            try await command.run()
        } catch {
            fail(error, of: command, wordings: wordings, usageError: usageError)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    private static func fail(
        _ error: any Error, of command: any ParsableCommand, wordings: [any ErrorWording],
        usageError: @Sendable (any Error) -> Never
    ) -> Never {
        switch error {
        case let error as any CommandError:
            fail(error.message, error.exitStatus)
        case let error as any UserFacingError:
            let strings = interfaceStrings(for: command)
            for wording in wordings {
                if let report = wording.report(error, strings: strings) { fail(report.message, report.status) }
            }
            // A library error no wording knows: its own English words.
            fail(error.message, .failure)
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile:
            fail("file not found: \(error.filePath ?? "")", .ioError)
        case is ValidationError, is CleanExit, is ExitCode:
            usageError(error)
        case _ where String(reflecting: type(of: error)).hasPrefix("ArgumentParser."):
            // The library's own errors, such as the help that `agro help products` and
            // `agro products --help` ask for through its internal help command.
            usageError(error)
        default:
            // Anything else still gets one line, not a trace.
            fail(String(describing: error), .failure)
        }
    }

    /// The interface strings in the language the command ran in: its global options, else
    /// the environment (as `Environment` chooses it).
    private static func interfaceStrings(for command: any ParsableCommand) -> Localizer {
        let global =
            Mirror(reflecting: command).children.lazy
            .compactMap { ($0.value as? OptionGroup<GlobalOptions>)?.wrappedValue }.first ?? GlobalOptions()
        if let environment = try? Environment(global) { return environment.strings }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        return Localizer(locale: global.resolvedLocale(), directory: paths.localizable)
    }

    /// One line on stderr, prefixed with the program's name, and `status`.
    package static func fail(_ message: String, _ status: ExitStatus) -> Never {
        // One line whatever the message quotes (a CR/LF in a plan's product name forged a second).
        Terminal.standardError.line("agro: " + TerminalText.oneLine(message))
        Foundation.exit(status.rawValue)
    }
}
