import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalAddCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Write a spray record; its findings are shown and kept with it.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var record: RecordOptions
    @Option(help: "The record's id (a UUID made where it was first written); the same id written twice is stored once.")
    var id: String?

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "journal add")
        let command = "agro journal add"
        guard let fieldName = record.field else { throw UsageError(.missingArgument("--field"), command: command) }
        guard let date = record.date else { throw UsageError(.missingArgument("--date"), command: command) }
        let (catalog, journal) = try environment.openJournalUntilExit()
        let field = try journal.field(fieldName)
        var written = SprayRecord(
            field: field.id, start: try RecordOptions.time(date, option: "--date", command: command), products: [],
            writtenAt: environment.now)
        if let id {
            guard let uuid = UUID(uuidString: id) else {
                throw UsageError(.invalidValue(option: "--id", value: id, valid: []), command: command)
            }
            // One id for the record and its first revision: written twice, it is the same revision.
            (written.id, written.revision) = (uuid, uuid)
        }
        written.products = try record.products(catalog: catalog, environment: environment, command: command)
        try record.apply(to: &written, catalog: catalog, environment: environment, command: command)
        try JournalWriting.write(written, journal: journal, catalog: catalog, environment: environment)
    }
}
