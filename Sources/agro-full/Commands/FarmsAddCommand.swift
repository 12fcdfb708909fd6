import AgroCLI
import AgroPresentation
import ArgumentParser

struct FarmsAddCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a farm.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions
    @Argument(help: "The farm's name.") var name: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "farms add")
        let farm = try store.accounts(environment).addFarm(name)
        environment.print(environment.strings("farm.added", farm.name))
    }
}
