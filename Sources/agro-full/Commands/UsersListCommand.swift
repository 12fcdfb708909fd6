import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser

struct UsersListCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the people, their farm and role.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @OptionGroup var pages: PageOptions
    @Option(help: "Only this farm's people (its name).") var farm: String?

    func run() throws {
        let environment = try Environment(global)
        let accounts = try store.accounts(environment)
        let farms = try accounts.store.farms()
        let only = try farm.map { try accounts.farm(named: $0).id }
        let items = try accounts.store.accounts(farm: only).map { AccountDocument($0, farms: farms) }
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.login")) { $0.login },
                Column(header: s("column.farm")) { $0.farm.name },
                Column(header: s("column.role")) { s("farm.role.\($0.role.rawValue)") },
            ],
            load: { Page(slicing: items, $0) }
        ).show(pages)
    }
}
