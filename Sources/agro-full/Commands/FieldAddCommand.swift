import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct FieldAddCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a field to the journal.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The field's name.") var name: String
    @Option(help: "Its area in hectares.") var area: String
    @Option(help: "The culture grown this season (id or name).") var culture: String
    @Option(help: "A point on the field: LAT,LON in degrees.") var at: String?
    @Option(help: "The field's outline: a file holding a GeoJSON Polygon.") var boundary: String?
    @Option(help: "The sowing date, YYYY-MM-DD.") var sown: String?
    @Option(help: "The expected harvest date, YYYY-MM-DD.") var harvest: String?

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "field add")
        let command = "agro field add"
        let catalog = try environment.openCatalogUntilExit()
        let culture = try catalog.resolve(culture, kind: .culture, locale: environment.locale)
        var location: FieldLocation?
        if let at {
            let point = try CoordinateParser.parse(at)
            location = FieldLocation(latitude: point.latitude, longitude: point.longitude)
        }
        let outline = try boundary.map { path -> String in
            guard let data = FileManager.default.contents(atPath: path), data.count <= 1_048_576,
                let text = String(data: data, encoding: .utf8),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                json["type"] as? String == "Polygon" || json["type"] as? String == "MultiPolygon"
            else { throw UsageError(.invalidValue(option: "--boundary", value: path, valid: []), command: command) }
            return text
        }
        let field = Field(
            name: name.trimmingCharacters(in: .whitespaces),
            area: try RecordOptions.number(area, option: "--area", command: command),
            location: location, boundary: outline, culture: culture.id, sown: try RequestError.date(sown, .sown),
            harvest: try RequestError.date(harvest, .harvest), writtenAt: environment.now)
        try environment.openJournal(catalog: catalog).add(field)
        if environment.format == .json {
            try environment.printJSON(try FieldDocument(field, catalog: catalog, environment: environment))
        } else {
            environment.print(
                environment.strings(
                    "field.added", field.name, environment.strings.number(field.area), culture.name))
        }
    }
}
