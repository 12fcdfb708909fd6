import AgroPresentation
import ArgumentParser

struct PlanCommand: ParsableCommand {
    static let configuration = CatalogCommands.configuration(
        "plan", abstract: "Season plans: check one against the catalog.",
        subcommands: [PlanCheckCommand.self])
}
