import ArgumentParser

struct FieldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "field",
        abstract: "The farm's fields: their area, place, culture and dates, for the spray journal.",
        subcommands: [FieldAddCommand.self, FieldListCommand.self, FieldShowCommand.self],
        defaultSubcommand: FieldListCommand.self)
}
