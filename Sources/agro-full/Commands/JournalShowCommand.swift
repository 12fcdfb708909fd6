import AgroCLI
import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct JournalShowCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a spray record with every revision and what each was found to break.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The record's id, or its first characters.") var record: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "journal show")
        let (catalog, journal) = try environment.openJournalUntilExit()
        let history = try journal.history(record)
        let documents = try RecordDocument.history(history, journal: journal, catalog: catalog, environment: environment)
        try environment.print(documents) {
            let s = environment.strings
            let width = environment.output.size.columns
            var lines: [String] = []
            for (stored, document) in zip(history, documents) {
                let record = stored.record
                var title = s("journal.revision", stored.number, s.date(Environment.isoDate(record.writtenAt)))
                if let reason = record.reason, !reason.isEmpty { title += " — " + s("journal.reason", reason) }
                lines += [environment.bold(title)]
                if !document.writtenApartFrom.isEmpty {
                    lines.append(
                        "  ⚠ " + s("journal.writtenApart", document.writtenApartFrom.map(String.init).joined(separator: ", ")))
                }
                var facts = [
                    s("journal.show.field", document.field.name),
                    s(
                        "journal.show.time",
                        [record.start, record.end].compactMap { $0.map { JournalLines.time($0, s) } }.joined(separator: " – ")),
                ]
                if let bbch = record.bbch { facts.append("BBCH \(bbch)") }
                facts.append(s("journal.show.area", s.number(document.area)))
                if let water = record.water { facts.append(s("journal.show.water", s.number(water))) }
                if let sprayer = record.sprayer { facts.append(s("journal.show.operator", sprayer)) }
                lines += facts.map { "  " + $0 }
                for line in document.products {
                    let registration = line.registration.map { " (\($0))" } ?? ""
                    let pests = line.pests.isEmpty ? "" : " — " + line.pests.map(\.name).joined(separator: ", ")
                    lines.append(
                        "  • \(line.name)\(registration) " + s.label(Dose(from: line.dose, to: nil, unit: line.unit)) + pests)
                }
                let weather = Self.weather(record.weather, environment: environment)
                if !weather.isEmpty { lines.append("  " + weather) }
                if let notes = record.notes { lines.append("  " + notes) }
                lines +=
                    stored.findings.isEmpty
                    ? ["    ✓ " + s("plan.ok")] : FindingWording(strings: s).lines(document.findings, width: width)
                lines.append("")
            }
            return lines
        }
    }

    /// "wind 3 m/s (measured) · ..." for the readings the record has.
    static func weather(_ weather: SprayWeather, environment: Environment) -> String {
        let s = environment.strings
        let readings: [(String, Reading?, String)] = [
            ("wind", weather.wind, "m/s"), ("gusts", weather.gusts, "m/s"), ("temperature", weather.temperature, "°C"),
            ("humidity", weather.humidity, "%"), ("rain", weather.rain, "mm"),
        ]
        return readings.compactMap { quantity, reading, unit in
            reading.map { reading in
                "\(s("journal.weather.\(quantity)")) \(s.number(reading.value)) \(unit) (\(s("journal.reading.\(reading.source.rawValue)")))"
            }
        }.joined(separator: " · ")
    }
}
