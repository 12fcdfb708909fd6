import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser

struct FarmsListCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the farms and their people.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @OptionGroup var pages: PageOptions

    func run() throws {
        let environment = try Environment(global)
        let farms = try store.open(environment)
        let accounts = try farms.accounts(farm: nil)
        let items = try farms.farms().map { farm in
            FarmDocument(farm, people: accounts.filter { $0.farm == farm.id }.count)
        }
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [Column(header: s("column.name")) { $0.name }, Column(header: s("column.people")) { String($0.people) }],
            load: { Page(slicing: items, $0) }
        ).show(pages)
    }
}
