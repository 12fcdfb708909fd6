import AgroDomain
import AgroPresentation
import AgroTerminal
import ArgumentParser
import Foundation

/// Running a parsed command the way every agro command ends: each failure becomes one line on
/// stderr and a documented exit status, never a stack trace.
package enum Program {
    /// Runs `command` with `stores` in its global options and exits with its status. `wordings`
    /// give library errors their status and message; `usageError` reports what
    /// swift-argument-parser reports (help, exit codes thrown by the command), for instance
    /// through `refuse(_:arguments:root:wordings:)`.
    package static func run(
        _ command: any AgroCommand, stores: any StoreOpener, wordings: [any ErrorWording] = [CatalogErrorWording()],
        usageError: @Sendable (any Error) -> Never
    ) -> Never {
        execute(command.given(stores), wordings: wordings, usageError: usageError)
    }

    /// `run(_:stores:wordings:usageError:)` for a command parsed by agro-full's whole tree: an
    /// `AgroCommand` gets the stores, a command without global options runs as it is. (The
    /// queries `QuickCommandLine` reads come typed as `AgroCommand`, which spares them the cast:
    /// a look-up among the program's conformances.)
    package static func run(
        _ command: any ParsableCommand, stores: any StoreOpener, wordings: [any ErrorWording] = [CatalogErrorWording()],
        usageError: @Sendable (any Error) -> Never
    ) -> Never {
        execute((command as? any AgroCommand)?.given(stores) ?? command, wordings: wordings, usageError: usageError)
    }

    private static func execute(
        _ command: any ParsableCommand, wordings: [any ErrorWording], usageError: @Sendable (any Error) -> Never
    ) -> Never {
        var command = command
        do {
            try command.run()
        } catch {
            fail(error, of: command, wordings: wordings, usageError: usageError)
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    /// `run(_:stores:wordings:usageError:)` for a command that runs asynchronously.
    package static func run(
        _ command: any AsyncParsableCommand, stores: any StoreOpener,
        wordings: [any ErrorWording] = [CatalogErrorWording()], usageError: @Sendable (any Error) -> Never
    ) async -> Never {
        var command = ((command as? any AgroCommand)?.given(stores) as? any AsyncParsableCommand) ?? command
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

    /// The global options of `command`, nil for a command without them.
    private static func globalOptions(of command: any ParsableCommand) -> GlobalOptions? {
        Mirror(reflecting: command).children.lazy.compactMap { ($0.value as? OptionGroup<GlobalOptions>)?.wrappedValue }
            .first
    }

    /// Ends a command line of `root` that could not be parsed, in the interface language (its
    /// `--lang` read from `arguments` themselves, else the environment and config.json): help as
    /// a `HelpPage` (English: the parser's own page), every refusal as one line and bad usage's
    /// status; the version, and an exit code a command threw, as the parser ends them.
    package static func refuse(
        _ error: any Error, arguments: [String], root: any ParsableCommand.Type, wordings: [any ErrorWording]
    ) -> Never {
        let strings = interfaceStrings(for: GlobalOptions.scanning(arguments))
        // Help in the interface language; English keeps the parser's own (with each command's discussion).
        if !strings.locale.hasPrefix("en"), let path = HelpRequest.path(error, root: root),
            let page = HelpRequest.page(path, root: root)
        {
            Terminal.standardOutput.write(page.lines(strings).joined(separator: "\n") + "\n")
            Foundation.exit(ExitStatus.success.rawValue)
        }
        guard let userError = ParserRefusal.userError(error, root: root) else { root.exit(withError: error) }
        for wording in wordings {
            if let report = wording.report(userError, strings: strings) { fail(report.message, report.status) }
        }
        fail(userError.message, .usage)
    }

    /// The interface strings in the language the command ran in: its global options, else
    /// the environment (as `Environment` chooses it).
    private static func interfaceStrings(for command: any ParsableCommand) -> Localizer {
        interfaceStrings(for: globalOptions(of: command) ?? GlobalOptions.scanning([]))
    }

    /// The interface strings in the language of `global`, else of the environment.
    private static func interfaceStrings(for global: GlobalOptions) -> Localizer {
        if let environment = try? Environment(global, warns: false) { return environment.strings }
        let paths = Paths(environment: ProcessVariables.read())
        return Localizer(locale: global.resolvedLocale(), directoryPath: paths.localizablePath)
    }

    /// One line on stderr, prefixed with the program's name, and `status`.
    package static func fail(_ message: String, _ status: ExitStatus) -> Never {
        // One line whatever the message quotes (a CR/LF in a plan's product name forged a second).
        Terminal.standardError.line("agro: " + TerminalText.oneLine(message))
        Foundation.exit(status.rawValue)
    }
}
