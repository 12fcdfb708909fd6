import AgroCLI
import AgroPresentation
import ArgumentParser

/// `agro db`: the catalog in use, and updates from a catalog server.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Show, check, update, roll back and verify the catalog in use.",
        discussion: """
            Updates come from a directory published with agro catalog publish and signed by a key you trust. \
            Exit statuses 90-96 are listed in the README.
            """,
        subcommands: [
            DbStatusCommand.self, DbCheckCommand.self, DbUpdateCommand.self, DbRollbackCommand.self, DbVerifyCommand.self,
        ])
}
