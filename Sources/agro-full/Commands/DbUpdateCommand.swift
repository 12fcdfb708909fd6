import AgroCLI
import AgroDomain
import AgroPresentation
import AgroUpdate
import AgroUpdateClient
import ArgumentParser
import Foundation
import Synchronization

struct DbUpdateCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download, verify and install the server's catalog if it is newer than the one in use.",
        discussion: """
            Nothing is installed before every check passes (signature by a trusted key, expiry, version, sizes, \
            sha256, integrity); any failure leaves the catalog in use as it was. An interrupted download resumes. \
            When the server offers deltas from the installed version costing fewer bytes, they are downloaded and \
            applied instead; if that fails, the full catalog is downloaded and one line on stderr says why.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var update: UpdateOptions

    @Flag(
        help:
            "Install the server's catalog even when it is older than one installed before (a deliberate rollback on the server).")
    var allowDowngrade = false

    func run() async throws {
        let environment = try Environment(global, refusingCSVFor: "db update")
        var configuration = try environment.updateConfiguration(update)
        configuration.allowDowngrade = allowDowngrade
        let client = UpdateClient(configuration: configuration, store: environment.catalogStore)
        let display = ProgressDisplay(
            terminal: .standardOutput, strings: environment.strings,
            enabled: environment.format == .table)
        let outcome: UpdateOutcome
        do {
            outcome = try await client.update { progress in
                display.fallback(progress)
                display.show(progress)
            }
            display.finish()
        } catch {
            display.finish()
            throw error
        }
        let document: UpdateDocument
        switch outcome {
        case let .upToDate(info): document = UpdateDocument(from: nil, to: info)
        case let .installed(from, to): document = UpdateDocument(from: from, to: to)
        }
        try environment.print(document) { [document.line(environment.strings)] }
    }
}

/// Shows an update's progress: a bar redrawn in place on a terminal, else one plain line per
/// stage. Called from the download's thread while downloading, so its state sits in a `Mutex`,
/// held while a line is written so that lines never interleave.
final class ProgressDisplay: Sendable {
    private struct State {
        var lastStage = ""
        var lastDrawn = -1
        var barShown = false
    }

    private let terminal: Terminal
    private let strings: Localizer
    private let enabled: Bool
    private let state = Mutex(State())

    init(terminal: Terminal, strings: Localizer, enabled: Bool) {
        self.terminal = terminal
        self.strings = strings
        self.enabled = enabled
    }

    func show(_ progress: UpdateProgress) {
        guard enabled else { return }
        state.withLock { state in
            switch progress {
            case .fetchingManifest: stage(&state, "db.progress.manifest")
            case let .downloading(received, total):
                if terminal.isInteractive {
                    drawBar(&state, received: received, total: total)
                } else {
                    stage(&state, "db.progress.download", strings.bytes(total))
                }
            case let .applyingDeltas(count): stage(&state, "db.progress.apply", count)
            case .verifying: stage(&state, "db.progress.verify")
            case .installing: stage(&state, "db.progress.install")
            case .fallingBack: break  // always reported, by fallback(_:)
            }
        }
    }

    /// The one line saying a delta update failed and the full catalog comes instead: on stderr
    /// whatever the format, so JSON output stays one document.
    func fallback(_ progress: UpdateProgress) {
        guard case let .fallingBack(error, size) = progress else { return }
        let reason = ServiceErrorWording.text(error.errorCase, strings)
        state.withLock { state in
            if state.barShown {
                terminal.write("\n")
                state.barShown = false
            }
            state.lastStage = ""
            state.lastDrawn = -1
            Terminal.standardError.line(
                "agro: "
                    + strings(
                        "db.update.fallback",
                        arguments: [reason, strings.bytes(size)]))
        }
    }

    /// Ends a bar left on the line.
    func finish() {
        state.withLock { state in
            if state.barShown { terminal.write("\n") }
            state.barShown = false
        }
    }

    private func stage(_ state: inout State, _ key: String, _ arguments: any CustomStringConvertible...) {
        guard key != state.lastStage else { return }
        state.lastStage = key
        if state.barShown {
            terminal.write("\n")
            state.barShown = false
        }
        terminal.line(strings(key, arguments: arguments))
    }

    private func drawBar(_ state: inout State, received: Int64, total: Int64) {
        state.lastStage = "db.progress.download"
        let fraction = total > 0 ? min(1, Double(received) / Double(total)) : 1
        let percent = Int(fraction * 100)
        guard percent != state.lastDrawn else { return }
        state.lastDrawn = percent
        let width = max(10, min(40, terminal.size.columns - 40))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let sizes =
            strings.bytes(received) + " / " + strings.bytes(total)
        terminal.write("\r\u{1B}[K[\(bar)] \(percent)% \(sizes)")
        state.barShown = true
    }
}
