import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

/// What a spray record says, as `agro journal add` and `agro journal revise` take it: the
/// options of a `plan check` line, repeatable `--product/--dose/--unit` for a tank mix.
struct RecordOptions: ParsableArguments {
    @Option(help: "The field, by name.") var field: String?
    @Option(help: "When spraying began: YYYY-MM-DD or YYYY-MM-DDTHH:MM.") var date: String?
    @Option(help: "When spraying ended: YYYY-MM-DD or YYYY-MM-DDTHH:MM.") var end: String?
    @Option(help: "The growth stage (BBCH 0-99).") var stage: Int?
    @Option(help: "A product (id, registration number or name); repeat for a tank mix.") var product: [String] = []
    @Option(help: "The dose of each --product, in its unit (a decimal comma is read too).") var dose: [String] = []
    @Option(help: "The unit of each --product's dose, or one for all (default l/ha).") var unit: [String] = []
    @Option(help: "A pest aimed at (id or name); repeatable, checked against every product.") var pest: [String] = []
    @Option(help: "Litres of spray liquid per hectare.") var water: String?
    @Option(help: "Hectares treated (default: the whole field).") var area: String?
    @Option(name: .customLong("operator"), help: "Who sprayed.") var sprayer: String?
    @Option(help: "Wind while spraying, m/s.") var wind: String?
    @Option(help: "Gusts while spraying, m/s.") var gusts: String?
    @Option(help: "Air temperature while spraying, °C.") var temperature: String?
    @Option(help: "Relative humidity while spraying, %.") var humidity: String?
    @Option(help: "Rain while spraying, mm.") var rain: String?
    @Option(help: "Where the weather readings come from: measured (default) or forecast.") var weatherFrom: String?
    @Option(help: "Notes.") var notes: String?

    /// Whether any option that says what was sprayed is given.
    var givesProducts: Bool { !product.isEmpty || !dose.isEmpty || !unit.isEmpty }

    /// A number as typed: a decimal comma or point, no grouping.
    static func number(_ text: String, option: String, command: String) throws -> Double {
        let plain = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard let value = Double(plain), value.isFinite else {
            throw UsageError(.invalidValue(option: option, value: text, valid: []), command: command)
        }
        return value
    }

    static func time(_ text: String, option: String, command: String) throws -> JournalTime {
        guard let time = JournalTime(text) else {
            throw UsageError(.invalidValue(option: option, value: text, valid: []), command: command)
        }
        return time
    }

    /// The products as ids with their doses and units, resolved in the catalog.
    func products(catalog: some Catalog, environment: Environment, command: String) throws -> [AppliedProduct] {
        guard !product.isEmpty else { throw UsageError(.missingArgument("--product"), command: command) }
        guard dose.count == product.count else { throw UsageError(.missingArgument("--dose"), command: command) }
        guard unit.count <= 1 || unit.count == product.count else {
            throw UsageError(.missingArgument("--unit"), command: command)
        }
        let locale = environment.locale
        let pests = try pest.map { try catalog.resolve($0, kind: .pest, locale: locale).id }
        return try product.enumerated().map { index, text in
            AppliedProduct(
                product: try catalog.resolve(text, kind: .product, locale: locale).id,
                dose: try Self.number(dose[index], option: "--dose", command: command),
                unit: unit.count > 1 ? unit[index] : (unit.first ?? "l/ha"), pests: pests)
        }
    }

    /// `record` with every option given here put in; the rest as `record` has it.
    func apply(to record: inout SprayRecord, catalog: some Catalog, environment: Environment, command: String) throws {
        if let date { record.start = try Self.time(date, option: "--date", command: command) }
        if let end { record.end = try Self.time(end, option: "--end", command: command) }
        if let stage { record.bbch = stage }
        if givesProducts || !pest.isEmpty {
            record.products = try products(catalog: catalog, environment: environment, command: command)
        }
        if let water { record.water = try Self.number(water, option: "--water", command: command) }
        if let area { record.area = try Self.number(area, option: "--area", command: command) }
        if let sprayer { record.sprayer = sprayer }
        if let notes { record.notes = notes }
        let source: Reading.Source
        switch weatherFrom {
        case nil: source = .measured
        case let text?:
            guard let value = Reading.Source(rawValue: text) else {
                throw UsageError(
                    .invalidValue(option: "--weather-from", value: text, valid: Reading.Source.allCases.map(\.rawValue)),
                    command: command)
            }
            source = value
        }
        func reading(_ text: String?, _ option: String) throws -> Reading? {
            try text.map { Reading(try Self.number($0, option: option, command: command), source) }
        }
        if let value = try reading(wind, "--wind") { record.weather.wind = value }
        if let value = try reading(gusts, "--gusts") { record.weather.gusts = value }
        if let value = try reading(temperature, "--temperature") { record.weather.temperature = value }
        if let value = try reading(humidity, "--humidity") { record.weather.humidity = value }
        if let value = try reading(rain, "--rain") { record.weather.rain = value }
    }
}
