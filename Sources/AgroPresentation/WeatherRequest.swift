import AgroDomain
import AgroWeather
import Foundation

/// One weather request, as `agro weather`, `/api/v1/weather` and the weather page take it: the
/// place (a point or a region's centre), the units, what to show, the product to be sprayed;
/// answered from a (cached) weather service in the request's language, with the region the
/// place lies in and the nearest representative, and the spray advice under the user's rules.
///
/// The fronts only read their parameters (options, query) into it and print or render its
/// `WeatherResult`; checks and wording are the same everywhere.
package struct WeatherRequest: Sendable {
    /// Where: a point, or the centre of a region (id or name).
    package enum Place: Sendable, Hashable {
        case point(Coordinates)
        case region(String)
    }

    package var place: Place
    package var units: WeatherUnits
    /// Current conditions.
    package var current: Bool
    /// The 5-day forecast.
    package var forecast: Bool
    /// Verdicts on the forecast's slots and the spray windows.
    package var spray: Bool
    /// The product to be sprayed (id or name); only with `spray`.
    package var product: String?

    /// A request whose parameters are checked: exactly one place, `product` only with `spray`.
    /// `at` is "LAT,LON" (`CoordinateParser`); `units` "metric" or "imperial", else `defaultUnits`.
    /// Without `forecast` and `spray`, current conditions.
    package init(
        at: String?, region: String?, units: String?, defaultUnits: WeatherUnits = .metric, current: Bool = false,
        forecast: Bool = false, spray: Bool = false, product: String? = nil
    ) throws {
        let place: Place
        switch (at, region) {
        case let (at?, nil): place = .point(try CoordinateParser.parse(at))
        case let (nil, region?): place = .region(region)
        case (_?, _?): throw RequestError.notBoth(.at, .region)
        case (nil, nil): throw RequestError.oneNeeded(.at, .region)
        }
        try self.init(
            place: place, units: units, defaultUnits: defaultUnits, current: current, forecast: forecast, spray: spray,
            product: product)
    }

    /// A request for a place already read (`agro weather --at LAT LON` takes two words).
    package init(
        place: Place, units: String?, defaultUnits: WeatherUnits = .metric, current: Bool = false, forecast: Bool = false,
        spray: Bool = false, product: String? = nil
    ) throws {
        if product != nil && !spray { throw RequestError.needs(.product, .spray) }
        self.place = place
        self.units = try Self.units(units, default: defaultUnits)
        self.current = current || !(forecast || spray)
        self.forecast = forecast
        self.spray = spray
        self.product = product
    }

    /// "metric" or "imperial" (the units a person judging a field may want); nil: `default`.
    package static func units(_ text: String?, default fallback: WeatherUnits) throws -> WeatherUnits {
        guard let text else { return fallback }
        guard let choice = WeatherUnitsChoice(rawValue: text.lowercased()) else {
            throw RequestError.unknownValue(.units, value: text, valid: WeatherUnitsChoice.allCases.map(\.rawValue))
        }
        return choice.units
    }

    /// The answer: the place resolved in `catalog`, the weather from `service` in the
    /// environment's language, the spray advice under `rules`.
    /// - Parameter keepingFailure: a weather failure is kept in the result (`failure`) with the
    ///   place, its region and representative, instead of thrown: a page shows what it can
    ///   without the service.
    package func answer(
        catalog: some Catalog, environment: Environment, service: CachedWeatherService, rules: SprayRules,
        keepingFailure: Bool = false
    ) async throws -> WeatherResult {
        let locale = environment.locale
        let regions = try catalog.regions(locale: locale)
        let point: Coordinates
        switch place {
        case let .point(coordinates):
            point = coordinates
        case let .region(name):
            let id = try catalog.resolve(name, kind: .region, locale: locale).id
            guard let found = regions.first(where: { $0.id == id }) else { throw CatalogError.notFound(kind: .region, id: id) }
            point = found.centre
        }
        let productMatch = try product.map { try catalog.resolve($0, kind: .product, locale: locale) }
        var result = WeatherResult(
            point: point, units: units, locale: locale,
            region: NearestPlaces.region(nearestTo: point, in: regions),
            representative: NearestPlaces.representative(
                nearestTo: point, in: try catalog.representatives(locale: locale), regions: regions),
            product: productMatch)
        do {
            if current { result.current = try await service.currentAnswer(at: point, units: units, locale: locale) }
            if forecast || spray {
                let answer = try await service.forecastAnswer(at: point, units: units, locale: locale)
                result.forecast = answer
                if spray { result.spray = SprayAdvisor.report(forecast: answer.value, units: units, rules: rules) }
            }
        } catch let failure as WeatherError where keepingFailure {
            result.failure = failure
        }
        return result
    }
}

/// The answer to a `WeatherRequest`, with the ways the fronts show it: JSON (the CLI's and the
/// API's), CSV rows, text in the interface language.
package struct WeatherResult: Sendable {
    package var point: Coordinates
    package var units: WeatherUnits
    package var locale: String
    package var region: RegionDistance?
    package var representative: RepresentativeDistance?
    package var product: EntityRef?
    package var current: WeatherAnswer<CurrentWeather>?
    package var forecast: WeatherAnswer<Forecast>?
    package var spray: SprayReport?
    /// Why the weather is missing, when the request kept its failure (`keepingFailure`).
    package var failure: WeatherError?

    /// The warning of a cached answer that stands in for a failed fetch, in the interface
    /// language: the failure as the error table words it, and the answer's age.
    package func warning(_ s: Localizer) -> String? {
        let stale: (WeatherError, AnswerSource)? =
            current.flatMap { answer in answer.failure.map { ($0, answer.source) } }
            ?? forecast.flatMap { answer in answer.failure.map { ($0, answer.source) } }
        guard let (failure, source) = stale, case let .cache(age) = source else { return nil }
        return s("weather.staleAnswer", ServiceErrorWording.report(failure, s).message, Self.age(age, s))
    }

    /// "45 s", "12 min", "3 h 05 min", "2 d 4 h" in the interface language.
    package static func age(_ seconds: Double, _ s: Localizer) -> String {
        let total = Int(saturating: max(0, seconds).rounded())
        if total < 60 { return s("duration.seconds", total) }
        if total < 3600 { return s("duration.minutes", total / 60) }
        if total < 86400 {
            return s("duration.hours", total / 3600) + " " + s("duration.minutes", String(format: "%02d", (total % 3600) / 60))
        }
        return s("duration.days", total / 86400) + " " + s("duration.hours", (total % 86400) / 3600)
    }

    /// The JSON document: the forecast (with the spray verdicts) when asked for, else the
    /// current conditions; `product` beside them.
    package func json() throws -> String {
        if let forecast {
            return Environment.json(
                data: try WeatherJSON.encode(
                    WeatherDocument(
                        output: WeatherOutput(
                            point: point, units: units, locale: locale, answer: forecast, region: region,
                            representative: representative, spray: spray), product: product)))
        }
        guard let current else { return "{}\n" }
        return Environment.json(
            data: try WeatherJSON.encode(
                WeatherDocument(
                    output: WeatherOutput(
                        point: point, units: units, locale: locale, answer: current, region: region,
                        representative: representative),
                    product: nil)))
    }

    /// CSV: the spray verdicts, else the forecast's slots (current conditions are one record).
    package var csv: (header: [String], rows: [[String]])? {
        if let spray { return (WeatherCSV.sprayHeader, WeatherCSV.sprayRows(spray)) }
        if let forecast { return (WeatherCSV.forecastHeader, WeatherCSV.forecastRows(forecast.value)) }
        return nil
    }

    /// Text in the interface language: where the place is, then current conditions, the
    /// forecast table and chart, and the spray report, whichever were asked for. The warning
    /// of a stand-in answer is left to the caller (`warning(_:)`: the CLI writes it on stderr).
    package func text(environment: Environment, forecastTable: Bool, width: Int, tableWidth: Int) -> [String] {
        let wording = WeatherWording.localized(environment.strings, units: units)
        var lines: [String] = []
        if let current {
            lines.append(
                WeatherText.current(
                    current.value, units: units, region: region, representative: representative, source: current.source,
                    wording: wording))
        } else {
            lines += placeLines(environment.strings)
        }
        if let forecast, forecastTable {
            lines += ["", WeatherText.forecastTable(forecast.value, units: units, width: tableWidth, wording: wording)]
            lines += ["", WeatherText.forecastChart(forecast.value, units: units, width: width, wording: wording)]
        }
        if let spray, let forecast {
            lines += [
                "",
                WeatherText.sprayReport(
                    spray, timeZoneOffset: forecast.value.city?.timezone, width: width, productName: product?.name,
                    wording: wording),
            ]
        }
        return lines
    }

    /// Where the answer came from and for which place: cache age, region, representative.
    private func placeLines(_ s: Localizer) -> [String] {
        var lines: [String] = []
        if case let .cache(age)? = forecast?.source { lines.append(s("weather.cached", Self.age(age, s))) }
        if let region {
            lines.append(
                s(
                    "weather.region", region.region.name, region.region.id,
                    s("weather.km", s.decimal(WeatherText.kilometres(region.distanceKm)))))
        }
        if let nearest = representative {
            let reach = WeatherText.contact(nearest.representative)
            lines.append(
                s(
                    "weather.representative", reach,
                    nearest.distanceKm.map { s("weather.km", s.decimal(WeatherText.kilometres($0))) } ?? "?"))
        }
        return lines
    }
}

/// `WeatherOutput` plus the product the spray report is for.
package struct WeatherDocument<Value: Encodable & Sendable>: Encodable {
    package var output: WeatherOutput<Value>
    package var product: EntityRef?

    private enum Keys: String, CodingKey { case product }

    package func encode(to encoder: any Encoder) throws {
        // Both write into the same top-level object: JSONEncoder merges keyed containers.
        try output.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(product, forKey: .product)
    }
}
