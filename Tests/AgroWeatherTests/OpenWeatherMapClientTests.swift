import AgroDomain
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroWeather
@testable import AgroWeatherClient

/// The real client against a real loopback server answering with recorded OpenWeatherMap bodies.
final class OpenWeatherMapClientTests: XCTestCase {
    // A key shaped like a real one, so that a leak would be easy to spot in any message.
    static let key = "0123456789abcdef0123456789abcdef"
    private var server: LoopbackHTTPServer?

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// Starts a server that answers every request with `response`.
    private func serve(_ response: LoopbackResponse) throws -> OpenWeatherMapClient {
        try serve { _ in response }
    }

    private func serve(_ handler: @escaping LoopbackHTTPServer.Handler, timeout: TimeInterval = 5) throws -> OpenWeatherMapClient
    {
        let server = try LoopbackHTTPServer(handler: handler)
        self.server = server
        return OpenWeatherMapClient(
            configuration: OpenWeatherMapConfiguration(baseURL: server.baseURL, apiKey: Self.key, timeout: timeout))
    }

    private func fixture(_ name: String, status: Int = 200, headers: [(String, String)] = []) throws -> LoopbackResponse {
        LoopbackResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: try Fixtures.data(name))
    }

    private let london = Coordinates(latitude: 51.51, longitude: -0.13)

    /// Runs `body`, which must throw a WeatherError, and returns it.
    private func weatherError(_ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) async
        -> WeatherError?
    {
        do {
            try await body()
            XCTFail("expected a WeatherError, got success", file: file, line: line)
            return nil
        } catch let error as WeatherError {
            XCTAssertFalse(error.message.contains(Self.key), "key leaked: \(error.message)", file: file, line: line)
            XCTAssertFalse(error.message.contains("\n"), "message must be one line", file: file, line: line)
            return error
        } catch {
            XCTFail("expected a WeatherError, got \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: - Requests

    func testRequestCarriesPointUnitsLangAndKey() async throws {
        let client = try serve(try fixture("current_weather_moscow_lang_ru_metric_clear_no_gust.json"))
        _ = try await client.current(at: Coordinates(latitude: 55.75, longitude: 37.62), units: .metric, locale: "ru")
        let request = try XCTUnwrap(server?.requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/data/2.5/weather")
        XCTAssertEqual(request.query["lat"], "55.75")
        XCTAssertEqual(request.query["lon"], "37.62")
        XCTAssertEqual(request.query["units"], "metric")
        XCTAssertEqual(request.query["lang"], "ru")
        XCTAssertEqual(request.query["appid"], Self.key)
    }

    func testForecastRequestPathAndImperialUnits() async throws {
        let client = try serve(try fixture("forecast_5day_3h_london_full_list_rain.json"))
        _ = try await client.forecast(at: london, units: .imperial, locale: nil)
        let request = try XCTUnwrap(server?.requests.first)
        XCTAssertEqual(request.path, "/data/2.5/forecast")
        XCTAssertEqual(request.query["units"], "imperial")
        XCTAssertNil(request.query["lang"], "no lang parameter when none is asked for")
    }

    func testBaseURLWithPathPrefixIsKept() throws {
        let configuration = OpenWeatherMapConfiguration(
            baseURL: URL(string: "http://proxy.example:8080/owm/")!, apiKey: Self.key)
        let client = OpenWeatherMapClient(configuration: configuration)
        let url = client.url(for: .forecast, at: london, units: .metric, locale: "fr")
        XCTAssertEqual(url.path, "/owm/data/2.5/forecast")
        XCTAssertEqual(url.host, "proxy.example")
        let shown = client.displayURL(for: .forecast, at: london, units: .metric, locale: "fr")
        XCTAssertFalse(shown.contains(Self.key))
        XCTAssertTrue(shown.contains("appid=***"), shown)
    }

    // MARK: - Current weather bodies

    func testCurrentWithRainAndGust() async throws {
        let name = "current_weather_rain_gust_manila_metric.json"
        let json = try Fixtures.object(name)
        let client = try serve(try fixture(name))
        let weather = try await client.current(
            at: Coordinates(latitude: 14.5995, longitude: 120.9842), units: .metric, locale: "en")
        XCTAssertEqual(weather.main?.temp, number(dig(json, "main", "temp")))
        XCTAssertEqual(weather.main?.feelsLike, number(dig(json, "main", "feels_like")))
        XCTAssertEqual(weather.main?.tempMin, number(dig(json, "main", "temp_min")))
        XCTAssertEqual(weather.main?.tempMax, number(dig(json, "main", "temp_max")))
        XCTAssertEqual(weather.main?.pressure, number(dig(json, "main", "pressure")))
        XCTAssertEqual(weather.main?.humidity, number(dig(json, "main", "humidity")))
        XCTAssertEqual(weather.wind?.speed, number(dig(json, "wind", "speed")))
        XCTAssertEqual(weather.wind?.deg, number(dig(json, "wind", "deg")))
        XCTAssertNotNil(weather.wind?.gust)
        XCTAssertEqual(weather.wind?.gust, number(dig(json, "wind", "gust")))
        XCTAssertEqual(weather.rain?.oneHour, number(dig(json, "rain", "1h")))
        XCTAssertNil(weather.snow)
        XCTAssertEqual(weather.visibility, number(dig(json, "visibility")))
        XCTAssertEqual(weather.clouds?.all, number(dig(json, "clouds", "all")))
        XCTAssertEqual(weather.sys?.sunrise, (dig(json, "sys", "sunrise") as? NSNumber)?.intValue)
        XCTAssertEqual(weather.sys?.sunset, (dig(json, "sys", "sunset") as? NSNumber)?.intValue)
        XCTAssertEqual(weather.timezone, (dig(json, "timezone") as? NSNumber)?.intValue)
        XCTAssertEqual(weather.condition?.description, dig(json, "weather", 0, "description") as? String)
        XCTAssertEqual(weather.coord?.coordinates?.latitude, number(dig(json, "coord", "lat")))
        XCTAssertEqual(weather.cod?.value, 200)
    }

    func testCurrentWithSnowNegativeTemperatureAndNoVisibility() async throws {
        let name = "current_weather_snow_negative_no_visibility_curacautin_metric.json"
        let json = try Fixtures.object(name)
        let client = try serve(try fixture(name))
        let weather = try await client.current(at: Coordinates(latitude: -38.4, longitude: -71.58), units: .metric, locale: "en")
        let temp = try XCTUnwrap(weather.main?.temp)
        XCTAssertLessThan(temp, 0)
        XCTAssertEqual(temp, number(dig(json, "main", "temp")))
        XCTAssertEqual(weather.snow?.oneHour, number(dig(json, "snow", "1h")))
        XCTAssertNil(weather.rain)
        XCTAssertNil(weather.visibility, "absent visibility stays absent")
        XCTAssertEqual(weather.wind?.gust, number(dig(json, "wind", "gust")))
        XCTAssertEqual(weather.name, dig(json, "name") as? String)
        XCTAssertEqual(weather.timezone, (dig(json, "timezone") as? NSNumber)?.intValue)
    }

    func testCurrentWithCyrillicNameAndNoGust() async throws {
        let name = "current_weather_moscow_lang_ru_metric_clear_no_gust.json"
        let client = try serve(try fixture(name))
        let weather = try await client.current(at: Coordinates(latitude: 55.75, longitude: 37.62), units: .metric, locale: "ru")
        XCTAssertEqual(weather.name, "Москва")
        XCTAssertEqual(weather.condition?.description, "ясно")
        XCTAssertNil(weather.wind?.gust)
        XCTAssertNotNil(weather.wind?.speed)
        XCTAssertNil(weather.rain)
        XCTAssertNil(weather.snow)
    }

    func testCurrentLondonInRussianWithRain() async throws {
        let name = "current_weather_london_lang_ru_cyrillic_name_rain.json"
        let json = try Fixtures.object(name)
        let client = try serve(try fixture(name))
        let weather = try await client.current(at: london, units: .standard, locale: "ru")
        XCTAssertEqual(weather.name, "Лондон")
        XCTAssertEqual(weather.condition?.description, "небольшой дождь")
        XCTAssertEqual(weather.rain?.oneHour, number(dig(json, "rain", "1h")))
    }

    func testCurrentWithoutWindDirection() async throws {
        let client = try serve(try fixture("current_weather_new_york_q_state_country.json"))
        let weather = try await client.current(at: Coordinates(latitude: 40.71, longitude: -74.01), units: .standard, locale: nil)
        XCTAssertNil(weather.wind?.deg)
        XCTAssertNotNil(weather.wind?.speed)
        XCTAssertEqual(weather.timezone, -14400)
    }

    func testLegacyAnswerWithoutFeelsLikeOrTimezone() async throws {
        let client = try serve(try fixture("current_weather_london_2013_legacy_pyowm.json"))
        let weather = try await client.current(at: london, units: .standard, locale: nil)
        XCTAssertNil(weather.main?.feelsLike)
        XCTAssertNil(weather.timezone)
        XCTAssertNil(weather.visibility)
        XCTAssertNotNil(weather.wind?.gust)
    }

    func testMalformedWeatherEntryIsToleratedNotFatal() async throws {
        let client = try serve(try fixture("current_weather_malformed_weather_entry_pyowm.json"))
        let weather = try await client.current(at: london, units: .standard, locale: nil)
        XCTAssertEqual(weather.weather?.count, 1)
        XCTAssertNil(weather.condition, "an entry without id, group or description is no condition")
        XCTAssertNotNil(weather.main?.temp)
    }

    // MARK: - Forecast bodies

    func testFullFortySlotForecast() async throws {
        let name = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"
        let json = try Fixtures.object(name)
        let list = try XCTUnwrap(json["list"] as? [[String: Any]])
        let client = try serve(try fixture(name))
        let forecast = try await client.forecast(
            at: Coordinates(latitude: -38.4, longitude: -71.58), units: .metric, locale: "en")
        XCTAssertEqual(forecast.list.count, 40)
        XCTAssertEqual(forecast.list.count, list.count)
        XCTAssertEqual(forecast.city?.name, dig(json, "city", "name") as? String)
        XCTAssertEqual(forecast.city?.timezone, (dig(json, "city", "timezone") as? NSNumber)?.intValue)
        XCTAssertEqual(forecast.cod?.text, "200")
        for (index, entry) in list.enumerated() {
            let slot = forecast.list[index]
            XCTAssertEqual(slot.dt, (entry["dt"] as? NSNumber)?.intValue, "slot \(index)")
            XCTAssertEqual(slot.main?.temp, number(dig(entry, "main", "temp")), "slot \(index)")
            XCTAssertEqual(slot.main?.humidity, number(dig(entry, "main", "humidity")), "slot \(index)")
            XCTAssertEqual(slot.wind?.speed, number(dig(entry, "wind", "speed")), "slot \(index)")
            XCTAssertEqual(slot.wind?.gust, number(dig(entry, "wind", "gust")), "slot \(index)")
            XCTAssertEqual(slot.pop, number(dig(entry, "pop")), "slot \(index)")
            XCTAssertEqual(slot.rain?.threeHours, number(dig(entry, "rain", "3h")), "slot \(index)")
            XCTAssertEqual(slot.snow?.threeHours, number(dig(entry, "snow", "3h")), "slot \(index)")
            XCTAssertEqual(slot.visibility, number(dig(entry, "visibility")), "slot \(index)")
            XCTAssertEqual(slot.sys?.pod, dig(entry, "sys", "pod") as? String, "slot \(index)")
        }
        // The fixture's point: sub-zero temperatures, snow, a humidity of 101 %, missing visibility.
        XCTAssertTrue(forecast.list.contains { ($0.main?.temp ?? 0) < 0 })
        XCTAssertTrue(forecast.list.contains { $0.snow?.threeHours != nil })
        XCTAssertTrue(forecast.list.contains { $0.main?.humidity == 101 })
        XCTAssertTrue(forecast.list.contains { $0.visibility == nil })
    }

    func testForecastWithEmptyCityAndKelvin() async throws {
        let name = "forecast_5day_3h_antarctica_empty_city_snow_subzero_kelvin.json"
        let json = try Fixtures.object(name)
        let client = try serve(try fixture(name))
        let forecast = try await client.forecast(
            at: Coordinates(latitude: -82.713066, longitude: 3.877213), units: .standard, locale: nil)
        XCTAssertEqual(forecast.city?.name, "")
        XCTAssertEqual(forecast.list.count, (json["list"] as? [Any])?.count)
        XCTAssertEqual(forecast.list.first?.main?.temp, number(dig(json, "list", 0, "main", "temp")))
    }

    // MARK: - Errors

    func testInvalidKeyIs401KeyRejected() async throws {
        let client = try serve(try fixture("error_401_invalid_api_key.json", status: 401))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .keyRejected(serverMessage)? = error else { return XCTFail("got \(String(describing: error))") }
        let expected = try Fixtures.object("error_401_invalid_api_key.json")["message"] as? String
        XCTAssertEqual(serverMessage, expected)
    }

    func testNotFoundIs404() async throws {
        let client = try serve(try fixture("error_404_legacy_not_found_city_pyowm.json", status: 404))
        let error = await weatherError { _ = try await client.forecast(at: self.london, units: .metric, locale: nil) }
        guard case let .notFound(serverMessage)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(serverMessage, "Error: Not found city")
    }

    func testErrorBodyWithStatus200IsStillAnError() async throws {
        // Some proxies and old endpoints answer 200 with {"cod":"404",...}.
        let client = try serve(try fixture("error_404_legacy_not_found_city_pyowm.json", status: 200))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case .notFound? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testRateLimitedWithRetryAfterSeconds() async throws {
        let client = try serve(try fixture("error_429_rate_limited_pyowm.json", status: 429, headers: [("Retry-After", "120")]))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .rateLimited(retryAfter, serverMessage)? = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertEqual(retryAfter, 120)
        XCTAssertEqual(serverMessage, try Fixtures.object("error_429_rate_limited_pyowm.json")["message"] as? String)
        XCTAssertTrue(error?.message.contains("try again in 2 min") ?? false, error?.message ?? "")
    }

    func testRateLimitedWithoutRetryAfter() async throws {
        let client = try serve(
            LoopbackResponse(status: 429, json: #"{"cod":429, "message": "Your account is temporary blocked"}"#))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .rateLimited(retryAfter, _)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertNil(retryAfter)
        XCTAssertTrue(error?.message.contains("try again later") ?? false)
    }

    func testRetryAfterAsHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_785_574_800)  // 2026-08-01 09:00:00 UTC
        XCTAssertEqual(OpenWeatherMapClient.retryAfterSeconds("Sat, 01 Aug 2026 09:01:30 GMT", now: now), 90)
        XCTAssertEqual(OpenWeatherMapClient.retryAfterSeconds(" 45 ", now: now), 45)
        XCTAssertNil(OpenWeatherMapClient.retryAfterSeconds("soon", now: now))
    }

    func testServerErrorIs5xx() async throws {
        let client = try serve(
            LoopbackResponse(status: 500, headers: [("Content-Type", "text/html")], body: Data("<html>oops</html>".utf8)))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        XCTAssertEqual(error, .serverError(status: 500))
    }

    func testOther4xxIsRequestRefused() async throws {
        let client = try serve(try fixture("error_400_onecall_timemachine_out_of_range.json", status: 400))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case .requestRefused(400, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testSlowAnswerPastTheTimeout() async throws {
        let body = try Fixtures.data("current_weather_london_q_rain1h_kelvin.json")
        let client = try serve({ _ in LoopbackResponse(status: 200, body: body, delay: 5) }, timeout: 1)
        let started = Date()
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        let elapsed = Date().timeIntervalSince(started)
        guard case .timeout(let seconds, _)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(seconds, 1)
        XCTAssertGreaterThan(elapsed, 0.9, "the client waited for its timeout")
        XCTAssertLessThan(elapsed, 4, "the client gave up on its own timeout, not when the server answered")
    }

    func testSubSecondTimeoutIsHonoured() async throws {
        // libcurl directly takes milliseconds: 0.3 s stays 0.3 s (FoundationNetworking made it 1 s).
        let body = try Fixtures.data("current_weather_london_q_rain1h_kelvin.json")
        let client = try serve({ _ in LoopbackResponse(status: 200, body: body, delay: 3) }, timeout: 0.3)
        XCTAssertEqual(client.configuration.timeout, 0.3)
        let started = Date()
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case .timeout(let seconds, _)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(seconds, 0.3)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testHostileAnswersEndInOneError() async throws {
        for reply in [FaultyHTTPServer.Reply.hugeContentLength(), .endlessBody(), .gzipBomb(decodedSize: 64 << 20)] {
            let server = try FaultyHTTPServer { _ in reply }
            defer { server.stop() }
            let client = OpenWeatherMapClient(
                configuration: OpenWeatherMapConfiguration(baseURL: server.url, apiKey: Self.key, timeout: 5))
            let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
            XCTAssertEqual(
                error, .malformedAnswer(detail: "the answer is larger than \(OpenWeatherMapClient.maximumAnswerSize) bytes"))
        }
        // 1e300 degrees is valid JSON but no weather: refused by name, not shown and not trapped on.
        let server = try FaultyHTTPServer { _ in
            .respond(
                status: 200, body: Data(#"{"main":{"temp":1e300,"humidity":-1e300},"wind":{"speed":1e300,"deg":1e300}}"#.utf8))
        }
        defer { server.stop() }
        let client = OpenWeatherMapClient(
            configuration: OpenWeatherMapConfiguration(baseURL: server.url, apiKey: Self.key, timeout: 5))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        XCTAssertEqual(error, .malformedAnswer(detail: "main.temp 1e+300"))
    }

    func testConnectionRefused() async throws {
        // Take a free port, then close it: nothing listens there any more.
        let closed = try LoopbackHTTPServer { _ in LoopbackResponse(status: 200, body: Data()) }
        let url = closed.baseURL
        closed.stop()
        let client = OpenWeatherMapClient(configuration: OpenWeatherMapConfiguration(baseURL: url, apiKey: Self.key, timeout: 5))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .noNetwork(reason, shown)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reason, "connection refused")
        XCTAssertTrue(shown.hasPrefix("http://127.0.0.1:"), shown)
        XCTAssertFalse(shown.contains("appid"), "the query (with the key) is not shown")
    }

    func testTruncatedJSONIsMalformed() async throws {
        let body = try Fixtures.data("forecast_5day_3h_london_full_list_rain.json")
        // A complete HTTP answer whose JSON stops half-way.
        let client = try serve(LoopbackResponse(status: 200, body: body.prefix(body.count / 2)))
        let error = await weatherError { _ = try await client.forecast(at: self.london, units: .metric, locale: nil) }
        guard case .malformedAnswer? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testConnectionCutMidBody() async throws {
        let body = try Fixtures.data("forecast_5day_3h_london_full_list_rain.json")
        // Content-Length announces the whole body but the server hangs up half-way.
        let client = try serve(LoopbackResponse(status: 200, body: body, truncateBodyAt: body.count / 2))
        let error = await weatherError { _ = try await client.forecast(at: self.london, units: .metric, locale: nil) }
        // libcurl reports a short body as a transfer failure: a network failure, not bad JSON.
        guard case let .noNetwork(reason, _)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("broke off"), reason)
    }

    func testNonJSONBodyIsMalformed() async throws {
        let client = try serve(LoopbackResponse(status: 200, headers: [], body: Data("<html>captive portal</html>".utf8)))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case .malformedAnswer? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testWrongTypeIsMalformedWithPath() async throws {
        let client = try serve(LoopbackResponse(status: 200, json: #"{"main":{"temp":"warm"},"cod":200}"#))
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .malformedAnswer(detail)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(detail.contains("main.temp"), detail)
    }

    func testServerEchoingTheKeyIsRedacted() async throws {
        // A proxy that puts the request URL (with the key) into its error message.
        let client = try serve { request in
            LoopbackResponse(status: 401, json: #"{"cod":401,"message":"bad key for \#(request.target)"}"#)
        }
        let error = await weatherError { _ = try await client.current(at: self.london, units: .metric, locale: nil) }
        guard case let .keyRejected(serverMessage)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(serverMessage?.contains("appid=***") ?? false, serverMessage ?? "")
    }

    // MARK: - Configuration

    func testKeyFromEnvironmentFirstThenConfigFile() throws {
        let fromEnv = try OpenWeatherMapConfiguration.resolve(
            environment: ["OPENWEATHER_API_KEY": " envkey "], configFileKey: "filekey")
        XCTAssertEqual(fromEnv.apiKey, "envkey")
        XCTAssertEqual(fromEnv.baseURL, OpenWeatherMapConfiguration.defaultBaseURL)
        let fromFile = try OpenWeatherMapConfiguration.resolve(environment: ["OPENWEATHER_API_KEY": ""], configFileKey: "filekey")
        XCTAssertEqual(fromFile.apiKey, "filekey")
    }

    func testNoKeySaysHowToGetOne() {
        XCTAssertThrowsError(try OpenWeatherMapConfiguration.resolve(environment: [:], configFileKey: nil)) { error in
            let weather = error as? WeatherError
            XCTAssertEqual(weather, .noAPIKey)
            XCTAssertTrue(weather?.message.contains("OPENWEATHER_API_KEY") ?? false)
            XCTAssertTrue(weather?.message.contains("openweathermap.org") ?? false)
        }
    }

    func testBaseURLFromEnvironment() throws {
        let configuration = try OpenWeatherMapConfiguration.resolve(
            environment: ["AGRO_OPENWEATHER_URL": "http://127.0.0.1:9999"], configFileKey: "k")
        XCTAssertEqual(configuration.baseURL.absoluteString, "http://127.0.0.1:9999")
        XCTAssertThrowsError(
            try OpenWeatherMapConfiguration.resolve(
                environment: ["AGRO_OPENWEATHER_URL": "ftp://x/?appid=\(Self.key)"], configFileKey: Self.key)
        ) { error in
            guard case .invalidBaseURL? = error as? WeatherError else { return XCTFail("\(error)") }
            XCTAssertFalse((error as? WeatherError)?.message.contains(Self.key) ?? true)
        }
    }

    func testRedactorMasksKeyAndAppidValues() {
        let redactor = KeyRedactor(key: "s3cr+t")
        XCTAssertEqual(redactor.redact("k=s3cr+t and s3cr%2Bt"), "k=*** and ***")
        XCTAssertEqual(redactor.redact("http://h/p?lat=1&appid=other&lon=2"), "http://h/p?lat=1&appid=***&lon=2")
    }
}
