import AgroDomain
import AgroWeather
import Foundation

/// The user's `config.json` (in `$XDG_CONFIG_HOME/agro`). Every field is optional; flags and
/// environment variables take precedence.
struct Configuration: Codable, Sendable {
    /// Default catalog file instead of the bundled or installed one.
    var catalog: String?
    /// Default language.
    var lang: String?
    /// `agro weather`: key, units and spray thresholds.
    var weather: WeatherSettings?
    /// `agro db check|update`: update server and trusted publisher keys.
    var update: UpdateSettings?

    static func load(from url: URL) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: url.path) else { return Configuration() }
        do {
            return try JSONDecoder().decode(Configuration.self, from: data)
        } catch {
            throw ConfigurationError.unreadable(path: url.path, reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context),
             let DecodingError.valueNotFound(_, context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return "not valid JSON"
        }
    }
}

/// The `weather` section of config.json:
///
///     "weather": {"apiKey": "...", "units": "imperial", "spray": {"windGoodMaxKmh": 12}}
///
/// `spray` takes any subset of `SprayRules`' fields; the rest keep their documented defaults.
struct WeatherSettings: Codable, Sendable {
    /// OpenWeatherMap API key; OPENWEATHER_API_KEY takes precedence.
    var apiKey: String?
    /// Default units; --units takes precedence.
    var units: WeatherUnitsChoice?
    /// Spray-threshold overrides.
    var spray: SprayRules?
}

/// The `update` section of config.json:
///
///     "update": {"server": "https://example.org/agro/", "trust": ["/etc/agro/release.pub"], "insecure": false}
///
/// Flags (`--server`, `--trust`, `--insecure`) and the environment (`AGRO_UPDATE_SERVER`,
/// `AGRO_TRUST`, `AGRO_INSECURE`) take precedence.
struct UpdateSettings: Codable, Sendable {
    /// The publishing directory's URL (where `manifest.json` is).
    var server: String?
    /// Public key files (`PREFIX.pub`) whose signatures are trusted.
    var trust: [String]?
    /// Allows plain http to hosts other than loopback.
    var insecure: Bool?

    /// The values as `UpdateConfiguration.resolve` takes them from a config file. The trusted
    /// key files are passed as a list instead (`Environment.updateConfiguration`), since a path
    /// may hold a comma.
    var fileValues: [String: String] {
        var values: [String: String] = [:]
        if let server { values["update.server"] = server }
        if insecure == true { values["update.insecure"] = "true" }
        return values
    }
}

/// The units a user may ask for. OpenWeatherMap also has "standard" (Kelvin), which no one
/// judging a field wants, so it is not offered.
enum WeatherUnitsChoice: String, Codable, Sendable, CaseIterable {
    case metric, imperial

    var units: WeatherUnits { self == .metric ? .metric : .imperial }
}

enum ConfigurationError: UserFacingError {
    case unreadable(path: String, reason: String)

    var message: String {
        switch self {
        case let .unreadable(path, reason): return "configuration \(path) cannot be read: \(reason)"
        }
    }

    var exitStatus: ExitStatus { .usage }
}
