import AgroDomain
import AgroTerminal
import Foundation

/// Plain-text renderings for the terminal: current conditions, the forecast table and chart,
/// and the spray report. Times are shown in the place's local time (the answer's UTC offset).
public enum WeatherText {
    // MARK: - Current conditions

    /// A condition in the wording's language: the phrase of its OpenWeatherMap code
    /// ("condition.501"), else the server's own description (OpenWeatherMap speaks no Kazakh,
    /// so a Kazakh page would otherwise read "moderate rain").
    static func describe(_ condition: WeatherCondition?, _ w: WeatherWording) -> String? {
        guard let condition, let text = condition.description ?? condition.main else { return nil }
        guard let id = condition.id else { return text }
        return w.phrase("condition.\(id)", text)
    }

    /// Current conditions, the region and the nearest representative, one fact per line.
    /// Absent values are left out, not shown as zero.
    public static func current(
        _ weather: CurrentWeather, units: WeatherUnits, region: RegionDistance? = nil,
        representative: RepresentativeDistance? = nil, source: AnswerSource? = nil, warning: String? = nil,
        wording w: WeatherWording = .english
    ) -> String {
        let (lines, rows) = currentParts(
            weather, units: units, region: region, representative: representative, source: source, warning: warning, wording: w)
        // One label width for every answer, so outputs line up from run to run.
        let representativeLabel = w("current.representative", "Representative")
        let labelWidth = max(
            TerminalWidth.width(of: representativeLabel), rows.map { TerminalWidth.width(of: $0.label) }.max() ?? 0)
        return (lines + rows.map { TerminalWidth.padded($0.label, to: labelWidth) + "  " + $0.value }).joined(separator: "\n")
    }

    /// Current conditions in pieces, for a page to lay out: the heading lines (warning, place
    /// and time, cache age, description) and the labelled facts, worded as `current` words them.
    public static func currentParts(
        _ weather: CurrentWeather, units: WeatherUnits, region: RegionDistance? = nil,
        representative: RepresentativeDistance? = nil, source: AnswerSource? = nil, warning: String? = nil,
        wording w: WeatherWording = .english
    ) -> (heading: [String], rows: [(label: String, value: String)]) {
        var lines: [String] = []
        if let warning { lines.append(w("current.warning", "warning: {0}", warning)) }
        let one = { w.number(Self.one($0)) }, amount = { w.number(Self.amount($0)) }
        let offset = weather.timezone
        let clock = LocalClock(offset: offset, wording: w)
        var title = [weather.name, weather.sys?.country].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: ", ")
        if let point = weather.coord?.coordinates {
            // Coordinates keep the decimal point: with a decimal comma the pair would read as four numbers.
            title += (title.isEmpty ? "" : " ") + "(\(degrees(point.latitude)), \(degrees(point.longitude)))"
        }
        if let date = weather.date {
            title +=
                (title.isEmpty ? "" : ", ") + w("current.observed", "observed {0} {1}", clock.dateTime(date), zoneName(offset))
        }
        if !title.isEmpty { lines.append(title) }
        if case let .cache(age)? = source { lines.append(w("current.cached", "(cached answer, {0} old)", w.age(age))) }
        if let description = describe(weather.condition, w) { lines.append(capitalizedFirst(description)) }
        var rows: [(String, String)] = []
        let representativeLabel = w("current.representative", "Representative")
        let t = units.temperatureSymbol
        if let main = weather.main {
            var text = main.temp.map { "\(one($0)) \(t)" } ?? ""
            if let feels = main.feelsLike {
                text += (text.isEmpty ? "" : " ") + w("current.feelsLike", "(feels like {0} {1})", one(feels), t)
            }
            if let low = main.tempMin, let high = main.tempMax {
                text += w("current.minMax", ", min {0}, max {1}", one(low), one(high))
            }
            if !text.isEmpty { rows.append((w("current.temperature", "Temperature"), text)) }
            if let humidity = main.humidity { rows.append((w("current.humidity", "Humidity"), "\(whole(humidity)) %")) }
            if let pressure = main.pressure {
                rows.append((w("current.pressure", "Pressure"), w("current.hPa", "{0} hPa", whole(pressure))))
            }
        }
        if let wind = weather.wind, let speed = wind.speed {
            let speedSymbol = w.speed(units)
            var text = "\(one(speed)) \(speedSymbol)"
            if let deg = wind.deg { text += w("current.windFrom", " from {0} ({1}°)", w.compass(deg), whole(deg)) }
            if let gust = wind.gust { text += w("current.gusts", ", gusts {0} {1}", one(gust), speedSymbol) }
            rows.append((w("current.wind", "Wind"), text))
        }
        if let clouds = weather.clouds?.all { rows.append((w("current.clouds", "Clouds"), "\(whole(clouds)) %")) }
        if let visibility = weather.visibility {
            rows.append(
                (
                    w("current.visibility", "Visibility"),
                    visibility >= 1000
                        ? w("current.km", "{0} km", one(visibility / 1000)) : w("current.metres", "{0} m", whole(visibility))
                ))
        }
        for (label, block) in [(w("current.rain", "Rain"), weather.rain), (w("current.snow", "Snow"), weather.snow)] {
            guard let block else { continue }
            var parts: [String] = []
            if let hour = block.oneHour { parts.append(w("current.lastHour", "{0} mm in the last hour", amount(hour))) }
            if let three = block.threeHours { parts.append(w("current.last3Hours", "{0} mm in the last 3 hours", amount(three))) }
            if !parts.isEmpty { rows.append((label, parts.joined(separator: ", "))) }
        }
        if let sunrise = weather.sys?.sunrise, let sunset = weather.sys?.sunset {
            let rise = clock.time(Date(timeIntervalSince1970: TimeInterval(sunrise)))
            let set = clock.time(Date(timeIntervalSince1970: TimeInterval(sunset)))
            rows.append(
                (w("current.sun", "Sun"), w("current.sunTimes", "rises {0}, sets {1} ({2})", rise, set, zoneName(offset))))
        }
        if let region {
            rows.append(
                (
                    w("current.region", "Region"),
                    w(
                        "current.regionText", "{0} ({1}), {2} from its centre", region.region.name, region.region.id,
                        w("current.km", "{0} km", w.number(kilometres(region.distanceKm))))
                ))
        }
        if let representative {
            var text = contact(representative.representative)
            if let km = representative.distanceKm {
                text += w("current.away", " ({0} away)", w("current.km", "{0} km", w.number(kilometres(km))))
            }
            rows.append((representativeLabel, text))
        }
        return (lines, rows.map { (label: $0.0, value: $0.1) })
    }

    // MARK: - Forecast table

    /// The forecast as a table, one row per slot, with a blank line between days. The
    /// conditions column is cut to fit `width`; when fewer than 8 columns are left it is
    /// dropped. The numeric columns need about 92 columns and are never cut.
    public static func forecastTable(
        _ forecast: Forecast, units: WeatherUnits, width: Int = 100, wording w: WeatherWording = .english
    ) -> String {
        let one = { w.number(Self.one($0)) }, amount = { w.number(Self.amount($0)) }
        let offset = forecast.city?.timezone
        let clock = LocalClock(offset: offset, wording: w)
        let speed = w.speed(units)
        var header = [
            w("table.time", "Time"), w("table.temp", "Temp {0}", units.temperatureSymbol), w("table.feels", "Feels"),
            w("table.wind", "Wind {0}", speed), w("table.gust", "Gust"), w("table.direction", "Dir"), w("table.rain", "Rain mm"),
            w("table.snow", "Snow mm"), w("table.pop", "PoP %"), w("table.humidity", "Hum %"), w("table.clouds", "Cloud %"),
        ]
        // Sorted once: the rows and the day breaks below walk the same order.
        let slots = forecast.list.sorted { $0.dt < $1.dt }
        var rows: [[String]] = slots.map { slot in
            [
                clock.dayTime(slot.date),
                slot.main?.temp.map(one) ?? "-",
                slot.main?.feelsLike.map(one) ?? "-",
                slot.wind?.speed.map(one) ?? "-",
                slot.wind?.gust.map(one) ?? "-",
                slot.wind?.deg.map(w.compass) ?? "-",
                (slot.rain?.threeHours).map(amount) ?? "",
                (slot.snow?.threeHours).map(amount) ?? "",
                slot.pop.map { whole($0 * 100) } ?? "-",
                slot.main?.humidity.map(whole) ?? "-",
                slot.clouds?.all.map(whole) ?? "-",
                describe(slot.condition, w) ?? "",
            ]
        }
        header.append(w("table.conditions", "Conditions"))
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
        var title = w("table.title", "Forecast")
        if let name = forecast.city?.name, !name.isEmpty { title += w("table.for", " for {0}", name) }
        title += w("table.timesIn", ", times in {0}", zoneName(offset))
        output += TerminalWidth.wrapped(
            w("table.note", "Rain and snow: mm in the 3 hours up to each time; PoP: probability of precipitation."),
            width: max(40, width))
        return ([title] + output).joined(separator: "\n")
    }

    // MARK: - Chart

    /// Temperature, wind (and gusts) and precipitation over the forecast as three text charts
    /// sharing one time axis, fitted to `width` columns.
    public static func forecastChart(
        _ forecast: Forecast, units: WeatherUnits, width: Int = 80, height: Int = 6, wording w: WeatherWording = .english
    ) -> String {
        let slots = forecast.list.sorted { $0.dt < $1.dt }
        guard !slots.isEmpty else { return w("chart.empty", "No forecast slots to chart.") }
        let offset = forecast.city?.timezone
        let clock = LocalClock(offset: offset, wording: w)
        let labelWidth = 8
        let plotWidth = max(10, width - labelWidth - 2)
        let columns = TextChart.columns(count: slots.count, width: plotWidth)
        let times = slots.map(\.date)
        let temperature = TextChart.render(
            title: w("chart.temperature", "Temperature, {0}", units.temperatureSymbol), values: slots.map { $0.main?.temp },
            columns: columns,
            height: height, labelWidth: labelWidth, style: .line, wording: w)
        let wind = TextChart.render(
            title: w("chart.wind", "Wind (*) and gusts (+), {0}", w.speed(units)), values: slots.map { $0.wind?.speed },
            extra: slots.map { $0.wind?.gust }, columns: columns, height: height, labelWidth: labelWidth, style: .line, floor: 0,
            wording: w)
        let rain = TextChart.render(
            title: w("chart.precipitation", "Rain and snow, mm per 3 h"),
            values: slots.map { ($0.rain?.threeHours ?? 0) + ($0.snow?.threeHours ?? 0) },
            columns: columns, height: max(3, height / 2), labelWidth: labelWidth, style: .bars, floor: 0, wording: w)
        let axis = TextChart.timeAxis(times: times, columns: columns, labelWidth: labelWidth) { clock.day($0) }
        return [temperature, wind, rain, axis, w("chart.days", "Days start at midnight, {0}.", zoneName(offset))].joined(
            separator: "\n")
    }

    // MARK: - Spray report

    /// Windows first (good ones longest first), then every slot with its verdict and reasons.
    /// - Parameter timeZoneOffset: the forecast city's UTC offset, seconds.
    public static func sprayReport(
        _ report: SprayReport, timeZoneOffset: Int?, width: Int = 100, productName: String? = nil,
        wording w: WeatherWording = .english
    ) -> String {
        var lines: [String] = []
        let clock = LocalClock(offset: timeZoneOffset, wording: w)
        let f = { w.number(SprayAdvisor.f($0)) }
        let rainfast =
            w("spray.rainfast", "rain-fast period {0} h", f(report.rainfastHours))
            + (report.rainfastIsDefault ? w("spray.rainfastDefault", " (default: the catalog gives none for this product)") : "")
        let product = productName.map { w("spray.for", " for {0}", $0) } ?? ""
        lines += TerminalWidth.wrapped(
            w("spray.title", "Spray windows{0}, {1}; times in {2}", product, rainfast, zoneName(timeZoneOffset)),
            width: max(20, width))
        if report.windows.isEmpty {
            lines.append("  " + w("spray.none", "none: every slot of the forecast is to be avoided"))
        }
        // The verdict column fits the longest verdict word, at least 8 as in English.
        let verdictWidth = max(8, SprayVerdict.allCases.map { TerminalWidth.width(of: w.verdict($0)) }.max() ?? 0)
        for window in report.windows {
            let hours = f(window.duration / 3600)
            lines.append(
                "  \(TerminalWidth.padded(w.verdict(window.verdict), to: verdictWidth)) \(clock.dayTime(window.start)) - "
                    + "\(clock.dayTime(window.end))  " + w("spray.hours", "{0} h", hours))
        }
        lines.append("")
        lines.append(w("spray.bySlot", "By slot:"))
        let indent = 2 + 12 + 2 + verdictWidth + 1
        for assessment in report.slots {
            let head =
                "  \(TerminalWidth.padded(clock.dayTime(assessment.slot.start), to: 12))  "
                + "\(TerminalWidth.padded(w.verdict(assessment.verdict), to: verdictWidth)) "
            let reasons = assessment.reasons.map { w.finding($0, report) }
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
            w(
                "spray.footer",
                "Forecast wind is for 10 m; judged at {0} m boom height (× {1}). Check conditions on site before spraying.",
                f(report.rules.boomHeightMetres), w.number(String(format: "%.2f", report.rules.windHeightFactor))),
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
        // Outside the range LocalClock formats in (abs(Int.min) would trap), times are in UTC.
        guard let offset, offset != 0, WeatherPlausibility.offsetSeconds.contains(offset) else { return "UTC" }
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
package func trimmedDecimal(_ value: Double, places: Int) -> String {
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
