import AgroDomain
import ArgumentParser
import Foundation

/// Running a parsed command the way every agro command ends: each failure becomes one line on
/// stderr and a documented exit status, never a stack trace.
package enum Program {
    /// Runs `command` and exits with its status. `usageError` reports what
    /// swift-argument-parser reports (validation errors, help, exit codes thrown by the
    /// command), for instance through the root command's `exit(withError:)`.
    package static func run(_ command: any ParsableCommand, usageError: @Sendable (any Error) -> Never) -> Never {
        var command = command
        do {
            try command.run()
        } catch {
            fail(error, usageError: usageError)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    /// `run(_:usageError:)` for a command that runs asynchronously.
    package static func run(_ command: any AsyncParsableCommand, usageError: @Sendable (any Error) -> Never) async -> Never {
        var command = command
        do {
            try await command.run()
        } catch {
            fail(error, usageError: usageError)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    private static func fail(_ error: any Error, usageError: @Sendable (any Error) -> Never) -> Never {
        switch error {
        case let error as any UserFacingError:
            fail(error.message, error.exitStatus)
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

    /// One line on stderr, prefixed with the program's name, and `status`.
    package static func fail(_ message: String, _ status: ExitStatus) -> Never {
        Terminal.standardError.line("agro: " + message.split(separator: "\n").joined(separator: " "))
        Foundation.exit(status.rawValue)
    }
}
