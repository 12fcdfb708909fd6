import AgroPresentation
import ArgumentParser

struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "The spray journal: what was sprayed, checked against the label when it is written.",
        discussion: """
            Each record is checked as `agro plan check` checks a plan, against the field's season so far: \
            registration on the culture and the date, dose, stage, applications and interval, mode-of-action \
            limits, and the pre-harvest interval against the field's expected harvest. A record with an error \
            is kept and marked; exit status 20 when the record written has one.
            """,
        subcommands: [
            JournalAddCommand.self, JournalListCommand.self, JournalShowCommand.self, JournalReviseCommand.self,
            JournalHarvestCommand.self, JournalExportCommand.self, JournalSyncCommand.self, JournalMigrateCommand.self,
        ],
        defaultSubcommand: JournalListCommand.self)
}

/// The record written has at least one error finding; it is kept, and its findings are printed.
struct RecordViolations: CommandError {
    var message: String
    var exitStatus: ExitStatus { .planViolations }
}
