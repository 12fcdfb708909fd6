import AgroCLI
import AgroPresentation
import ArgumentParser

struct JournalMigrateCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the journal's databases (this device's and the farms' shared one) to the current schema.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var store: FarmStoreOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "journal migrate")
        // Opening a store applies the migrations it lacks, in one transaction each.
        _ = try environment.openUserStore()
        _ = try store.open(environment)
        let s = environment.strings
        environment.print(s("journal.migrated", environment.paths.userDatabase.path))
        environment.print(s("journal.migrated", store.journalDB ?? environment.paths.farmDatabase.path))
    }
}
