import AgroWeather
import Foundation

/// `agro weather --forecast|--spray --format csv`: the forecast's 3-hour slots, or with
/// `--spray` the verdict on each slot, one row each (docs/weather.md).
///
/// Numbers use a decimal point and no grouping whatever the interface language, times are
/// ISO 8601 in UTC, so the rows read the same into any spreadsheet or script.
package enum WeatherCSV {
    /// Header of the forecast rows: temperatures and wind speed in the requested units
    /// (`--units`), the rest in fixed units named in the column.
    package static let forecastHeader = [
        "start", "temperature", "feels_like", "humidity_percent", "wind_speed", "wind_gust", "wind_direction_deg",
        "precipitation_probability_percent", "rain_mm", "snow_mm", "clouds_percent", "condition",
    ]

    /// Header of the spray rows: the rules' units (°C, km/h at boom height, mm, %).
    package static let sprayHeader = [
        "start", "end", "verdict", "temperature_c", "humidity_percent", "boom_wind_kmh", "boom_gust_kmh", "delta_t_c",
        "rain_in_rainfast_period_mm", "precipitation_probability_percent", "reasons",
    ]

    package static func forecastRows(_ forecast: Forecast) -> [[String]] {
        forecast.list.map { slot in
            [
                time(slot.date), number(slot.main?.temp), number(slot.main?.feelsLike), number(slot.main?.humidity),
                number(slot.wind?.speed), number(slot.wind?.gust), number(slot.wind?.deg),
                number(slot.pop.map { $0 * 100 }), number(slot.rain?.threeHours), number(slot.snow?.threeHours),
                number(slot.clouds?.all), slot.condition?.description ?? slot.condition?.main ?? "",
            ]
        }
    }

    package static func sprayRows(_ report: SprayReport) -> [[String]] {
        report.slots.map { assessment in
            [
                time(assessment.slot.start), time(assessment.slot.end), assessment.verdict.rawValue,
                number(assessment.slot.temperatureC), number(assessment.slot.humidity), number(assessment.boomWindKmh),
                number(assessment.boomGustKmh), number(assessment.deltaT), number(assessment.rainInRainfastPeriodMm),
                number(assessment.precipitationProbabilityInRainfastPeriod.map { $0 * 100 }),
                assessment.reasons.map(\.text).joined(separator: "; "),
            ]
        }
    }

    package static func write(header: [String], rows: [[String]], environment: Environment) {
        environment.output.write(CSV.line(header) + "\n")
        for row in rows { environment.output.write(CSV.line(row) + "\n") }
    }

    /// At most two decimals, trailing zeros dropped ("12.5", "3", "-0.25"); empty when absent.
    package static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        var text = String(format: "%.2f", (value * 100).rounded() / 100)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// "2026-08-01T09:00:00Z".
    package static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
