import AgroCLI
import AgroDomain
import AgroPresentation
import AgroUpdate
import ArgumentParser
import Foundation

struct DbRollbackCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Return to the previous installed catalog (the one before the last update).",
        discussion: "Running it again returns to the catalog rolled back from. Exit status 95 when there is none.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "db rollback")
        let result = try environment.catalogStore.rollback()
        try environment.print(["from": result.from, "to": result.to]) {
            [
                environment.strings(
                    "db.rollback.done", result.to.identity, result.to.version, result.from.identity, result.from.version)
            ]
        }
    }
}
