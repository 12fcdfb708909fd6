import AgroDomain
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroWeather
@testable import AgroWeatherClient

/// Each number of a recorded answer set to its extremes, served by a real loopback server: the
/// client refuses the answer naming the field, a cached copy that fails is removed, and the
/// text of a bad offset never reaches a formatter.
final class WeatherPlausibilityTests: XCTestCase {
    private var server: LoopbackHTTPServer?

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private let point = Coordinates(latitude: 14.6, longitude: 120.98)

    /// The extremes a hostile or broken server may send: each is outside the field's range (an
    /// integer field given 1e300 fails to decode at all, which the client's own tests cover).
    private func extremes(integer: Bool) -> [Any] { integer ? [Int.min, Int.max] : [Int.min, Int.max, 1e300, -1e300] }
    private static let integerFields: Set<String> = [
        "timezone", "dt", "sys.sunrise", "sys.sunset", "city.timezone", "city.sunrise",
    ]

    private func client(answering body: Data) throws -> OpenWeatherMapClient {
        let server = try LoopbackHTTPServer { _ in
            LoopbackResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        }
        self.server?.stop()
        self.server = server
        return OpenWeatherMapClient(
            configuration: OpenWeatherMapConfiguration(
                baseURL: server.baseURL, apiKey: "0123456789abcdef0123456789abcdef", timeout: 5))
    }

    /// `json` with the value at `path` replaced.
    private func replacing(_ json: [String: Any], _ path: [Any], with value: Any) -> [String: Any] {
        func set(_ node: Any, _ rest: ArraySlice<Any>) -> Any {
            guard let step = rest.first else { return value }
            if let key = step as? String, var object = node as? [String: Any] {
                object[key] = set(object[key] ?? [String: Any](), rest.dropFirst())
                return object
            }
            if let index = step as? Int, var array = node as? [Any] {
                array[index] = set(array[index], rest.dropFirst())
                return array
            }
            return node
        }
        return set(json, path[...]) as! [String: Any]
    }

    private func expectRefused(_ body: () async throws -> Void, field: String, value: Any) async {
        do {
            try await body()
            XCTFail("\(field) = \(value) was accepted")
        } catch let WeatherError.malformedAnswer(detail) {
            XCTAssertTrue(detail.hasPrefix(field), "\(field) = \(value): the error names \(detail)")
        } catch {
            XCTFail("\(field) = \(value): expected malformedAnswer, got \(error)")
        }
    }

    func testEveryNumberOfACurrentAnswerAtItsExtremesIsRefusedByName() async throws {
        let json = try Fixtures.object("current_weather_rain_gust_manila_metric.json")
        // The recorded answer itself passes.
        _ = try await client(answering: JSONSerialization.data(withJSONObject: json)).current(
            at: point, units: .metric, locale: nil)
        let fields: [(String, [Any])] = [
            ("timezone", ["timezone"]), ("dt", ["dt"]), ("sys.sunrise", ["sys", "sunrise"]), ("sys.sunset", ["sys", "sunset"]),
            ("main.temp", ["main", "temp"]), ("main.feels_like", ["main", "feels_like"]),
            ("main.temp_min", ["main", "temp_min"]), ("main.temp_max", ["main", "temp_max"]),
            ("main.humidity", ["main", "humidity"]), ("main.pressure", ["main", "pressure"]),
            ("wind.speed", ["wind", "speed"]), ("wind.gust", ["wind", "gust"]), ("wind.deg", ["wind", "deg"]),
            ("visibility", ["visibility"]), ("clouds.all", ["clouds", "all"]), ("rain.1h", ["rain", "1h"]),
            ("coord.lat", ["coord", "lat"]), ("coord.lon", ["coord", "lon"]),
        ]
        for (field, path) in fields {
            for value in extremes(integer: Self.integerFields.contains(field) || field.hasSuffix("].dt")) {
                let body = try JSONSerialization.data(withJSONObject: replacing(json, path, with: value))
                let client = try client(answering: body)
                await expectRefused(
                    { _ = try await client.current(at: point, units: .metric, locale: nil) }, field: field, value: value)
            }
        }
        // The offsets that trapped DateFormatter: past the ±14 h any place uses.
        for offset in [54_000, 64_800, -54_000, -64_800] {
            let client = try client(
                answering: JSONSerialization.data(withJSONObject: replacing(json, ["timezone"], with: offset)))
            await expectRefused(
                { _ = try await client.current(at: point, units: .metric, locale: nil) }, field: "timezone", value: offset)
        }
    }

    func testEveryNumberOfAForecastSlotAtItsExtremesIsRefusedByName() async throws {
        let json = try Fixtures.object("forecast_5day_3h_london_full_list_rain.json")
        _ = try await client(answering: JSONSerialization.data(withJSONObject: json)).forecast(
            at: point, units: .metric, locale: nil)
        let last = try XCTUnwrap(json["list"] as? [Any]).count - 1
        let fields: [(String, [Any])] = [
            ("city.timezone", ["city", "timezone"]), ("city.sunrise", ["city", "sunrise"]),
            ("list[\(last)].dt", ["list", last, "dt"]), ("list[\(last)].main.temp", ["list", last, "main", "temp"]),
            ("list[\(last)].wind.speed", ["list", last, "wind", "speed"]), ("list[\(last)].pop", ["list", last, "pop"]),
            ("list[\(last)].rain.3h", ["list", last, "rain", "3h"]),
            ("list[\(last)].main.humidity", ["list", last, "main", "humidity"]),
        ]
        for (field, path) in fields {
            for value in extremes(integer: Self.integerFields.contains(field) || field.hasSuffix("].dt")) {
                let client = try client(answering: JSONSerialization.data(withJSONObject: replacing(json, path, with: value)))
                await expectRefused(
                    { _ = try await client.forecast(at: point, units: .metric, locale: nil) }, field: field, value: value)
            }
        }
    }

    func testACachedAnswerThatFailsTheChecksIsRemovedNotServed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = WeatherCache(directory: directory)
        // Written as an earlier version would have kept it, with the offset that crashed the server.
        try cache.write(
            CurrentWeather(dt: 1_785_574_377, timezone: 57_600), endpoint: .current, at: point, units: .metric, locale: nil)
        let file = directory.appendingPathComponent(
            WeatherCache.fileName(endpoint: .current, at: point, units: .metric, locale: nil))
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        XCTAssertNil(cache.read(CurrentWeather.self, endpoint: .current, at: point, units: .metric, locale: nil))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the bad answer must not stay to be served again")
        // A good one is kept and read back.
        try cache.write(
            CurrentWeather(dt: 1_785_574_377, timezone: 28_800), endpoint: .current, at: point, units: .metric, locale: nil)
        XCTAssertEqual(
            cache.read(CurrentWeather.self, endpoint: .current, at: point, units: .metric, locale: nil)?.value.timezone, 28_800)
    }

    func testAnOffsetOutOfRangeIsWrittenInUTCWithoutTrapping() {
        for offset in [Int.min, Int.max, 57_600, -64_800] {
            let text = WeatherText.zoneName(offset)
            XCTAssertEqual(text, "UTC", "offset \(offset)")
            XCTAssertEqual(WeatherPlausibility.timeZone(offset: offset).secondsFromGMT(), 0)
        }
        XCTAssertEqual(WeatherPlausibility.timeZone(offset: 5 * 3600).secondsFromGMT(), 5 * 3600)
        XCTAssertEqual(WeatherText.zoneName(-14_400), "UTC-4")
    }
}
