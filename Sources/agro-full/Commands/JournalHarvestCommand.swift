import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalHarvestCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "harvest", abstract: "The earliest day each field may be harvested, and which spray sets it.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this field (its name).") var field: String?

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "journal harvest")
        let (catalog, journal) = try environment.openJournalUntilExit()
        let fields = try field.map { [try journal.field($0)] } ?? journal.store.fields()
        let seasons = try fields.map { ($0, try journal.season(of: $0)) }
        if environment.format == .json {
            return try environment.printJSON(
                try seasons.map { try FieldDocument($0.0, catalog: catalog, environment: environment, season: $0.1) })
        }
        var lines: [String] = []
        for (field, season) in seasons {
            lines += JournalLines.harvest(field: field, season: season, environment: environment) + [""]
        }
        if fields.isEmpty { lines = [environment.strings("field.none")] }
        environment.print(lines)
    }
}
