import ArgumentParser

struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "The people who sign in to the farms' journal, with their roles.",
        discussion: """
            Roles: owner (manages the farm's people and fields, writes records), agronomist (writes fields and \
            records), inspector (reads and exports only). Passwords are read from standard input (or AGRO_PASSWORD) \
            and kept only as bcrypt hashes.
            """,
        subcommands: [UsersAddCommand.self, UsersListCommand.self, UsersRemoveCommand.self, UsersPasswdCommand.self],
        defaultSubcommand: UsersListCommand.self)
}
