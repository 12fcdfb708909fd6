import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser

struct UsersAddCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a person to a farm; the password is read from standard input.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @Argument(help: "The login they sign in with.") var login: String
    @Option(help: "The farm (its name).") var farm: String
    @Option(help: "owner, agronomist or inspector.") var role: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "users add")
        guard let role = FarmRole(rawValue: role.lowercased()) else {
            throw UsageError(
                .invalidValue(option: "--role", value: role, valid: FarmRole.allCases.map(\.rawValue)),
                command: "agro users add")
        }
        let accounts = try store.accounts(environment)
        let account = try accounts.addAccount(
            login: login, farm: farm, role: role, password: PasswordInput.read(environment))
        let s = environment.strings
        environment.print(
            s("account.added", account.login, try accounts.farm(named: farm).name, s("farm.role.\(account.role.rawValue)")))
    }
}
