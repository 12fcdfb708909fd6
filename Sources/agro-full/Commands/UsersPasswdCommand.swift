import AgroCLI
import AgroPresentation
import ArgumentParser

struct UsersPasswdCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a new password (from standard input) and end the person's sessions.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @Argument(help: "The login.") var login: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "users passwd")
        try store.accounts(environment).setPassword(login: login, PasswordInput.read(environment))
        environment.print(environment.strings("account.passwordSet", login))
    }
}
