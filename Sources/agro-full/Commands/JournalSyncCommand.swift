import AgroCLI
import AgroPresentation
import AgroSyncClient
import ArgumentParser
import Foundation

struct JournalSyncCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the fields and records written here to the farm's server and fetch the farm's journal.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The farm's server, http(s)://host:port.") var server: String
    @Option(help: "The login; the password is read from standard input or AGRO_PASSWORD.") var user: String

    func run() async throws {
        let environment = try Environment(global, refusingCSVFor: "journal sync")
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw UsageError(.invalidValue(option: "--server", value: server, valid: []), command: "agro journal sync")
        }
        let store = try environment.openUserStore()
        let outcome = try await JournalSyncClient(server: url, locale: environment.locale).sync(
            store: store, user: user, password: PasswordInput.read(environment))
        let document = SyncOutcomeDocument(
            sent: outcome.sent, sentWithErrors: outcome.sentWithErrors, received: outcome.received,
            through: outcome.through, bytes: outcome.bytes)
        let s = environment.strings
        try environment.print(document) {
            [s("sync.done", outcome.sent, outcome.received, outcome.through)]
                + (outcome.sentWithErrors > 0 ? [s("sync.sentWithErrors", outcome.sentWithErrors)] : [])
        }
    }
}
