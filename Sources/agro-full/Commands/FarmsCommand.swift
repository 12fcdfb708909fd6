import ArgumentParser

struct FarmsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "farms",
        abstract: "The farms whose people share one journal on this server.",
        subcommands: [FarmsAddCommand.self, FarmsListCommand.self],
        defaultSubcommand: FarmsListCommand.self)
}
