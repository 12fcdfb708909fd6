import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroWeather
import AgroWeatherClient
import ArgumentParser
import Foundation

/// `agro weather`: current conditions, the 5-day forecast and spray windows for a point or a
/// region's centre, with the region it lies in and the nearest representative.
///
/// The weather comes from OpenWeatherMap through `AgroWeather`; answers are cached in
/// `$XDG_CACHE_HOME/agro/weather`, so `--offline` and network failures can fall back on them.
struct WeatherCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Current weather, the 5-day forecast and spray windows for a point or a region.",
        discussion: """
            The place is --at LAT,LON (or LAT LON) in decimal degrees, or --region ID for the region's \
            centre. The output names the region whose centre is nearest (the catalog has centres, not \
            borders) and the nearest representative.

            The API key comes from OPENWEATHER_API_KEY, else "weather.apiKey" in config.json \
            (get a free key at https://home.openweathermap.org/api_keys). AGRO_OPENWEATHER_URL replaces \
            the server's address. Answers are cached for 10 minutes in $XDG_CACHE_HOME/agro/weather; \
            --offline shows the last cached answer with its age, and when the network fails the cached \
            answer is shown with a warning.

            --spray judges every 3-hour slot good, marginal or avoid and lists the longest good windows \
            first. Thresholds and their sources: wind at boom height 3-15 km/h good, up to 20 marginal \
            (APVMA spray drift label instructions); Delta-T 2-8 °C good, 8-10 marginal (GRDC / Bureau of \
            Meteorology Delta-T guide); no spraying in night-time surface inversions, from 2 h before \
            sunset to 1 h after sunrise, in light wind and clear sky (GRDC Spray Application Manual, \
            Module 10); wet bulb after Stull (2011); wind profile after WMO-No. 8. Rain, rain chance, \
            temperature and humidity limits are conservative project defaults. Every threshold can be \
            set in config.json under "weather": {"spray": {...}} with the field names of AgroWeather's \
            SprayRules, e.g. {"windGoodMaxKmh": 12, "defaultRainfastHours": 4}. The catalog has no \
            rain-fast periods yet, so the default (2 h) applies to every product.

            Exit statuses: 64 bad usage or coordinates, 80 no API key, 81 key rejected, 82 not found, \
            83 rate limited, 84 server error, 85 timeout, 86 no network, 87 malformed answer, \
            88 nothing cached (--offline), 89 request refused.
            """)

    @OptionGroup var global: GlobalOptions

    // Unconditional, so that "-38.4,-71.6" is taken as the value, not as an option. The parsing
    // is ours (CoordinateParser), so that a bad value gets one line saying what was expected.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("The point: LAT,LON (or LAT LON) in decimal degrees, e.g. 51.18,71.45.", valueName: "lat,lon"))
    var at: String?

    // The LON of "--at LAT LON". All unrecognized words land here, so that a negative longitude
    // ("-71.6") is a value rather than an unknown option; anything else is reported in run().
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var longitude: [String] = []

    @Option(name: .long, help: ArgumentHelp("Use the centre of this region (id, e.g. KZ-AKM, or name).", valueName: "id"))
    var region: String?

    @Flag(name: .long, help: "Show the 5-day forecast as a table and a chart.")
    var forecast = false

    @Flag(name: .long, help: "Judge every 3-hour slot of the forecast for spraying and list the windows.")
    var spray = false

    @Option(name: .long, help: ArgumentHelp("With --spray: the product to be sprayed (id or name).", valueName: "id"))
    var product: String?

    @Option(name: .long, help: "Units: metric or imperial (else the config file's, else metric).")
    var units: WeatherUnitsChoice?

    @Flag(name: .long, help: "Do not use the network: show the last cached answer with its age.")
    var offline = false

    func run() async throws {
        let environment = try Environment(global)
        // Current conditions are one record; the forecast and the spray verdicts are lists.
        if !(forecast || spray) { try environment.refuseCSV("weather") }
        let settings = try WeatherSettings.load(from: environment.paths.configFile)
        let request = try WeatherRequest(
            at: try pointText(), region: region, units: units?.rawValue, defaultUnits: settings?.units?.units ?? .metric,
            forecast: forecast, spray: spray, product: product)
        let catalog = try environment.openCatalog()
        let service = try Self.service(environment: environment, apiKey: settings?.apiKey, offline: offline)
        let result = try await request.answer(
            catalog: catalog, environment: environment, service: service, rules: settings?.spray ?? SprayRules())
        if let warning = result.warning(environment.strings) {
            Terminal.standardError.line("agro: warning: " + Terminal.oneLine(warning))
        }
        switch environment.format {
        case .json:
            environment.output.write(try result.json())
        case .csv:
            if let (header, rows) = result.csv { WeatherCSV.write(header: header, rows: rows, environment: environment) }
        case .table:
            environment.print(
                result.text(
                    environment: environment, forecastTable: forecast, width: environment.output.size.columns,
                    tableWidth: environment.tableWidth))
        }
    }

    /// `--at` as one "LAT,LON" or "LAT LON" text, the LON of `--at LAT LON` joined to it; any
    /// other stray word is reported.
    private func pointText() throws -> String? {
        // A mistyped option lands in `longitude` too; name it rather than call it a bad longitude.
        if let stray = longitude.first(where: { $0.hasPrefix("--") }) { throw Self.unexpected([stray]) }
        guard let at else {
            if !longitude.isEmpty { throw Self.unexpected(longitude) }
            return nil
        }
        switch longitude.count {
        case 0: return at
        case 1 where !at.contains(",") && !longitude[0].contains(","): return at + " " + longitude[0]
        // "--at 1,2 3" or "--at 1 2 3": not a point; say what was expected.
        default: throw CoordinateError.badFormat(([at] + longitude).joined(separator: " "))
        }
    }

    static func unexpected(_ words: [String]) -> RequestError {
        .unexpectedArguments(words, command: "agro weather")
    }

    /// The cached OpenWeatherMap client (`apiKey`: config.json's). Offline, no key is needed: the
    /// network is never asked.
    /// - Parameter timeout: seconds one call to OpenWeatherMap may take in all.
    static func service(environment: Environment, apiKey: String?, offline: Bool, timeout: TimeInterval = 15) throws
        -> CachedWeatherService
    {
        let cache = WeatherCache(directory: environment.paths.cache.appendingPathComponent("weather", isDirectory: true))
        let upstream: any WeatherService
        do {
            let configuration = try OpenWeatherMapConfiguration.resolve(
                environment: environment.processEnvironment, configFileKey: apiKey, timeout: timeout)
            upstream = OpenWeatherMapClient(configuration: configuration)
        } catch let error as WeatherError where offline {
            upstream = UnavailableWeatherService(error: error)
        }
        return CachedWeatherService(upstream: upstream, cache: cache, offline: offline)
    }
}

/// Stands in for the client when no client can be made (no key) and none is needed (--offline):
/// should it ever be asked, it fails with the reason.
private struct UnavailableWeatherService: WeatherService {
    let error: WeatherError

    func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather { throw error }
    func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast { throw error }
}

extension WeatherUnitsChoice: ExpressibleByArgument {}
