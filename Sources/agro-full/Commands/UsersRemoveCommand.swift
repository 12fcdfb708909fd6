import AgroCLI
import AgroPresentation
import ArgumentParser

struct UsersRemoveCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a person and end their sessions; the records they wrote stay.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @Argument(help: "The login.") var login: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "users remove")
        try store.accounts(environment).remove(login: login)
        environment.print(environment.strings("account.removed", login))
    }
}
