import AgroDomain
import Foundation

/// A source of current weather and forecasts for a point.
///
/// `OpenWeatherMapClient` talks to the service; `CachedWeatherService` wraps any service with the
/// cache policy. Tests point the real client at a loopback server instead of mocking this.
public protocol WeatherService: Sendable {
    /// Current conditions at `point` (/data/2.5/weather).
    /// - Parameter lang: language code for condition descriptions ("ru", "fr"), nil for English.
    func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather
    /// 5-day forecast in 3-hour slots at `point` (/data/2.5/forecast).
    func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast
}

/// Where and how to reach OpenWeatherMap.
public struct OpenWeatherMapConfiguration: Sendable, Hashable {
    /// OpenWeatherMap's own API host.
    public static let defaultBaseURL = URL(string: "https://api.openweathermap.org")!  // a constant: cannot fail
    /// Environment variable holding the API key.
    public static let apiKeyVariable = "OPENWEATHER_API_KEY"
    /// Environment variable overriding the base URL (tests, proxies).
    public static let baseURLVariable = "AGRO_OPENWEATHER_URL"

    /// Scheme, host, port and optional path prefix; "/data/2.5/..." is appended.
    public var baseURL: URL
    /// The API key sent as `appid` (never logged: see `KeyRedactor`).
    public var apiKey: String
    /// Seconds one request may take in all (connect, answer, body).
    public var timeout: TimeInterval

    /// Settings for the service at `baseURL` with `apiKey`.
    public init(baseURL: URL = Self.defaultBaseURL, apiKey: String, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// The configuration from the environment, falling back to the config file's key.
    ///
    /// The key comes from OPENWEATHER_API_KEY, else `configFileKey`; the base URL from
    /// AGRO_OPENWEATHER_URL, else OpenWeatherMap's own.
    /// - Throws: `WeatherError.noAPIKey`, `WeatherError.invalidBaseURL`.
    public static func resolve(
        environment: [String: String], configFileKey: String?, timeout: TimeInterval = 15
    ) throws -> OpenWeatherMapConfiguration {
        let fromEnvironment = environment[apiKeyVariable]?.trimmingCharacters(in: .whitespacesAndNewlines)
        let fromFile = configFileKey?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = [fromEnvironment, fromFile].compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw WeatherError.noAPIKey
        }
        var base = defaultBaseURL
        if let text = environment[baseURLVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw WeatherError.invalidBaseURL(KeyRedactor(key: key).redact(text))
            }
            base = url
        }
        return OpenWeatherMapConfiguration(baseURL: base, apiKey: key, timeout: timeout)
    }
}

/// The two OpenWeatherMap endpoints the program uses.
public enum WeatherEndpoint: String, Sendable, Codable, CaseIterable, Hashable {
    case current = "weather"
    case forecast = "forecast"
}
