import AgroDomain
import AgroTerminal
import Foundation

/// Plain-text renderings for the terminal: current conditions, the forecast table and chart,
/// and the spray report. Times are shown in the place's local time (the answer's UTC offset).
public enum WeatherText {
    // MARK: - Current conditions

    /// Current conditions, the region and the nearest representative, one fact per line.
    /// Absent values are left out, not shown as zero.
    public static func current(
        _ weather: CurrentWeather, units: WeatherUnits, region: RegionDistance? = nil,
        representative: RepresentativeDistance? = nil, source: AnswerSource? = nil, warning: String? = nil
    ) -> String {
        var lines: [String] = []
        if let warning { lines.append("warning: \(warning)") }
        let offset = weather.timezone
        let clock = LocalClock(offset: offset)
        var title = [weather.name, weather.sys?.country].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: ", ")
        if let point = weather.coord?.coordinates {
            title += (title.isEmpty ? "" : " ") + "(\(degrees(point.latitude)), \(degrees(point.longitude)))"
        }
        if let date = weather.date { title += (title.isEmpty ? "" : ", ") + "observed \(clock.dateTime(date)) \(zoneName(offset))" }
        if !title.isEmpty { lines.append(title) }
        if case let .cache(age)? = source { lines.append("(cached answer, \(formatAge(age)) old)") }
        if let description = weather.condition?.description ?? weather.condition?.main {
            lines.append(capitalizedFirst(description))
        }
        var rows: [(String, String)] = []
        let t = units.temperatureSymbol
        if let main = weather.main {
            var text = main.temp.map { "\(one($0)) \(t)" } ?? ""
            if let feels = main.feelsLike { text += (text.isEmpty ? "" : " ") + "(feels like \(one(feels)) \(t))" }
            if let low = main.tempMin, let high = main.tempMax { text += ", min \(one(low)), max \(one(high))" }
            if !text.isEmpty { rows.append(("Temperature", text)) }
            if let humidity = main.humidity { rows.append(("Humidity", "\(whole(humidity)) %")) }
            if let pressure = main.pressure { rows.append(("Pressure", "\(whole(pressure)) hPa")) }
        }
        if let wind = weather.wind, let speed = wind.speed {
            var text = "\(one(speed)) \(units.speedSymbol)"
            if let deg = wind.deg { text += " from \(compass(deg)) (\(whole(deg))°)" }
            if let gust = wind.gust { text += ", gusts \(one(gust)) \(units.speedSymbol)" }
            rows.append(("Wind", text))
        }
        if let clouds = weather.clouds?.all { rows.append(("Clouds", "\(whole(clouds)) %")) }
        if let visibility = weather.visibility {
            rows.append(("Visibility", visibility >= 1000 ? "\(one(visibility / 1000)) km" : "\(whole(visibility)) m"))
        }
        for (label, block) in [("Rain", weather.rain), ("Snow", weather.snow)] {
            guard let block else { continue }
            var parts: [String] = []
            if let hour = block.oneHour { parts.append("\(amount(hour)) mm in the last hour") }
            if let three = block.threeHours { parts.append("\(amount(three)) mm in the last 3 hours") }
            if !parts.isEmpty { rows.append((label, parts.joined(separator: ", "))) }
        }
        if let sunrise = weather.sys?.sunrise, let sunset = weather.sys?.sunset {
            let rise = clock.time(Date(timeIntervalSince1970: TimeInterval(sunrise)))
            let set = clock.time(Date(timeIntervalSince1970: TimeInterval(sunset)))
            rows.append(("Sun", "rises \(rise), sets \(set) (\(zoneName(offset)))"))
        }
        if let region {
            rows.append(("Region", "\(region.region.name) (\(region.region.id)), \(distance(region.distanceKm)) from its centre"))
        }
        if let representative {
            var text = contact(representative.representative)
            if let km = representative.distanceKm { text += " (\(distance(km)) away)" }
            rows.append(("Representative", text))
        }
        // One label width for every answer, so outputs line up from run to run.
        let labelWidth = max(TerminalWidth.width(of: "Representative"), rows.map { TerminalWidth.width(of: $0.0) }.max() ?? 0)
        lines += rows.map { TerminalWidth.padded($0.0, to: labelWidth) + "  " + $0.1 }
        return lines.joined(separator: "\n")
    }

    // MARK: - Forecast table

    /// The forecast as a table, one row per slot, with a blank line between days. The
    /// conditions column is cut to fit `width`; when fewer than 8 columns are left it is
    /// dropped. The numeric columns need about 92 columns and are never cut.
    public static func forecastTable(_ forecast: Forecast, units: WeatherUnits, width: Int = 100) -> String {
        let offset = forecast.city?.timezone
        let clock = LocalClock(offset: offset)
        let speed = units.speedSymbol
        var header = ["Time", "Temp \(units.temperatureSymbol)", "Feels", "Wind \(speed)", "Gust", "Dir", "Rain mm", "Snow mm", "PoP %", "Hum %", "Cloud %"]
        // Sorted once: the rows and the day breaks below walk the same order.
        let slots = forecast.list.sorted { $0.dt < $1.dt }
        var rows: [[String]] = slots.map { slot in
            [
                clock.dayTime(slot.date),
                slot.main?.temp.map(one) ?? "-",
                slot.main?.feelsLike.map(one) ?? "-",
                slot.wind?.speed.map(one) ?? "-",
                slot.wind?.gust.map(one) ?? "-",
                slot.wind?.deg.map(compass) ?? "-",
                (slot.rain?.threeHours).map(amount) ?? "",
                (slot.snow?.threeHours).map(amount) ?? "",
                slot.pop.map { whole($0 * 100) } ?? "-",
                slot.main?.humidity.map(whole) ?? "-",
                slot.clouds?.all.map(whole) ?? "-",
                slot.condition?.description ?? "",
            ]
        }
        header.append("Conditions")
        let fixed = header.indices.dropLast().map { column in
            max(TerminalWidth.width(of: header[column]), rows.map { TerminalWidth.width(of: $0[column]) }.max() ?? 0)
        }
        let used = fixed.reduce(0, +) + 2 * fixed.count
        let room = width - used
        let showConditions = room >= 8
        if showConditions {
            rows = rows.map { row in
                row.enumerated().map { $0.offset == row.count - 1 ? TerminalWidth.truncated($0.element, to: room) : $0.element }
            }
        } else {
            header.removeLast()
            rows = rows.map { Array($0.dropLast()) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                if column < fixed.count {
                    // Text columns left, numbers right.
                    return column == 0 || column == 5
                        ? TerminalWidth.padded(cell, to: fixed[column]) : TerminalWidth.paddedLeft(cell, to: fixed[column])
                }
                return cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var output = [line(header)]
        var previousDay: String?
        for (row, slot) in zip(rows, slots) {
            let day = clock.day(slot.date)
            if let previousDay, previousDay != day { output.append("") }
            previousDay = day
            output.append(line(row))
        }
        var title = "Forecast"
        if let name = forecast.city?.name, !name.isEmpty { title += " for \(name)" }
        title += ", times in \(zoneName(offset))"
        output += TerminalWidth.wrapped(
            "Rain and snow: mm in the 3 hours up to each time; PoP: probability of precipitation.", width: max(40, width))
        return ([title] + output).joined(separator: "\n")
    }

    // MARK: - Chart

    /// Temperature, wind (and gusts) and precipitation over the forecast as three text charts
    /// sharing one time axis, fitted to `width` columns.
    public static func forecastChart(_ forecast: Forecast, units: WeatherUnits, width: Int = 80, height: Int = 6) -> String {
        let slots = forecast.list.sorted { $0.dt < $1.dt }
        guard !slots.isEmpty else { return "No forecast slots to chart." }
        let offset = forecast.city?.timezone
        let clock = LocalClock(offset: offset)
        let labelWidth = 8
        let plotWidth = max(10, width - labelWidth - 2)
        let columns = TextChart.columns(count: slots.count, width: plotWidth)
        let times = slots.map(\.date)
        let temperature = TextChart.render(
            title: "Temperature, \(units.temperatureSymbol)", values: slots.map { $0.main?.temp }, columns: columns,
            height: height, labelWidth: labelWidth, style: .line)
        let wind = TextChart.render(
            title: "Wind (*) and gusts (+), \(units.speedSymbol)", values: slots.map { $0.wind?.speed },
            extra: slots.map { $0.wind?.gust }, columns: columns, height: height, labelWidth: labelWidth, style: .line, floor: 0)
        let rain = TextChart.render(
            title: "Rain and snow, mm per 3 h", values: slots.map { ($0.rain?.threeHours ?? 0) + ($0.snow?.threeHours ?? 0) },
            columns: columns, height: max(3, height / 2), labelWidth: labelWidth, style: .bars, floor: 0)
        let axis = TextChart.timeAxis(times: times, columns: columns, labelWidth: labelWidth) { clock.day($0) }
        return [temperature, wind, rain, axis, "Days start at midnight, \(zoneName(offset))."].joined(separator: "\n")
    }

    // MARK: - Spray report

    /// Windows first (good ones longest first), then every slot with its verdict and reasons.
    /// - Parameter timeZoneOffset: the forecast city's UTC offset, seconds.
    public static func sprayReport(_ report: SprayReport, timeZoneOffset: Int?, width: Int = 100, productName: String? = nil) -> String {
        var lines: [String] = []
        let clock = LocalClock(offset: timeZoneOffset)
        let rainfast = "rain-fast period \(SprayAdvisor.f(report.rainfastHours)) h"
            + (report.rainfastIsDefault ? " (default: the catalog gives none for this product)" : "")
        lines += TerminalWidth.wrapped(
            "Spray windows\(productName.map { " for \($0)" } ?? ""), \(rainfast); times in \(zoneName(timeZoneOffset))",
            width: max(20, width))
        if report.windows.isEmpty {
            lines.append("  none: every slot of the forecast is to be avoided")
        }
        for window in report.windows {
            let hours = SprayAdvisor.f(window.duration / 3600)
            lines.append("  \(TerminalWidth.padded(window.verdict.rawValue, to: 8)) \(clock.dayTime(window.start)) - "
                         + "\(clock.dayTime(window.end))  \(hours) h")
        }
        lines.append("")
        lines.append("By slot:")
        let indent = 2 + 12 + 2 + 8 + 1
        for assessment in report.slots {
            let head = "  \(TerminalWidth.padded(clock.dayTime(assessment.slot.start), to: 12))  "
                + "\(TerminalWidth.padded(assessment.verdict.rawValue, to: 8)) "
            let reasons = assessment.reasons.map(\.text)
            let wrapped = TerminalWidth.wrapped(reasons.joined(separator: "; "), width: max(20, width - indent))
            if wrapped.isEmpty {
                lines.append(head.trimmingTrailingSpaces())
            } else {
                lines.append(head + wrapped[0])
                lines += wrapped.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            }
        }
        lines.append("")
        lines += TerminalWidth.wrapped(
            "Forecast wind is for 10 m; judged at \(SprayAdvisor.f(report.rules.boomHeightMetres)) m boom height "
                + "(× \(String(format: "%.2f", report.rules.windHeightFactor))). Check conditions on site before spraying.",
            width: max(20, width))
        return lines.joined(separator: "\n")
    }

    // MARK: - Pieces

    /// 16-point compass name for a direction in degrees.
    public static func compass(_ degrees: Double) -> String {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return names[(Int(saturating: (normalized / 22.5).rounded()) % 16 + 16) % 16]
    }

    /// "UTC", "UTC+3", "UTC-4", "UTC+5:30".
    static func zoneName(_ offset: Int?) -> String {
        guard let offset, offset != 0 else { return "UTC" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return minutes % 60 == 0 ? "UTC\(sign)\(minutes / 60)" : String(format: "UTC%@%d:%02d", sign, minutes / 60, minutes % 60)
    }

    static func one(_ value: Double) -> String {
        let text = String(format: "%.1f", value)
        return text == "-0.0" ? "0.0" : text
    }

    static func whole(_ value: Double) -> String { String(Int(saturating: value.rounded())) }

    static func amount(_ value: Double) -> String { trimmedDecimal(value, places: 2) }

    static func degrees(_ value: Double) -> String { String(format: "%.2f", value) }

    /// "7.5 km", "312 km".
    static func distance(_ km: Double) -> String { kilometres(km) + " km" }

    /// "7.5", "312": kilometres with a decimal only where it matters; the number alone, for
    /// callers that put it into a localized unit text.
    public static func kilometres(_ km: Double) -> String {
        km < 10 ? String(format: "%.1f", km) : String(Int(saturating: km.rounded()))
    }

    /// How to reach a representative: name, position, phone and e-mail, those that are known.
    public static func contact(_ person: Representative) -> String {
        [person.name, person.position, person.phone, person.email].compactMap { $0 }.joined(separator: ", ")
    }

    static func capitalizedFirst(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

/// `value` with at most `places` decimals (at least 1), trailing zeros and a bare point dropped:
/// 0.25, 1.5, 2. "-0" stays as printf writes it; callers that mind it map it themselves.
func trimmedDecimal(_ value: Double, places: Int) -> String {
    var text = String(format: "%.\(max(1, places))f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
