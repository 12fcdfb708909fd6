import Foundation
import XCTest

/// `agro weather` in the interface language: labels, verdicts and spray findings from
/// Localizable, numbers with the language's decimal separator; English word for word as the
/// library writes it.
final class WeatherWordingTests: WeatherCLITestCase {
    private func table(_ locale: String) throws -> [String: String] {
        let data = try Data(contentsOf: CLIRunner.root.appendingPathComponent("Localizable/\(locale).json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    /// The template of `key` with `{i}` replaced by `arguments[i]`.
    private func phrase(_ table: [String: String], _ key: String, _ arguments: String...) throws -> String {
        var text = try XCTUnwrap(table[key], "no \(key)")
        for (index, argument) in arguments.enumerated() { text = text.replacingOccurrences(of: "{\(index)}", with: argument) }
        return text
    }

    /// The recorded answer's value at `path`, with one decimal and a decimal comma.
    private func russianOneDecimal(_ value: Double) -> String {
        String(format: "%.1f", value).replacingOccurrences(of: ".", with: ",")
    }

    func testCurrentConditionsInRussian() throws {
        let ru = try table("ru")
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "14.6,120.98", "--lang", "ru"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        let recorded = try XCTUnwrap(try JSONSerialization.jsonObject(with: fixture(Self.currentFixture)) as? [String: Any])
        let main = try XCTUnwrap(recorded["main"] as? [String: Any])
        let wind = try XCTUnwrap(recorded["wind"] as? [String: Any])
        let temp = try XCTUnwrap(main["temp"] as? Double), feels = try XCTUnwrap(main["feels_like"] as? Double)
        let gust = try XCTUnwrap(wind["gust"] as? Double)
        let speedUnit = try XCTUnwrap(ru["weather.unit.metresPerSecond"])
        for key in [
            "temperature", "humidity", "pressure", "wind", "clouds", "visibility", "rain", "sun", "region", "representative",
        ] {
            let label = try XCTUnwrap(ru["weather.current." + key])
            XCTAssertTrue(out.lines.contains { $0.hasPrefix(label + " ") }, "no line for \(label): \(out)")
        }
        XCTAssertTrue(out.contains("\(russianOneDecimal(temp)) °C"), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.current.feelsLike", russianOneDecimal(feels), "°C")), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.current.gusts", russianOneDecimal(gust), speedUnit)), out)
        // Observed at a day written day first, as Russian writes dates; no ISO date.
        XCTAssertNotNil(out.range(of: #"\b\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}\b"#, options: .regularExpression), out)
        XCTAssertNil(out.range(of: #"\b\d{4}-\d{2}-\d{2}\b"#, options: .regularExpression), out)
        XCTAssertTrue(
            out.contains(try phrase(ru, "weather.current.hPa", String(Int(try XCTUnwrap(main["pressure"] as? Double))))), out)
        // No English label, phrase or unit left.
        for english in [
            "Temperature", "Humidity", "Pressure", "Wind", "Clouds", "Visibility", "Rain", "Sun", "Region", "Representative",
        ] {
            XCTAssertFalse(out.lines.contains { $0.hasPrefix(english + " ") }, "English label \(english): \(out)")
        }
        for english in ["feels like", "gusts", "observed", "hPa", "m/s", "from its centre", "in the last hour", "rises", "away)"]
        {
            XCTAssertFalse(out.contains(english), "English \"\(english)\": \(out)")
        }
    }

    func testForecastInRussian() throws {
        let ru = try table("ru")
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "-38.4,-71.58", "--forecast", "--lang", "ru"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        let speedUnit = try XCTUnwrap(ru["weather.unit.metresPerSecond"])
        XCTAssertTrue(
            out.contains(try phrase(ru, "weather.table.title") + (try phrase(ru, "weather.table.for", "Curacautín"))), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.table.temp", "°C")), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.table.wind", speedUnit)), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.chart.temperature", "°C")), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.chart.wind", speedUnit)), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.chart.precipitation")), out)
        // The fixture's first slot, Saturday 05:00 local: -1.4 °C, with the decimal comma; the
        // weekday as CLDR abbreviates it in Russian ("сб", capitalised or not), never in English.
        XCTAssertTrue(out.lines.contains { $0.lowercased().hasPrefix("сб 01 05:00") && $0.contains("-1,4") }, out)
        XCTAssertNil(out.range(of: #"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b"#, options: .regularExpression), out)
        for english in [
            "Forecast for", "Temp °C", "Rain mm", "Conditions", "Temperature, °C", "Wind (*)", "Rain and snow", "Days start",
        ] {
            XCTAssertFalse(out.contains(english), "English \"\(english)\": \(out)")
        }
    }

    func testSprayReportInRussian() throws {
        let ru = try table("ru")
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "-38.4,-71.58", "--spray", "--lang", "ru"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        let flat = Self.flat(out)
        XCTAssertTrue(
            flat.contains(try phrase(ru, "weather.spray.rainfast", "2") + (try phrase(ru, "weather.spray.rainfastDefault"))), out)
        XCTAssertTrue(out.contains(try phrase(ru, "weather.spray.none")), out)
        XCTAssertTrue(out.lines.contains(try phrase(ru, "weather.spray.bySlot")), out)
        // Sub-zero snow all week: every slot is to be avoided; the first slot is -1.4 °C, below 2.
        let avoid = try XCTUnwrap(ru["weather.spray.verdict.avoid"])
        let slots = out.lines.filter {
            $0.range(of: #"(?i)^  (пн|вт|ср|чт|пт|сб|вс) \d\d \d\d:\d\d  "#, options: .regularExpression) != nil
        }
        XCTAssertEqual(slots.count, 40, out)
        XCTAssertTrue(slots.allSatisfy { $0.contains(" \(avoid) ") }, out)
        let frost = try phrase(
            ru, "weather.finding.temperature.below", "-1,4", "2", try phrase(ru, "weather.finding.temperature.frost"))
        XCTAssertTrue(Self.flat(slots[0]).contains(frost) || flat.contains(frost), out)
        XCTAssertTrue(flat.contains(Self.flat(try phrase(ru, "weather.spray.footer", "2", "0,72")).prefix(30)), out)
        for english in [
            "Spray windows", "rain-fast period", "By slot:", " avoid ", "frost risk", "chance of rain", "no rain",
            "Forecast wind",
        ] {
            XCTAssertFalse(out.contains(english), "English \"\(english)\": \(out)")
        }
    }

    /// The English reasons the CLI words from the typed findings are the library's texts, which
    /// the JSON output carries: every not-good finding of every slot, under relaxed limits so
    /// that wind, gust, Delta-T, rain and inversion findings of several verdicts come up. Wind
    /// and gusts, which the rules count in km/h, are given in the person's unit (m/s for
    /// metric), as the current conditions give them: one unit per quantity.
    func testEnglishSprayReasonsAreTheLibrarysTexts() throws {
        let server = try startServer()
        let runner = runner(server)
        let config = """
            {"weather": {"spray": {"temperatureLowAvoidC": -20, "temperatureLowMarginalC": -20,
              "deltaTLowAvoidBelowC": 0, "rainMarginalMm": 1, "rainAvoidMm": 3,
              "precipitationProbabilityMarginal": 0.5, "precipitationProbabilityAvoid": 0.9}}}
            """
        try writeConfig(config, for: runner)
        let text = try run(runner, ["weather", "--at", "-38.4,-71.58", "--spray"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let flat = Self.flat(text.stdout)
        let document = try json(runner, ["weather", "--at", "-38.4,-71.58", "--spray"])
        let slots = try XCTUnwrap((document["spray"] as? [String: Any])?["slots"] as? [[String: Any]])
        var reasons = Set<String>()
        for slot in slots {
            let findings = try XCTUnwrap(slot["findings"] as? [[String: Any]])
            let notGood = findings.filter { $0["verdict"] as? String != "good" }
            for finding in notGood {
                let rule = finding["rule"] as? String
                if rule == "wind" || rule == "gust", let kmh = finding["value"] as? Double {
                    // km/h ÷ 3.6, one decimal, a whole number bare.
                    let metres = (kmh / 3.6 * 10).rounded() / 10
                    let shown = metres == metres.rounded() ? String(Int(metres)) : String(format: "%.1f", metres)
                    let label = (rule == "wind" ? "wind " : "gusts ") + shown + " m/s"
                    XCTAssertTrue(flat.contains(label), "\(label) not in \(text.stdout)")
                } else if let reason = finding["text"] as? String {
                    XCTAssertTrue(flat.contains(Self.flat(reason)), "\(reason) not in \(text.stdout)")
                }
                (finding["text"] as? String).map { _ = reasons.insert($0) }
            }
        }
        XCTAssertGreaterThan(reasons.count, 5, "\(reasons)")
        XCTAssertFalse(text.stdout.contains("km/h"), "one wind unit on the page: \(text.stdout)")
    }
}
