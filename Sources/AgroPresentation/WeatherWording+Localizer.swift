import AgroDomain
import AgroWeather
import Foundation

extension WeatherWording {
    /// The weather texts in the interface language: phrases from the `weather.` keys of
    /// `Localizable/<lang>.json` (the English file repeats the library's English), numbers with
    /// the language's decimal separator, spray findings worded from their typed rule, verdict,
    /// value and threshold; a cached answer's age in the language's units; dates in the
    /// language's pattern (`weather.clock.*`) with its weekday names.
    /// - Parameter units: the person's units: spray findings give wind and gusts in them
    ///   (m/s, mph), as the current conditions do, though the rules count in km/h.
    package static func localized(_ s: Localizer, units: WeatherUnits = .metric) -> WeatherWording {
        WeatherWording(
            phrase: { key, english in
                let full = "weather." + key
                let text = s(full)
                return text == full ? english : text
            },
            number: { s.decimal($0) },
            finding: { finding, report in sprayFinding(finding, rainfastHours: report.rainfastHours, units: units, s) },
            age: { WeatherResult.age($0, s) },
            locale: s.locale)
    }

    /// One spray finding in the interface language; the English strings reproduce
    /// `SprayAdvisor`'s texts word for word.
    package static func sprayFinding(
        _ finding: SprayFinding, rainfastHours: Double, units: WeatherUnits = .metric, _ s: Localizer
    ) -> String {
        // As SprayAdvisor writes them: whole numbers bare, else one decimal (f) or up to two (f2).
        func f(_ v: Double) -> String { s.decimal(v == v.rounded() ? v.plainText : String(format: "%.1f", v)) }
        func f2(_ v: Double) -> String {
            var text = String(format: "%.2f", v)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return s.decimal(text)
        }
        // A speed the rules give in km/h, in the person's unit (one unit per page).
        func speed(_ kmh: Double) -> String {
            units == .imperial
                ? f((kmh / 1.609_344 * 10).rounded() / 10) + " " + s("weather.unit.mph")
                : f((kmh / 3.6 * 10).rounded() / 10) + " " + s("weather.unit.metresPerSecond")
        }
        // printf, not Int(): a server may send any number, and Int() traps on huge ones.
        func percent(_ v: Double) -> String { String(format: "%.0f", (v * 100).rounded()) }
        let verdict = finding.verdict
        if finding.rule == .inversion {
            switch verdict {
            case .good: return s("weather.finding.inversion.daytime")
            case .avoid: return s("weather.finding.inversion.likely")
            case .marginal: return s("weather.finding.inversion.common")
            }
        }
        guard let v = finding.value else {
            switch finding.rule {
            case .wind: return s("weather.finding.missing.wind")
            case .gust: return s("weather.finding.missing.gust")
            case .precipitationProbability: return s("weather.finding.missing.precipitationProbability")
            case .temperature: return s("weather.finding.missing.temperature")
            case .humidity: return s("weather.finding.missing.humidity")
            case .deltaT: return s("weather.finding.missing.deltaT")
            case .rain, .inversion: return finding.text
            }
        }
        let limit = finding.threshold ?? v
        switch finding.rule {
        case .wind, .deltaT:
            let isWind = finding.rule == .wind
            let label = isWind ? s("weather.finding.wind", speed(v)) : s("weather.finding.deltaT", f(v))
            let bound = isWind ? speed(limit) : f(limit)
            if verdict == .good { return label }
            if v < limit {
                return s(
                    "weather.finding.below", label, bound,
                    isWind ? s("weather.finding.wind.tooLow") : s("weather.finding.deltaT.tooLow"))
            }
            let why =
                verdict == .marginal
                ? (isWind ? s("weather.finding.wind.tooHigh") : s("weather.finding.deltaT.tooHigh"))
                : (isWind ? s("weather.finding.wind.farTooHigh") : s("weather.finding.deltaT.farTooHigh"))
            return s("weather.finding.above", label, bound, why)
        case .gust:
            return verdict == .good ? s("weather.finding.gust", speed(v)) : s("weather.finding.gustAbove", speed(v), speed(limit))
        case .rain:
            switch verdict {
            case .good: return s("weather.finding.rain.none", f(rainfastHours))
            case .marginal where finding.snow == true: return s("weather.finding.snow.some", f2(v), f(rainfastHours))
            case .avoid where finding.snow == true:
                return s("weather.finding.snow.washesOff", f2(v), f(rainfastHours), f2(limit))
            case .marginal: return s("weather.finding.rain.some", f2(v), f(rainfastHours))
            case .avoid: return s("weather.finding.rain.washesOff", f2(v), f(rainfastHours), f2(limit))
            }
        case .precipitationProbability:
            return verdict == .avoid
                ? s("weather.finding.rainChanceAvoid", percent(v), percent(limit)) : s("weather.finding.rainChance", percent(v))
        case .temperature:
            if verdict == .good { return s("weather.finding.temperature", f(v)) }
            if v < limit {
                let why = verdict == .avoid ? s("weather.finding.temperature.frost") : s("weather.finding.temperature.slowUptake")
                return s("weather.finding.temperature.below", f(v), f(limit), why)
            }
            return s("weather.finding.temperature.above", f(v), f(limit))
        case .humidity:
            return verdict == .good ? s("weather.finding.humidity", f(v)) : s("weather.finding.humidity.below", f(v), f(limit))
        case .inversion:
            return finding.text
        }
    }
}
