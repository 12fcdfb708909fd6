import AgroDomain
import AgroPresentation
import AgroWeather
import Foundation

/// Weather at a point, laid out for a phone: the current conditions as labelled facts, the
/// spray windows as a strip of 3-hour slots coloured by verdict (each slot's reasons open on
/// tap, a `<details>`, so without JavaScript too), and the nearest representative to call.
extension Pages {
    static func weather(_ page: PageContext) async throws -> Rendered {
        let regions = try page.catalog.regions(locale: page.locale)
        let asked = page.web.query("region")
        var values: [String: Any] = [
            "at": page.web.query("at") ?? "", "spray": page.web.flag("spray") || page.web.query("at") == nil && asked == nil,
            "regions": regions.sorted { NameOrder.namePrecedes($0.name, $1.name) }
                .map { ["id": $0.id, "name": $0.name, "selected": $0.id == asked] },
            "verdicts": SprayVerdict.allCases.map { ["code": $0.rawValue, "name": weatherWording(page).verdict($0)] },
        ]
        guard page.web.query("at") != nil || asked != nil else {
            return Rendered(template: "weather", title: page.t("web.weather"), values: values)
        }
        // A region chosen from the list wins over coordinates left in the field. The request is
        // the API's and `agro weather`'s (WeatherRequest), with current conditions always shown.
        let request = try WeatherRequest(
            at: asked == nil ? page.web.query("at").map(Self.coordinates) : nil, region: asked, units: nil, current: true,
            spray: page.web.flag("spray"))
        let result = try await request.answer(
            catalog: page.catalog, environment: page.environment, service: try page.app.weatherService(for: page.web.request),
            rules: page.app.sprayRules, keepingFailure: true)
        let wording = weatherWording(page, units: result.units)
        if let failure = result.failure {
            let reason = ServiceErrorWording.report(failure, page.environment.strings, spelling: .query).message
            values["unavailable"] = page.t("web.weather.withoutIt", reason)
        }
        if let current = result.current {
            let parts = WeatherText.currentParts(
                current.value, units: result.units, region: result.region, source: current.source,
                warning: result.warning(page.environment.strings), wording: wording)
            values["current"] = ["heading": parts.heading, "rows": parts.rows.map { ["label": $0.label, "value": $0.value] }]
        }
        let representative = result.representative
        if let representative {
            let person = representative.representative
            values["representative"] =
                [
                    "label": wording.phrase("current.representative", "Representative"), "name": person.name,
                    "position": person.position ?? "", "phone": person.phone ?? "", "tel": person.phone.map(telephone) ?? "",
                    "distance": representative.distanceKm.map {
                        page.t("web.kmAway", page.environment.strings.number(($0).rounded()))
                    } ?? "",
                ] as [String: Any]
        }
        if let report = result.spray, let forecast = result.forecast {
            values["report"] = sprayStrip(report, offset: forecast.value.city?.timezone ?? 0, wording: wording, page)
        }
        return Rendered(template: "weather", title: page.t("web.weather"), values: values)
    }

    /// The spray report by day: each day a row of its slots, each slot its local time, verdict
    /// (the class colours it) and reasons; the best windows above.
    static func sprayStrip(_ report: SprayReport, offset: Int, wording: WeatherWording, _ page: PageContext) -> [String: Any] {
        let zone = WeatherPlausibility.timeZone(offset: offset)
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: page.locale)
            formatter.timeZone = zone
            formatter.dateFormat = format
            return formatter
        }
        let day = formatter("EEE d MMM"), time = formatter("HH:mm")
        var days: [(String, [[String: Any]])] = []
        for assessment in report.slots {
            let name = day.string(from: assessment.slot.start)
            let reasons = assessment.reasons.map { wording.finding($0, report) }
            let slot: [String: Any] = [
                "time": time.string(from: assessment.slot.start), "verdict": assessment.verdict.rawValue,
                "verdictName": wording.verdict(assessment.verdict), "reasons": reasons, "hasReasons": !reasons.isEmpty,
            ]
            if days.last?.0 == name { days[days.count - 1].1.append(slot) } else { days.append((name, [slot])) }
        }
        let hours = { (seconds: TimeInterval) in page.environment.strings.number((seconds / 360).rounded() / 10) }
        return [
            "days": days.map { ["day": $0.0, "slots": $0.1] },
            "windows": report.windows.prefix(5).map { window -> [String: String] in
                [
                    "verdict": window.verdict.rawValue, "verdictName": wording.verdict(window.verdict),
                    "when":
                        "\(day.string(from: window.start)) \(time.string(from: window.start))–\(time.string(from: window.end))",
                    "hours": page.t("web.hours", hours(window.duration)),
                ]
            },
            "none": report.windows.isEmpty
                ? wording.phrase("spray.none", "none: every slot of the forecast is to be avoided") : "",
            "zone": offset == 0 ? "UTC" : String(format: "UTC%+d", offset / 3600),
        ]
    }

    /// Typed coordinates as the parser reads them: a decimal comma ("51,18 71,45" or
    /// "51,18; 71,45") becomes a point, the two numbers then split by a comma.
    static func coordinates(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains(";") {
            return trimmed.replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: ";", with: ",")
        }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words.count == 2, words.allSatisfy({ $0.contains(",") }) {
            return words.map { $0.replacingOccurrences(of: ",", with: ".") }.joined(separator: ",")
        }
        let pieces = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        if pieces.count == 4 {
            return "\(pieces[0]).\(pieces[1]),\(pieces[2]).\(pieces[3])".replacingOccurrences(of: " ", with: "")
        }
        return trimmed
    }

    /// The weather texts in the page's language, as `agro weather` words them.
    static func weatherWording(_ page: PageContext, units: WeatherUnits = .metric) -> WeatherWording {
        WeatherWording.localized(page.environment.strings, units: units)
    }
}
