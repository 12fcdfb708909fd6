import AgroDomain
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroWeather
@testable import AgroWeatherClient

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

/// The cache policy with the real client against the loopback server.
final class WeatherCacheTests: XCTestCase {
    static let key = "fedcba9876543210fedcba9876543210"
    private var server: LoopbackHTTPServer?
    private var directory: URL!
    private let clock = TestClock(Date(timeIntervalSince1970: 1_785_574_800))
    private let point = Coordinates(latitude: 14.5995, longitude: 120.9842)
    /// What the server answers next; tests switch it between calls.
    private let mode = Mode()

    final class Mode: @unchecked Sendable {
        private let lock = NSLock()
        private var value: LoopbackResponse?
        var response: LoopbackResponse? {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-weather-cache-\(UUID().uuidString)", isDirectory: true)
        let mode = self.mode
        server = try LoopbackHTTPServer { _ in
            mode.response ?? LoopbackResponse(status: 500, body: Data())
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func service(offline: Bool = false) throws -> CachedWeatherService {
        let url = try XCTUnwrap(server?.baseURL)
        let client = OpenWeatherMapClient(configuration: OpenWeatherMapConfiguration(baseURL: url, apiKey: Self.key, timeout: 2))
        let clock = self.clock
        let cache = WeatherCache(directory: directory, now: { clock.now })
        return CachedWeatherService(upstream: client, cache: cache, offline: offline)
    }

    private var requestCount: Int { server?.requests.count ?? 0 }

    private func serveFixture(_ name: String) throws {
        mode.response = LoopbackResponse(status: 200, body: try Fixtures.data(name))
    }

    func testFreshAnswerIsServedWithoutARequest() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        let first = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        XCTAssertEqual(first.source, .network)
        XCTAssertEqual(requestCount, 1)
        clock.advance(9 * 60 + 59)
        let second = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        XCTAssertEqual(second.source, .cache(age: 599))
        XCTAssertNil(second.warning)
        XCTAssertEqual(second.value, first.value)
        XCTAssertEqual(requestCount, 1, "fresh cache: no request")
    }

    func testStaleAnswerIsFetchedAgain() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        _ = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        clock.advance(600)
        let again = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        XCTAssertEqual(again.source, .network)
        XCTAssertEqual(requestCount, 2, "10 minutes old is stale")
    }

    func testCacheIsPerUnitsLangEndpointAndRoundedPlace() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        _ = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        _ = try await service.currentAnswer(at: point, units: .imperial, locale: "en")
        _ = try await service.currentAnswer(at: point, units: .metric, locale: "ru")
        XCTAssertEqual(requestCount, 3)
        // 14.5995 and 14.6014 both round to 14.60; 120.9842 and 120.9811 to 120.98: same file.
        _ = try await service.currentAnswer(at: Coordinates(latitude: 14.6014, longitude: 120.9811), units: .metric, locale: "en")
        XCTAssertEqual(requestCount, 3)
        try serveFixture("forecast_5day_3h_london_full_list_rain.json")
        _ = try await service.forecastAnswer(at: point, units: .metric, locale: "en")
        XCTAssertEqual(requestCount, 4, "forecast and current are cached apart")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(
            files,
            [
                "forecast_14.60_120.98_metric_en.json", "weather_14.60_120.98_imperial_en.json",
                "weather_14.60_120.98_metric_en.json", "weather_14.60_120.98_metric_ru.json",
            ])
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains(Self.key), "the key is not written to the cache")
        }
    }

    func testNetworkFailureFallsBackToTheCachedAnswerWithAWarning() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        let fetched = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        clock.advance(3600 + 5 * 60)
        server?.stop()  // the network is gone
        let fallback = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        XCTAssertEqual(fallback.value, fetched.value)
        XCTAssertEqual(fallback.source, .cache(age: 3900))
        let warning = try XCTUnwrap(fallback.warning)
        XCTAssertTrue(warning.contains("cannot reach"), warning)
        XCTAssertTrue(warning.contains("1 h 05 min"), warning)
        XCTAssertFalse(warning.contains(Self.key))
    }

    func testServerErrorFallsBackButKeyRejectedDoesNot() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        _ = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        clock.advance(700)
        mode.response = LoopbackResponse(status: 503, body: Data())
        let fallback = try await service.currentAnswer(at: point, units: .metric, locale: "en")
        XCTAssertTrue(fallback.warning?.contains("HTTP 503") ?? false, fallback.warning ?? "no warning")
        mode.response = LoopbackResponse(status: 401, body: try Fixtures.data("error_401_invalid_api_key.json"))
        do {
            _ = try await service.currentAnswer(at: point, units: .metric, locale: "en")
            XCTFail("a rejected key must be reported, not hidden behind the cache")
        } catch let error as WeatherError {
            guard case .keyRejected = error else { return XCTFail("\(error)") }
        }
    }

    func testFailureWithNothingCachedIsTheError() async throws {
        mode.response = LoopbackResponse(status: 502, body: Data())
        let service = try service()
        do {
            _ = try await service.forecastAnswer(at: point, units: .metric, locale: nil)
            XCTFail("expected an error")
        } catch let error as WeatherError {
            XCTAssertEqual(error, .serverError(status: 502))
        }
    }

    func testOfflineShowsTheLastAnswerWithItsAgeAndNoRequest() async throws {
        try serveFixture("forecast_5day_3h_london_full_list_rain.json")
        let fetched = try await service().forecastAnswer(at: point, units: .metric, locale: nil)
        clock.advance(2 * 86400)
        let offline = try await service(offline: true).forecastAnswer(at: point, units: .metric, locale: nil)
        XCTAssertEqual(offline.source, .cache(age: 172_800))
        XCTAssertEqual(offline.value, fetched.value)
        XCTAssertEqual(requestCount, 1, "offline never asks the server")
    }

    func testOfflineWithNothingCached() async throws {
        let service = try service(offline: true)
        do {
            _ = try await service.currentAnswer(at: point, units: .metric, locale: nil)
            XCTFail("expected an error")
        } catch let error as WeatherError {
            guard case .nothingCached = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.message.contains("14.60,120.98"), error.message)
        }
        XCTAssertEqual(requestCount, 0)
    }

    func testCachedAnswerDecodesToTheSameValuesAsTheRecording() async throws {
        // Round trip through the cache file keeps every raw value, Cyrillic included.
        let name = "current_weather_london_lang_ru_cyrillic_name_rain.json"
        let json = try Fixtures.object(name)
        try serveFixture(name)
        _ = try await service().currentAnswer(at: point, units: .standard, locale: "ru")
        let cached = try await service(offline: true).currentAnswer(at: point, units: .standard, locale: "ru").value
        XCTAssertEqual(cached.name, json["name"] as? String)
        XCTAssertEqual(cached.main?.feelsLike, number(dig(json, "main", "feels_like")))
        XCTAssertEqual(cached.rain?.oneHour, number(dig(json, "rain", "1h")))
        XCTAssertEqual(cached.cod?.value, 200)
    }

    func testClockSetBackIsNotFreshForever() {
        let clock = TestClock(Date(timeIntervalSince1970: 1_000_000))
        let cache = WeatherCache(directory: directory, now: { clock.now })
        XCTAssertNoThrow(try cache.write(Clouds(all: 5), endpoint: .current, at: point, units: .metric, locale: nil))
        clock.advance(-3600)
        let entry = cache.read(Clouds.self, endpoint: .current, at: point, units: .metric, locale: nil)
        XCTAssertEqual(entry?.age, 0)
        XCTAssertEqual(entry?.value, Clouds(all: 5))
    }

    func testAgeFormatting() {
        XCTAssertEqual(formatAge(45), "45 s")
        XCTAssertEqual(formatAge(12 * 60 + 30), "12 min")
        XCTAssertEqual(formatAge(3 * 3600 + 5 * 60), "3 h 05 min")
        XCTAssertEqual(formatAge(2 * 86400 + 4 * 3600), "2 d 4 h")
    }
}

extension WeatherCacheTests {
    func testTruncatedAnswerFallsBackToTheCache() async throws {
        let name = "forecast_5day_3h_london_full_list_rain.json"
        try serveFixture(name)
        let service = try service()
        let fetched = try await service.forecastAnswer(at: point, units: .metric, locale: nil)
        clock.advance(601)
        let body = try Fixtures.data(name)
        mode.response = LoopbackResponse(status: 200, body: body.prefix(100))
        let fallback = try await service.forecastAnswer(at: point, units: .metric, locale: nil)
        XCTAssertEqual(fallback.value, fetched.value)
        XCTAssertTrue(fallback.warning?.contains("not the expected JSON") ?? false, fallback.warning ?? "no warning")
        XCTAssertEqual(requestCount, 2)
    }

    func testRateLimitFallsBackToTheCache() async throws {
        try serveFixture("current_weather_rain_gust_manila_metric.json")
        let service = try service()
        _ = try await service.currentAnswer(at: point, units: .metric, locale: nil)
        clock.advance(900)
        mode.response = LoopbackResponse(
            status: 429, headers: [("Retry-After", "30")], body: try Fixtures.data("error_429_rate_limited_pyowm.json"))
        let fallback = try await service.currentAnswer(at: point, units: .metric, locale: nil)
        XCTAssertEqual(fallback.source, .cache(age: 900))
        XCTAssertTrue(fallback.warning?.contains("try again in 30 s") ?? false, fallback.warning ?? "no warning")
    }
}
