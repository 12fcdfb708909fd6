import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalReviseCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "revise",
        abstract: "Correct a spray record: a new revision, the earlier ones kept; after 48 hours with a reason.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The record's id, or its first characters.") var record: String
    @Option(help: "Why the record is corrected (required 48 hours after it was written).") var reason: String?
    @OptionGroup var changes: RecordOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "journal revise")
        let command = "agro journal revise"
        let (catalog, journal) = try environment.openJournalUntilExit()
        guard let latest = try journal.history(record).last else { throw JournalError.unknownRecord(record) }
        var revised = latest.record
        revised.revision = UUID()
        revised.revises = latest.record.revision
        revised.writtenAt = environment.now
        revised.reason = reason
        if let name = changes.field { revised.field = try journal.field(name).id }
        try changes.apply(to: &revised, catalog: catalog, environment: environment, command: command)
        try JournalWriting.write(revised, journal: journal, catalog: catalog, environment: environment)
    }
}
