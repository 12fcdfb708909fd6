import AgroTestSupport
import Foundation
import XCTest

// End-to-end tests of `agro weather` and `agro contacts --near`: the built binary talks to a
// loopback server that answers with OpenWeatherMap's recorded JSON
// (<root>/../shared/fixtures/owm, never copied into the repository).

/// Fixtures, the loopback server and runners pointed at it.
class WeatherCLITestCase: XCTestCase {
    /// A key that must never show up in what the program prints.
    static let apiKey = "dummy-test-key-7Qx93kLm"

    static let currentFixture = "current_weather_rain_gust_manila_metric.json"
    static let forecastFixture = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"

    private var servers: [LoopbackHTTPServer] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try SharedFixtures.file("fixtures/owm/" + Self.currentFixture)
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    func fixture(_ name: String) throws -> Data {
        try SharedFixtures.data("fixtures/owm/" + name)
    }

    /// A server answering /data/2.5/weather and /data/2.5/forecast with the given fixtures, or
    /// every request with `status` and `errorFixture`.
    func startServer(
        current: String = currentFixture, forecast: String = forecastFixture,
        status: Int = 200, errorFixture: String? = nil, headers: [(String, String)] = []
    ) throws -> LoopbackHTTPServer {
        let currentBody = try fixture(current)
        let forecastBody = try fixture(forecast)
        let errorBody = try errorFixture.map(fixture) ?? Data("{\"cod\":\(status),\"message\":\"failure\"}".utf8)
        let contentType = ("Content-Type", "application/json; charset=utf-8")
        let server = try LoopbackHTTPServer { request in
            if status != 200 { return LoopbackResponse(status: status, headers: [contentType] + headers, body: errorBody) }
            switch request.path {
            case "/data/2.5/weather": return LoopbackResponse(status: 200, body: currentBody)
            case "/data/2.5/forecast": return LoopbackResponse(status: 200, body: forecastBody)
            default: return LoopbackResponse(status: 404, json: "{\"cod\":\"404\",\"message\":\"no such path\"}")
            }
        }
        servers.append(server)
        return server
    }

    /// A runner with its own home, pointed at `server` with the dummy key.
    func runner(_ server: LoopbackHTTPServer?, key: String? = apiKey) -> CLIRunner {
        var runner = CLIRunner()
        runner.environment["AGRO_OPENWEATHER_URL"] = server?.baseURL.absoluteString ?? "http://127.0.0.1:9"
        if let key { runner.environment["OPENWEATHER_API_KEY"] = key }
        return runner
    }

    /// Writes `json` as the runner's `config.json`.
    func writeConfig(_ json: String, for runner: CLIRunner) throws { try runner.writeConfig(json) }

    /// Runs and checks that the key shows up nowhere in the output.
    @discardableResult
    func run(
        _ runner: CLIRunner, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws -> CLIRunner.Result {
        let result = try runner.run(arguments)
        XCTAssertFalse(result.stdout.contains(Self.apiKey), "key in stdout", file: file, line: line)
        XCTAssertFalse(result.stderr.contains(Self.apiKey), "key in stderr", file: file, line: line)
        return result
    }

    /// Runs with --format json, expecting success, and parses the object.
    func json(_ runner: CLIRunner, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String:
        Any]
    {
        let result = try run(runner, arguments + ["--format", "json"], file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout, file: file, line: line)
    }

    /// Text with line breaks and runs of spaces made single spaces: wrapping depends on the width.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// Exactly one line on stderr, "agro: ...".
    func assertOneErrorLine(_ result: CLIRunner.Result, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.stderr.lines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("agro: "), result.stderr, file: file, line: line)
    }
}

/// The catalog's places read straight from the content sources, with a haversine of our own,
/// so that expectations do not come from the program under test.
enum CatalogPlaces {
    struct Place {
        var id: String
        var name: String
        var lat: Double
        var lon: Double
    }

    static let content = CLIRunner.root.appendingPathComponent("Database/content")

    static func load(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: content.appendingPathComponent(file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    static func english(_ value: Any?) -> String {
        let names = value as? [String: String] ?? [:]
        return names["en"] ?? names.values.sorted().first ?? ""
    }

    static func regions() throws -> [Place] {
        try load("regions.json").map { entry in
            let centre = try XCTUnwrap(entry["centre"] as? [String: Any])
            return Place(
                id: try XCTUnwrap(entry["id"] as? String), name: english(entry["name"]),
                lat: try XCTUnwrap(centre["lat"] as? Double), lon: try XCTUnwrap(centre["lon"] as? Double))
        }
    }

    /// Representatives at their own location, else at their region's centre.
    static func representatives() throws -> [Place] {
        let centres = Dictionary(uniqueKeysWithValues: try regions().map { ($0.id, $0) })
        return try load("representatives.json").map { entry in
            let region = try XCTUnwrap(centres[try XCTUnwrap(entry["region"] as? String)])
            let location = entry["location"] as? [String: Any]
            return Place(
                id: try XCTUnwrap(entry["id"] as? String), name: english(entry["name"]),
                lat: location?["lat"] as? Double ?? region.lat, lon: location?["lon"] as? Double ?? region.lon)
        }
    }

    /// Great-circle distance on a 6371 km sphere.
    static func km(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let h = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6371 * asin(min(1, h.squareRoot()))
    }

    /// Places by distance from a point, nearest first, ties by name.
    static func sorted(_ places: [Place], from lat: Double, _ lon: Double) -> [(place: Place, km: Double)] {
        places.map { ($0, km(lat, lon, $0.lat, $0.lon)) }
            .sorted { ($0.1, $0.0.name) < ($1.1, $1.0.name) }
    }
}

final class WeatherCommandTests: WeatherCLITestCase {
    // A point in the steppe between Kazakh region centres, west of Astana.
    let lat = 51.0, lon = 68.5

    func testCurrentWeatherAtCoordinatesNamesRegionAndRepresentative() throws {
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "\(lat),\(lon)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.contains("Quiapo District"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Moderate rain"), result.stdout)
        XCTAssertTrue(result.stdout.contains("29.5 °C"), result.stdout)
        XCTAssertTrue(result.stdout.contains("gusts 2.3 m/s"), result.stdout)

        let region = try XCTUnwrap(CatalogPlaces.sorted(try CatalogPlaces.regions(), from: lat, lon).first)
        let representative = try XCTUnwrap(CatalogPlaces.sorted(try CatalogPlaces.representatives(), from: lat, lon).first)
        let regionLine = try XCTUnwrap(result.stdout.lines.first { $0.hasPrefix("Region") }, result.stdout)
        XCTAssertTrue(regionLine.contains("\(region.place.name) (\(region.place.id))"), regionLine)
        XCTAssertTrue(regionLine.contains("\(Int(region.km.rounded())) km"), regionLine)
        let representativeLine = try XCTUnwrap(result.stdout.lines.first { $0.hasPrefix("Representative") }, result.stdout)
        XCTAssertTrue(representativeLine.contains(representative.place.name), representativeLine)

        // One request, to the current-weather endpoint, for the point, in metric units, with the key.
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(request.path, "/data/2.5/weather")
        XCTAssertEqual(request.query["lat"], "51")
        XCTAssertEqual(request.query["lon"], "68.5")
        XCTAssertEqual(request.query["units"], "metric")
        XCTAssertEqual(request.query["lang"], "en")
        XCTAssertEqual(request.query["appid"], Self.apiKey)
    }

    func testCoordinatesAsTwoArgumentsAndNegativeValues() throws {
        let server = try startServer()
        XCTAssertEqual(try run(runner(server), ["weather", "--at", "51.0", "68.5"]).status, 0)
        XCTAssertEqual(try run(runner(server), ["weather", "--at", "-38.4,-71.58"]).status, 0)
        XCTAssertEqual(try run(runner(server), ["weather", "--at", "-38.4", "-71.58"]).status, 0)
        let points = server.requests.map { [$0.query["lat"] ?? "", $0.query["lon"] ?? ""] }
        XCTAssertEqual(points, [["51", "68.5"], ["-38.4", "-71.58"], ["-38.4", "-71.58"]])
    }

    func testRegionUsesItsCentre() throws {
        let server = try startServer()
        let regions = try CatalogPlaces.regions()
        let akmola = try XCTUnwrap(regions.first { $0.id == "KZ-AKM" })
        let result = try run(runner(server), ["weather", "--region", "KZ-AKM"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(Double(request.query["lat"] ?? ""), akmola.lat)
        XCTAssertEqual(Double(request.query["lon"] ?? ""), akmola.lon)
        XCTAssertTrue(result.stdout.contains("\(akmola.name) (KZ-AKM), 0.0 km from its centre"), result.stdout)
        let representative = try XCTUnwrap(
            CatalogPlaces.sorted(try CatalogPlaces.representatives(), from: akmola.lat, akmola.lon).first)
        let line = try XCTUnwrap(result.stdout.lines.first { $0.hasPrefix("Representative") }, result.stdout)
        XCTAssertTrue(line.contains(representative.place.name), line)
    }

    func testForecastTableAndChart() throws {
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "-38.4,-71.58", "--forecast"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requests.map(\.path), ["/data/2.5/forecast"])
        let out = result.stdout
        XCTAssertTrue(out.contains("Forecast for Curacautín, times in UTC-4"), out)
        XCTAssertTrue(out.contains("Time"), out)
        XCTAssertTrue(out.contains("Temp °C"), out)
        XCTAssertTrue(out.contains("Rain mm"), out)
        // 40 slots, one row each: the first slot is 2026-08-01 09:00 UTC, 05:00 local.
        XCTAssertTrue(out.lines.contains { $0.hasPrefix("Sat 01 05:00") && $0.contains("-1.4") }, out)
        XCTAssertEqual(
            out.lines.filter { $0.range(of: #"^[A-Z][a-z]{2} \d\d \d\d:\d\d "#, options: .regularExpression) != nil }.count, 40)
        // The chart: three panels on one time axis.
        XCTAssertTrue(out.contains("Temperature, °C"), out)
        XCTAssertTrue(out.contains("Wind (*) and gusts (+), m/s"), out)
        XCTAssertTrue(out.contains("Rain and snow, mm per 3 h"), out)
        XCTAssertTrue(out.lines.contains { $0.contains(" +-") }, out)
        XCTAssertTrue(out.contains("*"), out)
        // Region and representative for the point: Curacautín is far from every Kazakh centre.
        XCTAssertTrue(out.lines.contains { $0.hasPrefix("Region: ") }, out)
        XCTAssertTrue(out.lines.contains { $0.hasPrefix("Nearest representative: ") }, out)
    }

    func testSprayVerdictsWithDefaultRules() throws {
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "-38.4,-71.58", "--spray"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        let flat = Self.flat(out)
        XCTAssertTrue(flat.contains("rain-fast period 2 h (default: the catalog gives none for this product)"), out)
        // Sub-zero snow all week: every slot is to be avoided, with its reasons.
        XCTAssertTrue(out.contains("none: every slot of the forecast is to be avoided"), out)
        XCTAssertTrue(out.contains("By slot:"), out)
        let slots = out.lines.filter { $0.range(of: #"^  [A-Z][a-z]{2} \d\d \d\d:\d\d  "#, options: .regularExpression) != nil }
        XCTAssertEqual(slots.count, 40, out)
        XCTAssertTrue(slots.allSatisfy { $0.contains(" avoid ") }, out)
        let firstSlot = Self.flat(out.components(separatedBy: slots[0])[1].components(separatedBy: slots[1])[0])
        XCTAssertTrue(Self.flat(slots[0] + firstSlot).contains("-1.4 °C below 2: frost risk"), out)
        XCTAssertTrue(flat.contains("Forecast wind is for 10 m"), out)
    }

    func testSprayThresholdsFromConfigAndGoodWindowsFirst() throws {
        let server = try startServer()
        let runner = runner(server)
        // Relax the cold, wet and Delta-T limits so that the week has windows of every kind.
        let config = """
            {"weather": {"spray": {"temperatureLowAvoidC": -20, "temperatureLowMarginalC": -20,
              "deltaTLowAvoidBelowC": 0, "rainMarginalMm": 500, "rainAvoidMm": 1000,
              "precipitationProbabilityMarginal": 2, "precipitationProbabilityAvoid": 3}}}
            """
        try writeConfig(config, for: runner)

        let text = try run(runner, ["weather", "--at", "-38.4,-71.58", "--spray"])
        XCTAssertEqual(text.status, 0, text.stderr)
        // Windows come between the (wrapped) heading and "By slot:", good ones first.
        let windows = text.stdout.lines.prefix { $0 != "By slot:" }
            .filter { $0.hasPrefix("  good ") || $0.hasPrefix("  marginal ") }
        XCTAssertFalse(windows.isEmpty, text.stdout)
        XCTAssertTrue(windows.first?.hasPrefix("  good ") == true, text.stdout)
        XCTAssertTrue(windows.last?.hasPrefix("  marginal ") == true, text.stdout)

        let document = try json(runner, ["weather", "--at", "-38.4,-71.58", "--spray"])
        let spray = try XCTUnwrap(document["spray"] as? [String: Any])
        let rules = try XCTUnwrap(spray["rules"] as? [String: Any])
        XCTAssertEqual(rules["temperatureLowAvoidC"] as? Double, -20)
        XCTAssertEqual(rules["windGoodMaxKmh"] as? Double, 15, "unset thresholds keep their defaults")
        let slots = try XCTUnwrap(spray["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 40)
        let verdicts = Set(slots.compactMap { $0["verdict"] as? String })
        XCTAssertEqual(verdicts, ["good", "marginal", "avoid"])
        let list = try XCTUnwrap(spray["windows"] as? [[String: Any]])
        let kinds = list.compactMap { $0["verdict"] as? String }
        XCTAssertEqual(kinds.first, "good")
        XCTAssertEqual(kinds, kinds.sorted { $0 == "good" && $1 != "good" }, "good windows before marginal ones")
        let goodLengths = list.filter { $0["verdict"] as? String == "good" }.compactMap { $0["slotCount"] as? Int }
        XCTAssertEqual(goodLengths, goodLengths.sorted(by: >), "longest good windows first")
    }

    func testSprayForAProductSaysTheRainfastPeriodIsTheDefault() throws {
        let server = try startServer()
        let product = try XCTUnwrap(try CatalogPlaces.load("products.json").first?["id"] as? String)
        let result = try run(runner(server), ["weather", "--at", "51,68.5", "--spray", "--product", product])
        XCTAssertEqual(result.status, 0, result.stderr)
        let header = try XCTUnwrap(result.stdout.lines.first { $0.hasPrefix("Spray windows for ") }, result.stdout)
        XCTAssertTrue(Self.flat(result.stdout).contains("(default: the catalog gives none for this product)"), header)
        let document = try json(runner(server), ["weather", "--at", "51,68.5", "--spray", "--product", product])
        XCTAssertEqual((document["product"] as? [String: Any])?["id"] as? String, product)
        XCTAssertEqual((document["spray"] as? [String: Any])?["rainfastIsDefault"] as? Bool, true)
    }

    func testJSONHasRawValuesRegionAndRepresentative() throws {
        let server = try startServer()
        let document = try json(runner(server), ["weather", "--at", "\(lat),\(lon)"])
        XCTAssertEqual(document["source"] as? String, "network")
        XCTAssertEqual(document["units"] as? String, "metric")
        let weather = try XCTUnwrap(document["weather"] as? [String: Any])
        XCTAssertEqual((weather["main"] as? [String: Any])?["temp"] as? Double, 29.5)
        XCTAssertEqual((weather["wind"] as? [String: Any])?["gust"] as? Double, 2.31)
        XCTAssertEqual((weather["rain"] as? [String: Any])?["1h"] as? Double, 2.47)
        XCTAssertEqual(weather["name"] as? String, "Quiapo District")
        let expectedRegion = try XCTUnwrap(CatalogPlaces.sorted(try CatalogPlaces.regions(), from: lat, lon).first)
        let region = try XCTUnwrap(document["region"] as? [String: Any])
        XCTAssertEqual((region["region"] as? [String: Any])?["id"] as? String, expectedRegion.place.id)
        XCTAssertEqual(try XCTUnwrap(region["distanceKm"] as? Double), expectedRegion.km, accuracy: 0.01)
        let expectedRepresentative = try XCTUnwrap(
            CatalogPlaces.sorted(try CatalogPlaces.representatives(), from: lat, lon).first)
        let representative = try XCTUnwrap(document["representative"] as? [String: Any])
        XCTAssertEqual((representative["representative"] as? [String: Any])?["id"] as? String, expectedRepresentative.place.id)
        XCTAssertEqual(try XCTUnwrap(representative["distanceKm"] as? Double), expectedRepresentative.km, accuracy: 0.01)
        XCTAssertNil(document["spray"])

        let forecast = try json(runner(server), ["weather", "--at", "-38.4,-71.58", "--forecast", "--spray"])
        let list = try XCTUnwrap((forecast["weather"] as? [String: Any])?["list"] as? [[String: Any]])
        XCTAssertEqual(list.count, 40)
        XCTAssertEqual((list[0]["main"] as? [String: Any])?["temp"] as? Double, -1.44)
        let slots = try XCTUnwrap((forecast["spray"] as? [String: Any])?["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 40)
        let findings = try XCTUnwrap(slots[0]["findings"] as? [[String: Any]])
        XCTAssertTrue(findings.contains { $0["rule"] as? String == "temperature" && $0["verdict"] as? String == "avoid" })
    }

    /// The keys of `weather --spray --format json`, written by hand (docs/json-keys.md): the
    /// spray models have no CodingKeys of their own, so this is what holds their names.
    func testSprayJSONKeys() throws {
        let document = try json(runner(try startServer()), ["weather", "--at", "-38.4,-71.58", "--spray"])
        func keys(_ value: Any?, allowed: Set<String>, required: Set<String>, _ what: String) {
            let found = Set((value as? [String: Any] ?? [:]).keys)
            XCTAssertEqual(found.subtracting(allowed), [], "\(what): keys outside the contract")
            XCTAssertEqual(required.subtracting(found), [], "\(what): required keys missing")
        }
        keys(
            document,
            allowed: [
                "point", "units", "lang", "source", "ageSeconds", "warning", "region", "representative",
                "weather", "spray", "product",
            ], required: ["point", "units", "source", "weather", "spray"], "document")
        let spray = document["spray"] as? [String: Any]
        keys(
            spray, allowed: ["rules", "rainfastHours", "rainfastIsDefault", "slots", "windows"],
            required: ["rules", "rainfastHours", "rainfastIsDefault", "slots", "windows"], "spray")
        let slots = try XCTUnwrap(spray?["slots"] as? [[String: Any]])
        XCTAssertFalse(slots.isEmpty)
        for slot in slots {
            keys(
                slot,
                allowed: [
                    "slot", "verdict", "findings", "boomWindKmh", "boomGustKmh", "deltaT", "rainInRainfastPeriodMm",
                    "precipitationProbabilityInRainfastPeriod",
                ],
                required: ["slot", "verdict", "findings", "rainInRainfastPeriodMm"], "spray.slots[]")
            keys(
                slot["slot"],
                allowed: [
                    "start", "duration", "temperatureC", "humidity", "wind10m", "gust10m", "precipitationMm",
                    "precipitationProbability", "cloudPercent", "inversionPeriod", "snowMm",
                ],
                required: ["start", "duration", "precipitationMm", "inversionPeriod"], "spray.slots[].slot")
            for finding in slot["findings"] as? [Any] ?? [] {
                keys(
                    finding, allowed: ["rule", "verdict", "value", "unit", "threshold", "text", "snow"],
                    required: ["rule", "verdict", "unit", "text"], "finding")
            }
        }
        for window in spray?["windows"] as? [Any] ?? [] {
            keys(
                window, allowed: ["verdict", "start", "end", "slotCount"], required: ["verdict", "start", "end", "slotCount"],
                "window")
        }
    }

    func testControlCharactersFromTheServerNeverReachTheTerminal() throws {
        // A recorded answer with escape sequences slipped into the place name and description.
        let recorded = try XCTUnwrap(String(data: try fixture(Self.currentFixture), encoding: .utf8))
        let body = recorded.replacingOccurrences(of: "\"Quiapo District\"", with: "\"Quiapo\\u001b[31m\\u009b2J District\"")
            .replacingOccurrences(of: "\"moderate rain\"", with: "\"moderate\\u0007 rain\"")
        let server = try LoopbackHTTPServer { _ in LoopbackResponse(status: 200, json: body) }
        defer { server.stop() }
        let text = try run(runner(server), ["weather", "--at", "51,68.5"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Quiapo[31m2J District"), text.stdout)
        let json = try run(runner(server), ["weather", "--at", "51,68.5", "--format", "json"])
        for output in [text.stdout, json.stdout] {
            XCTAssertFalse(
                output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, output)
        }
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["weather"] as? [String: Any])?["name"] as? String, "Quiapo\u{1B}[31m\u{9B}2J District")
    }

    func testCSVIsRefusedForCurrentConditions() throws {
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "51,68.5", "--format", "csv"])
        XCTAssertEqual(result.status, 64)
        assertOneErrorLine(result)
        XCTAssertTrue(result.stderr.contains("--format json"), result.stderr)
        XCTAssertTrue(server.requests.isEmpty, "refused before asking the server")
    }

    /// One row per forecast slot, read against the fixture itself.
    func testForecastAsCSV() throws {
        let result = try run(runner(try startServer()), ["weather", "--at", "51,68.5", "--forecast", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (header, records) = CSVReader.records(result.stdout)
        XCTAssertEqual(header.first, "start")
        let slots = try XCTUnwrap(try Fixture.forecastSlots(fixture(Self.forecastFixture)))
        XCTAssertEqual(records.count, slots.count)
        XCTAssertGreaterThan(slots.count, 30)
        for (record, slot) in zip(records, slots) {
            let dt = try XCTUnwrap((slot["dt"] as? NSNumber)?.intValue)
            // dt_txt is the same instant written by OpenWeatherMap: "2026-08-01 09:00:00".
            let expectedStart = try XCTUnwrap(slot["dt_txt"] as? String).replacingOccurrences(of: " ", with: "T") + "Z"
            XCTAssertEqual(record["start"], expectedStart, "slot \(dt)")
            let temperature = try XCTUnwrap((slot["main"] as? [String: Any])?["temp"] as? NSNumber).doubleValue
            XCTAssertEqual(try XCTUnwrap(Double(record["temperature"] ?? ""), "temperature"), temperature, accuracy: 0.005)
            let humidity = try XCTUnwrap((slot["main"] as? [String: Any])?["humidity"] as? NSNumber).doubleValue
            XCTAssertEqual(try XCTUnwrap(Double(record["humidity_percent"] ?? ""), "humidity_percent"), humidity, accuracy: 0.005)
            if let pop = (slot["pop"] as? NSNumber)?.doubleValue {
                XCTAssertEqual(
                    try XCTUnwrap(Double(record["precipitation_probability_percent"] ?? ""), "precipitation_probability_percent"),
                    pop * 100, accuracy: 0.005)
            }
        }
    }

    /// One row per slot with its verdict; a verdict other than good always gives its reasons.
    func testSprayVerdictsAsCSV() throws {
        let server = try startServer()
        let result = try run(runner(server), ["weather", "--at", "51,68.5", "--spray", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (header, records) = CSVReader.records(result.stdout)
        XCTAssertEqual(header.prefix(3), ["start", "end", "verdict"])
        let slots = try XCTUnwrap(try Fixture.forecastSlots(fixture(Self.forecastFixture)))
        XCTAssertEqual(records.count, slots.count)
        XCTAssertTrue(records.contains { $0["verdict"] != "good" }, "the snowy sub-zero forecast has slots to avoid")
        for record in records {
            XCTAssertTrue(["good", "marginal", "avoid"].contains(record["verdict"] ?? ""), "\(record)")
            XCTAssertEqual(record["verdict"] == "good", record["reasons"]?.isEmpty, "\(record)")
        }
        // The rows are the JSON's slots, in the same order.
        let document = try json(runner(server), ["weather", "--at", "51,68.5", "--spray"])
        let jsonSlots = try XCTUnwrap((document["spray"] as? [String: Any])?["slots"] as? [[String: Any]])
        XCTAssertEqual(records.map { $0["verdict"] ?? "" }, jsonSlots.map { $0["verdict"] as? String ?? "?" })
    }

    func testImperialUnitsAndLanguageArePassedThrough() throws {
        let server = try startServer(current: "current_weather_moscow_lang_ru_imperial.json")
        let result = try run(runner(server), ["weather", "--at", "55.75,37.62", "--units", "imperial", "--lang", "ru"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request.query["units"], "imperial")
        XCTAssertEqual(request.query["lang"], "ru")
        XCTAssertTrue(result.stdout.contains("°F"), result.stdout)
        XCTAssertTrue(result.stdout.contains("mph"), result.stdout)
    }

    func testBadCoordinatesSayWhatWasExpected() throws {
        let server = try startServer()
        let cases: [([String], String)] = [
            (["--at", "95,10"], "latitude must be between -90 and 90; got 95"),
            (["--at", "10,190"], "longitude must be between -180 and 180; got 190"),
            (["--at", "abc"], "expected LAT,LON in decimal degrees"),
            (["--at", "10"], "expected LAT,LON in decimal degrees"),
            (["--at", "10,abc"], "longitude must be a decimal number"),
            (["--at", "1e3,10"], "latitude must be a decimal number"),
            (["--at", "nan", "10"], "latitude must be a decimal number"),
        ]
        for (arguments, expected) in cases {
            let result = try run(runner(server), ["weather"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            assertOneErrorLine(result)
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        let near = try run(runner(server), ["contacts", "--near", "95,10"])
        XCTAssertEqual(near.status, 64)
        assertOneErrorLine(near)
        XCTAssertTrue(near.stderr.contains("latitude must be between -90 and 90"), near.stderr)
        XCTAssertTrue(server.requests.isEmpty, "no request for bad input")
    }

    func testPlaceIsRequiredExactlyOnce() throws {
        let server = try startServer()
        let neither = try run(runner(server), ["weather"])
        XCTAssertEqual(neither.status, 64)
        assertOneErrorLine(neither)
        XCTAssertTrue(neither.stderr.contains("--at LAT,LON"), neither.stderr)
        let both = try run(runner(server), ["weather", "--at", "51,68", "--region", "KZ-AKM"])
        XCTAssertEqual(both.status, 64)
        assertOneErrorLine(both)
        let typo = try run(runner(server), ["weather", "--at", "51,68", "--forcast"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.contains("unexpected argument \"--forcast\""), typo.stderr)
        let productAlone = try run(runner(server), ["weather", "--at", "51,68", "--product", "anything"])
        XCTAssertEqual(productAlone.status, 64)
        XCTAssertTrue(productAlone.stderr.contains("--product goes with --spray"), productAlone.stderr)
        let unknownRegion = try run(runner(server), ["weather", "--region", "Atlantis"])
        XCTAssertEqual(unknownRegion.status, 3, unknownRegion.stderr)
        assertOneErrorLine(unknownRegion)
        XCTAssertTrue(server.requests.isEmpty)
    }
}

/// Failures: missing key, HTTP errors, the cache standing in.
final class WeatherFailureTests: WeatherCLITestCase {
    func testMissingKeySaysHowToGetOne() throws {
        let server = try startServer()
        let result = try run(runner(server, key: nil), ["weather", "--at", "51,68.5"])
        XCTAssertEqual(result.status, 80)
        assertOneErrorLine(result)
        XCTAssertTrue(result.stderr.contains("https://home.openweathermap.org/api_keys"), result.stderr)
        XCTAssertTrue(result.stderr.contains("OPENWEATHER_API_KEY"), result.stderr)
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testKeyFromTheConfigFile() throws {
        let server = try startServer()
        let runner = runner(server, key: nil)
        try writeConfig("{\"weather\": {\"apiKey\": \"\(Self.apiKey)\", \"units\": \"imperial\"}}", for: runner)
        let result = try run(runner, ["weather", "--at", "51,68.5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requests.last?.query["appid"], Self.apiKey)
        XCTAssertEqual(server.requests.last?.query["units"], "imperial")
    }

    func testHTTPErrorsHaveDistinctStatuses() throws {
        let cases: [(Int, String?, Int32, String)] = [
            (401, "error_401_invalid_api_key.json", 81, "rejected the API key"),
            (404, "error_404_legacy_not_found_city_pyowm.json", 82, "HTTP 404"),
            (429, "error_429_rate_limited_pyowm.json", 83, "rate limit"),
            (500, nil, 84, "HTTP 500"),
            (400, "error_400_onecall_timemachine_out_of_range.json", 89, "refused the request (HTTP 400)"),
        ]
        for (status, body, exit, expected) in cases {
            let server = try startServer(status: status, errorFixture: body)
            for arguments in [["--at", "51,68.5"], ["--at", "51,68.5", "--spray"]] {
                let result = try run(runner(server), ["weather"] + arguments)
                XCTAssertEqual(result.status, exit, "HTTP \(status): \(result.stderr)")
                assertOneErrorLine(result)
                XCTAssertTrue(result.stderr.contains(expected), "HTTP \(status): \(result.stderr)")
                XCTAssertEqual(result.stdout, "")
            }
        }
    }

    func testMalformedAnswer() throws {
        let server = try LoopbackHTTPServer { _ in LoopbackResponse(status: 200, json: "<html>maintenance</html>") }
        defer { server.stop() }
        let result = try run(runner(server), ["weather", "--at", "51,68.5", "--forecast"])
        XCTAssertEqual(result.status, 87, result.stderr)
        assertOneErrorLine(result)
        XCTAssertTrue(result.stderr.contains("not the expected JSON"), result.stderr)
    }

    func testKeyNeverPrintedEvenWhenTheServerEchoesIt() throws {
        let echo = "{\"cod\":401,\"message\":\"Invalid API key \(Self.apiKey), see appid=\(Self.apiKey)\"}"
        let server = try LoopbackHTTPServer { _ in LoopbackResponse(status: 401, json: echo) }
        defer { server.stop() }
        let result = try run(runner(server), ["weather", "--at", "51,68.5"])
        XCTAssertEqual(result.status, 81)
        XCTAssertTrue(result.stderr.contains("***"), result.stderr)
    }

    func testNoNetwork() throws {
        // Port 9 (discard) on loopback: nothing listens, the connection is refused.
        let result = try run(runner(nil), ["weather", "--at", "51,68.5"])
        XCTAssertEqual(result.status, 86, result.stderr)
        assertOneErrorLine(result)
    }

    func testOfflineShowsTheCachedAnswerWithItsAge() throws {
        let server = try startServer()
        let runner = runner(server)
        XCTAssertEqual(try run(runner, ["weather", "--at", "51,68.5"]).status, 0)
        XCTAssertEqual(server.requests.count, 1)
        server.stop()

        let offline = try run(runner, ["weather", "--at", "51,68.5", "--offline"])
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertTrue(offline.stdout.contains("Quiapo District"), offline.stdout)
        XCTAssertNotNil(offline.stdout.range(of: #"\(cached answer, \d+ s old\)"#, options: .regularExpression), offline.stdout)
        // No key is needed offline: nothing goes to the network.
        var keyless = runner
        keyless.environment["OPENWEATHER_API_KEY"] = nil
        let document = try json(keyless, ["weather", "--at", "51,68.5", "--offline"])
        XCTAssertEqual(document["source"] as? String, "cache")
        XCTAssertNotNil(document["ageSeconds"] as? Double)

        // Nothing cached for the forecast yet.
        let nothing = try run(runner, ["weather", "--at", "51,68.5", "--forecast", "--offline"])
        XCTAssertEqual(nothing.status, 88)
        assertOneErrorLine(nothing)
        XCTAssertTrue(nothing.stderr.contains("run once without --offline"), nothing.stderr)
    }

    func testNetworkFailureShowsTheCachedAnswerWithAWarning() throws {
        let good = try startServer()
        var runner = runner(good)
        XCTAssertEqual(try run(runner, ["weather", "--at", "51,68.5", "--forecast"]).status, 0)
        // Age the cached answer past its freshness, so the next run asks the server.
        let cache = URL(fileURLWithPath: try XCTUnwrap(runner.environment["XDG_CACHE_HOME"])).appendingPathComponent(
            "agro/weather")
        let file = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasPrefix("forecast_") })
        var envelope = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent(file))) as? [String: Any])
        envelope["fetchedAt"] = Date().timeIntervalSince1970 - 2 * 3600
        try JSONSerialization.data(withJSONObject: envelope).write(to: cache.appendingPathComponent(file))

        let failing = try startServer(status: 500)
        runner.environment["AGRO_OPENWEATHER_URL"] = failing.baseURL.absoluteString
        let result = try run(runner, ["weather", "--at", "51,68.5", "--forecast"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(failing.requests.count, 1)
        assertOneErrorLine(result)
        XCTAssertTrue(result.stderr.hasPrefix("agro: warning: OpenWeatherMap failed with HTTP 500"), result.stderr)
        XCTAssertTrue(result.stderr.contains("cached 2 h 00 min ago"), result.stderr)
        XCTAssertTrue(result.stdout.contains("Cached answer, 2 h 00 min old."), result.stdout)
        XCTAssertTrue(result.stdout.contains("Forecast for Curacautín"), result.stdout)

        // In Russian, the warning is Russian too (ru.json: "error.WeatherError.serverError",
        // "weather.staleAnswer", "duration.hours", "duration.minutes"), where it was English.
        runner.environment["AGRO_OPENWEATHER_URL"] = good.baseURL.absoluteString
        XCTAssertEqual(try run(runner, ["weather", "--at", "51,68.5", "--forecast", "--lang", "ru"]).status, 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) where name.hasPrefix("forecast_") {
            var aged = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent(name))) as? [String: Any])
            aged["fetchedAt"] = Date().timeIntervalSince1970 - 2 * 3600
            try JSONSerialization.data(withJSONObject: aged).write(to: cache.appendingPathComponent(name))
        }
        runner.environment["AGRO_OPENWEATHER_URL"] = failing.baseURL.absoluteString
        let russian = try run(runner, ["weather", "--at", "51,68.5", "--forecast", "--lang", "ru"])
        XCTAssertEqual(russian.status, 0, russian.stderr)
        XCTAssertEqual(
            russian.stderr,
            "agro: warning: сбой OpenWeatherMap, HTTP 500; повторите позже; показан ответ, сохранённый 2 ч 00 мин назад\n")

        // A rejected key is not a network failure: no stand-in.
        let rejecting = try startServer(status: 401, errorFixture: "error_401_invalid_api_key.json")
        runner.environment["AGRO_OPENWEATHER_URL"] = rejecting.baseURL.absoluteString
        XCTAssertEqual(try run(runner, ["weather", "--at", "51,68.5", "--forecast"]).status, 81)
    }

    func testFreshCacheSavesARequest() throws {
        let server = try startServer()
        let runner = runner(server)
        XCTAssertEqual(try run(runner, ["weather", "--at", "51,68.5"]).status, 0)
        XCTAssertEqual(try run(runner, ["weather", "--at", "51.001,68.5"]).status, 0)
        XCTAssertEqual(server.requests.count, 1, "a point within the cache's rounding shares the answer")
    }
}

/// `agro contacts --near`.
final class WeatherContactsNearTests: WeatherCLITestCase {
    override func setUpWithError() throws {
        // No weather server involved: no fixtures needed.
    }

    func testRepresentativesSortedByDistance() throws {
        let lat = 43.25, lon = 76.95  // Almaty
        let expected = CatalogPlaces.sorted(try CatalogPlaces.representatives(), from: lat, lon)
        let document = try json(CLIRunner(), ["contacts", "--near", "\(lat),\(lon)", "--all"])
        let items = try XCTUnwrap(document["items"] as? [[String: Any]])
        XCTAssertEqual(document["total"] as? Int, expected.count)
        let ids = items.compactMap { ($0["representative"] as? [String: Any])?["id"] as? String }
        let distances = items.compactMap { $0["distanceKm"] as? Double }
        XCTAssertEqual(distances, distances.sorted())
        XCTAssertEqual(Set(ids), Set(expected.map(\.place.id)))
        for (item, want) in zip(distances, expected.map(\.km)) { XCTAssertEqual(item, want, accuracy: 0.01) }
        XCTAssertEqual(ids.first, expected.first?.place.id)

        let table = try CLIRunner().run(["contacts", "--near", "\(lat),\(lon)", "--per-page", "3"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let rows = table.stdout.lines
        XCTAssertTrue(rows[0].contains("km") && rows[0].contains("Name"), table.stdout)
        XCTAssertTrue(rows[2].contains(expected[0].place.name), table.stdout)
        XCTAssertTrue(rows[2].contains(String(format: "%.1f", expected[0].km)), table.stdout)
        XCTAssertTrue(rows[3].contains(expected[1].place.name), table.stdout)
        XCTAssertTrue(table.stdout.contains("Page 1 of \((expected.count + 2) / 3) · \(expected.count) items"), table.stdout)
    }

    func testNegativeCoordinatesAndRegionStillWorks() throws {
        XCTAssertEqual(try CLIRunner().run(["contacts", "--near", "-38.4,-71.58"]).status, 0)
        let region = try CLIRunner().run(["contacts", "KZ-AKM"])
        XCTAssertEqual(region.status, 0, region.stderr)
        XCTAssertTrue(region.stdout.contains("Representatives"), region.stdout)
    }

    func testRegionOrNearExactlyOnce() throws {
        let both = try CLIRunner().run(["contacts", "KZ-AKM", "--near", "51,68"])
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(both.stderr.lines.count, 1, both.stderr)
        let neither = try CLIRunner().run(["contacts"])
        XCTAssertEqual(neither.status, 64)
        XCTAssertTrue(neither.stderr.contains("--near"), neither.stderr)
    }
}

/// The forecast fixture read with JSONSerialization, independently of the client's models.
enum Fixture {
    static func forecastSlots(_ data: Data) throws -> [[String: Any]]? {
        (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["list"] as? [[String: Any]]
    }
}
