import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct FieldShowCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a field, its sprays this season and its earliest harvest.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The field's name.") var name: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "field show")
        let (catalog, journal) = try environment.openJournalUntilExit()
        let field = try journal.field(name)
        let season = try journal.season(of: field)
        let document = try FieldDocument(field, catalog: catalog, environment: environment, season: season)
        try environment.print(document) {
            let s = environment.strings
            var header = "\(field.name) · " + s("plan.area", s.number(field.area)) + " · \(document.culture.name)"
            if let sown = field.sown { header += " · " + s("plan.sowing", s.date(sown.description)) }
            if let harvest = field.harvest { header += " · " + s("plan.harvest", s.date(harvest.description)) }
            var lines = [environment.bold(header)]
            if let location = field.location {
                lines.append(s("field.location", location.latitude.plainText, location.longitude.plainText))
            }
            lines.append("")
            let records = try journal.store.records(field: field.id)
            var names = JournalNames(catalog: catalog, locale: environment.locale)
            for (index, stored) in records.enumerated() {
                lines.append(JournalLines.summary(index + 1, stored, names: &names, environment: environment))
            }
            if records.isEmpty { lines.append(s("journal.empty")) }
            lines += [""] + JournalLines.harvest(field: field, season: season, environment: environment)
            return lines
        }
    }
}
