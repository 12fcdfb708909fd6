import AgroWeather
import Foundation

/// The `weather` section of config.json:
///
///     "weather": {"apiKey": "...", "units": "imperial", "spray": {"windGoodMaxKmh": 12}}
///
/// `spray` takes any subset of `SprayRules`' fields; the rest keep their documented defaults.
package struct WeatherSettings: Codable, Sendable {
    /// OpenWeatherMap API key; OPENWEATHER_API_KEY takes precedence.
    package var apiKey: String?
    /// Default units; --units takes precedence.
    package var units: WeatherUnitsChoice?
    /// Spray-threshold overrides.
    package var spray: SprayRules?
}

/// The units a user may ask for. OpenWeatherMap also has "standard" (Kelvin), which no one
/// judging a field wants, so it is not offered.
package enum WeatherUnitsChoice: String, Codable, Sendable, CaseIterable {
    case metric, imperial

    package var units: WeatherUnits { self == .metric ? .metric : .imperial }
}

extension WeatherSettings {
    /// The `weather` section of the user's config.json, if any.
    package static func load(from url: URL) throws -> WeatherSettings? {
        try Configuration.decode(ConfigFile.self, from: url)?.weather
    }

    /// The config file as `agro weather` reads it: its own section only.
    private struct ConfigFile: Decodable {
        var weather: WeatherSettings?
    }
}
