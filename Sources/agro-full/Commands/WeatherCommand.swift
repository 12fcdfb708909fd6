import AgroCLI
import AgroDomain
import AgroStore
import AgroWeather
import ArgumentParser
import Foundation

/// `agro weather`: current conditions, the 5-day forecast and spray windows for a point or a
/// region's centre, with the region it lies in and the nearest representative.
///
/// The weather comes from OpenWeatherMap through `AgroWeather`; answers are cached in
/// `$XDG_CACHE_HOME/agro/weather`, so `--offline` and network failures can fall back on them.
struct WeatherCommand: AsyncParsableCommand {
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
        let catalog = try environment.openCatalog()
        let regions = try catalog.regions(locale: environment.language)
        let point = try place(regions: regions, catalog: catalog, language: environment.language)
        if product != nil && !spray {
            throw CatalogError.invalidArgument("--product goes with --spray: agro weather --at LAT,LON --spray --product ID")
        }
        let productMatch = try product.map { try catalog.resolve($0, kind: .product, locale: environment.language) }
        let settings = try WeatherSettings.load(from: environment.paths.configFile)
        let units = (units ?? settings?.units ?? .metric).units
        // The interface language is passed through, so condition descriptions come in it.
        let lang = environment.language
        let service = try Self.service(environment: environment, apiKey: settings?.apiKey, offline: offline)
        let nearestRegion = NearestPlaces.region(nearestTo: point, in: regions)
        let representative = NearestPlaces.representative(
            nearestTo: point, in: try catalog.representatives(locale: environment.language), regions: regions)

        if forecast || spray {
            let answer = try await service.forecastAnswer(at: point, units: units, lang: lang)
            Self.warn(answer.warning)
            let report = spray
                ? SprayAdvisor.report(forecast: answer.value, units: units, rules: settings?.spray ?? SprayRules())
                : nil
            let output = WeatherOutput(
                point: point, units: units, lang: lang, answer: answer, region: nearestRegion,
                representative: representative, spray: report)
            if environment.format == .json {
                try Self.printJSON(WeatherDocument(output: output, product: productMatch), environment: environment)
                return
            }
            if environment.format == .csv {
                if let report {
                    WeatherCSV.write(header: WeatherCSV.sprayHeader, rows: WeatherCSV.sprayRows(report), environment: environment)
                } else {
                    WeatherCSV.write(
                        header: WeatherCSV.forecastHeader, rows: WeatherCSV.forecastRows(answer.value), environment: environment)
                }
                return
            }
            var lines = Self.placeLines(output, environment: environment)
            let wording = WeatherWording.localized(environment.strings)
            if forecast {
                lines += ["", WeatherText.forecastTable(answer.value, units: units, width: environment.tableWidth, wording: wording)]
                lines += ["", WeatherText.forecastChart(
                    answer.value, units: units, width: environment.output.size.columns, wording: wording)]
            }
            if let report {
                lines += ["", WeatherText.sprayReport(
                    report, timeZoneOffset: answer.value.city?.timezone, width: environment.output.size.columns,
                    productName: productMatch?.name, wording: wording)]
            }
            environment.print(lines)
        } else {
            let answer = try await service.currentAnswer(at: point, units: units, lang: lang)
            Self.warn(answer.warning)
            let output = WeatherOutput(
                point: point, units: units, lang: lang, answer: answer, region: nearestRegion, representative: representative)
            if environment.format == .json {
                try Self.printJSON(WeatherDocument(output: output, product: nil), environment: environment)
                return
            }
            environment.print(WeatherText.current(
                answer.value, units: units, region: nearestRegion, representative: representative, source: answer.source,
                wording: WeatherWording.localized(environment.strings)))
        }
    }

    /// The point asked about: --at, or the centre of --region; exactly one of them.
    private func place(regions: [Region], catalog: some Catalog, language: String) throws -> Coordinates {
        switch (at, region) {
        case let (at?, nil):
            return try Self.coordinates(at, longitude)
        case let (nil, name?):
            if !longitude.isEmpty { throw Self.unexpected(longitude) }
            let id = try catalog.resolve(name, kind: .region, locale: language).id
            guard let found = regions.first(where: { $0.id == id }) else {
                throw CatalogError.notFound(kind: .region, id: id)
            }
            return found.centre
        case (_?, _?):
            throw CatalogError.invalidArgument("give either --at LAT,LON or --region ID, not both")
        case (nil, nil):
            if !longitude.isEmpty { throw Self.unexpected(longitude) }
            throw CatalogError.invalidArgument("a place is needed: --at LAT,LON (e.g. --at 51.18,71.45) or --region ID (e.g. --region KZ-AKM)")
        }
    }

    /// "LAT,LON" or "LAT LON" as one value, or LAT and LON as two.
    static func coordinates(_ at: String, _ rest: [String]) throws -> Coordinates {
        // A mistyped option lands in `rest` too; name it rather than call it a bad longitude.
        if let stray = rest.first(where: { $0.hasPrefix("--") }) { throw unexpected([stray]) }
        switch rest.count {
        case 0:
            return try CoordinateParser.parse(at)
        case 1 where !at.contains(",") && !rest[0].contains(","):
            return try CoordinateParser.parse(latitude: at, longitude: rest[0])
        default:
            // "--at 1,2 3" or "--at 1 2 3": not a point; say what was expected.
            throw CoordinateError.badFormat(([at] + rest).joined(separator: " "))
        }
    }

    static func unexpected(_ words: [String]) -> CatalogError {
        .invalidArgument("unexpected argument \"\(words.joined(separator: " "))\"; see agro weather --help")
    }

    /// The cached OpenWeatherMap client (`apiKey`: config.json's). Offline, no key is needed: the
    /// network is never asked.
    static func service(environment: Environment, apiKey: String?, offline: Bool) throws -> CachedWeatherService {
        let cache = WeatherCache(directory: environment.paths.cache.appendingPathComponent("weather", isDirectory: true))
        let upstream: any WeatherService
        do {
            let configuration = try OpenWeatherMapConfiguration.resolve(
                environment: environment.processEnvironment, configFileKey: apiKey)
            upstream = OpenWeatherMapClient(configuration: configuration)
        } catch let error as WeatherError where offline {
            upstream = UnavailableWeatherService(error: error)
        }
        return CachedWeatherService(upstream: upstream, cache: cache, offline: offline)
    }

    /// A cached answer standing in for a failed fetch: the warning goes to stderr, so stdout
    /// stays the answer alone (and valid JSON with --format json).
    static func warn(_ warning: String?) {
        guard let warning else { return }
        Terminal.standardError.line("agro: warning: " + Terminal.oneLine(warning))
    }

    /// Where the answer came from and for which place: cache age, region, representative.
    static func placeLines<Value>(_ output: WeatherOutput<Value>, environment: Environment) -> [String] {
        let s = environment.strings
        var lines: [String] = []
        if let age = output.ageSeconds { lines.append(s("weather.cached", formatAge(age))) }
        if let region = output.region {
            lines.append(s("weather.region", region.region.name, region.region.id, s("weather.km", s.decimal(WeatherText.kilometres(region.distanceKm)))))
        }
        if let nearest = output.representative {
            let reach = WeatherText.contact(nearest.representative)
            lines.append(s("weather.representative", reach, nearest.distanceKm.map { s("weather.km", s.decimal(WeatherText.kilometres($0))) } ?? "?"))
        }
        return lines
    }

    /// JSON in the weather style (ISO 8601 dates), control characters escaped like all JSON output.
    static func printJSON<T: Encodable>(_ value: T, environment: Environment) throws {
        environment.printJSON(data: try WeatherJSON.encode(value))
    }
}

/// `WeatherOutput` plus the product the spray report is for.
struct WeatherDocument<Value: Encodable & Sendable>: Encodable {
    var output: WeatherOutput<Value>
    var product: NameMatch?

    private enum Keys: String, CodingKey { case product }

    func encode(to encoder: any Encoder) throws {
        // Both write into the same top-level object: JSONEncoder merges keyed containers.
        try output.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(product, forKey: .product)
    }
}

/// Stands in for the client when no client can be made (no key) and none is needed (--offline):
/// should it ever be asked, it fails with the reason.
private struct UnavailableWeatherService: WeatherService {
    let error: WeatherError

    func current(at point: Coordinates, units: WeatherUnits, lang: String?) async throws -> CurrentWeather { throw error }
    func forecast(at point: Coordinates, units: WeatherUnits, lang: String?) async throws -> Forecast { throw error }
}

extension WeatherUnitsChoice: ExpressibleByArgument {}
