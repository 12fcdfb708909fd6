import AgroDomain
import Foundation

/// What `--format json` prints for the weather commands: the raw OpenWeatherMap values as
/// received (same keys and units), where they came from, and the derived results.
public struct WeatherOutput<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The point asked about.
    public var point: Coordinates
    /// Metric, imperial or standard, as requested.
    public var units: WeatherUnits
    /// The language asked of OpenWeatherMap for its descriptions, if any (JSON key `lang`).
    public var locale: String?
    /// "network" or "cache".
    public var source: String
    /// Age of a cached answer, seconds; nil for a fresh fetch.
    public var ageSeconds: Double?
    /// Set when a cached answer stands in for a failed fetch.
    public var warning: String?
    /// The region whose centre is nearest, with the distance.
    public var region: RegionDistance?
    /// The nearest representative, with the distance.
    public var representative: RepresentativeDistance?
    /// The answer: `CurrentWeather` or `Forecast`.
    public var weather: Value
    /// Spray verdicts, for `--spray`.
    public var spray: SprayReport?

    /// The document for `answer` at `point`, with the nearest region and representative when known.
    public init(
        point: Coordinates, units: WeatherUnits, locale: String?, answer: WeatherAnswer<Value>,
        region: RegionDistance? = nil, representative: RepresentativeDistance? = nil, spray: SprayReport? = nil
    ) {
        self.point = point
        self.units = units
        self.locale = locale
        switch answer.source {
        case .network:
            source = "network"
            ageSeconds = nil
        case let .cache(age):
            source = "cache"
            ageSeconds = age
        }
        warning = answer.warning
        self.region = region
        self.representative = representative
        weather = answer.value
        self.spray = spray
    }

    // `lang` is the published key; the Swift name is the project's one word for a language code.
    private enum CodingKeys: String, CodingKey {
        case point, units
        case locale = "lang"
        case source, ageSeconds, warning, region, representative, weather, spray
    }
}

/// The one JSON style of the weather output: sorted keys, pretty, ISO 8601 dates.
public enum WeatherJSON {
    /// `value` as pretty JSON with sorted keys and ISO 8601 dates.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Gusts or visibility can be absent, but a NaN never comes from the decoder; guard anyway.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(value)
    }
}

extension SprayAdvisor {
    /// The spray report for a forecast in any units.
    /// - Parameter rainfastHours: the product's rain-fast period; nil uses the rules' default.
    public static func report(
        forecast: Forecast, units: WeatherUnits, rules: SprayRules = SprayRules(), rainfastHours: Double? = nil
    ) -> SprayReport {
        report(slots: SpraySlot.slots(from: forecast, units: units, rules: rules), rules: rules, rainfastHours: rainfastHours)
    }
}

extension Int {
    /// `value` as an integer, clamped to Int's range, 0 for NaN: numbers in a server's answer
    /// (1e300 is valid JSON) must not trap the conversion.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = Int.max
        } else if value <= -9.2e18 {
            self = Int.min
        } else {
            self = Int(value)
        }
    }
}
