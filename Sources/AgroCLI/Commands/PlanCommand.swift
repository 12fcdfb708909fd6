import AgroPresentation
import ArgumentParser

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", _superCommandName: CatalogCommands.superCommandName,
        abstract: "Season plans: check one against the catalog.",
        subcommands: [PlanCheckCommand.self])
}
