import AgroDomain
import Foundation
import XCTest

@testable import AgroWeather

final class WeatherTextTests: XCTestCase {
    private func current(_ name: String) throws -> CurrentWeather {
        try JSONDecoder().decode(CurrentWeather.self, from: Fixtures.data(name))
    }

    private func forecast(_ name: String) throws -> Forecast {
        try JSONDecoder().decode(Forecast.self, from: Fixtures.data(name))
    }

    func testCurrentConditionsFromRecordedRainAndGust() throws {
        let name = "current_weather_rain_gust_manila_metric.json"
        let json = try Fixtures.object(name)
        let region = Region(
            id: "PH-00", name: "Metro Manila", kind: .region, centre: Coordinates(latitude: 14.6, longitude: 121.0))
        let rep = Representative(
            id: "r1", region: EntityRef(id: "PH-00", name: "Metro Manila"), name: "Ana Cruz", phone: "+63 2 000")
        let point = Coordinates(latitude: 14.5995, longitude: 120.9842)
        let text = WeatherText.current(
            try current(name), units: .metric,
            region: NearestPlaces.region(nearestTo: point, in: [region]),
            representative: NearestPlaces.representative(nearestTo: point, in: [rep], regions: [region]),
            source: .cache(age: 300))
        let lines = text.split(separator: "\n").map(String.init)
        let speed = String(format: "%.1f", try XCTUnwrap(number(dig(json, "wind", "speed"))))
        let gust = String(format: "%.1f", try XCTUnwrap(number(dig(json, "wind", "gust"))))
        // deg 255 / 22.5 = 11.3 -> sector 11 -> WSW.
        XCTAssertTrue(lines.contains("Wind            \(speed) m/s from WSW (255°), gusts \(gust) m/s"), text)
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("Temperature") && $0.contains("\(String(format: "%.1f", number(dig(json, "main", "temp"))!)) °C")
            }, text)
        XCTAssertTrue(lines.contains("Rain            2.47 mm in the last hour"), text)
        XCTAssertTrue(lines.contains("Moderate rain"), text)
        XCTAssertTrue(lines.contains("(cached answer, 5 min old)"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Region          Metro Manila (PH-00)") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Representative  Ana Cruz, +63 2 000") }, text)
        // Local time at UTC+8: dt 1785574377 is 08:52:57 UTC -> 16:52.
        XCTAssertTrue(lines[0].hasSuffix("observed 2026-08-01 16:52 UTC+8"), lines[0])
        // Sunrise 1785533950 = 21:39:10 UTC the day before -> 05:39 local; sunset 1785579932 = 10:25:32 UTC -> 18:25.
        XCTAssertTrue(lines.contains("Sun             rises 05:39, sets 18:25 (UTC+8)"), text)
    }

    func testAbsentValuesAreLeftOutNotZero() throws {
        let snow = WeatherText.current(
            try current("current_weather_snow_negative_no_visibility_curacautin_metric.json"), units: .metric)
        XCTAssertFalse(snow.contains("Visibility"), snow)
        XCTAssertTrue(snow.contains("-1.4 °C"), snow)
        XCTAssertTrue(snow.contains("Snow            1.37 mm in the last hour"), snow)
        XCTAssertTrue(snow.contains("Curacautín, CL"), snow)
        let calm = WeatherText.current(try current("current_weather_moscow_lang_ru_metric_clear_no_gust.json"), units: .metric)
        XCTAssertFalse(calm.contains("gust"), calm)
        XCTAssertFalse(calm.contains("Rain"), calm)
        XCTAssertTrue(calm.contains("Москва, RU"), calm)
        XCTAssertTrue(calm.contains("\nЯсно\n"), "the description comes in the asked language, first letter capitalised: \(calm)")
        let noDirection = WeatherText.current(try current("current_weather_new_york_q_state_country.json"), units: .standard)
        XCTAssertTrue(noDirection.contains("Wind            2.1 m/s\n"), noDirection)
        XCTAssertTrue(noDirection.contains(" K "), "Kelvin symbol in standard units")
    }

    func testImperialSymbols() throws {
        let text = WeatherText.current(try current("current_weather_moscow_lang_ru_imperial.json"), units: .imperial)
        XCTAssertTrue(text.contains("53.6 °F"), text)
        XCTAssertTrue(text.contains("6.7 mph"), text)
    }

    func testForecastTableHasEverySlotAndFitsTheWidth() throws {
        let name = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"
        let json = try Fixtures.object(name)
        let list = try XCTUnwrap(json["list"] as? [[String: Any]])
        let wide = WeatherText.forecastTable(try forecast(name), units: .metric, width: 110)
        let lines = wide.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        XCTAssertEqual(lines.count, 3 + list.count, "title, header, one row per slot, the note on units")
        XCTAssertTrue(lines[0].contains("Curacautín"))
        XCTAssertTrue(lines[0].contains("UTC-4"))
        XCTAssertTrue(lines[1].hasSuffix("Conditions"))
        XCTAssertTrue(lines.allSatisfy { $0.count <= 110 }, wide)
        // First slot: dt 1785574800 = 09:00 UTC = 05:00 at UTC-4, Saturday 1 August 2026.
        let first = lines[2]
        XCTAssertTrue(first.hasPrefix("Sat 01 05:00"), first)
        XCTAssertTrue(first.contains(String(format: "%.1f", number(dig(list[0], "main", "temp"))!)), first)
        // Days are separated by a blank line: 40 slots from 05:00 local span 6 calendar days.
        XCTAssertEqual(wide.components(separatedBy: "\n\n").count, 6)
        let narrow = WeatherText.forecastTable(try forecast(name), units: .metric, width: 60)
        XCTAssertFalse(narrow.contains("Conditions"), "no room: the conditions column goes")
        XCTAssertFalse(narrow.contains("snow\n"))
    }

    func testChartFitsTheWidthAndShowsTheRange() throws {
        let name = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"
        let recorded = try Fixtures.object(name)  // outside XCTUnwrap: a missing fixture skips
        let list = try XCTUnwrap(recorded["list"] as? [[String: Any]])
        let temps = list.compactMap { number(dig($0, "main", "temp")) }
        for width in [40, 80, 100, 200] {
            let chart = WeatherText.forecastChart(try forecast(name), units: .metric, width: width)
            let lines = chart.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.allSatisfy { $0.count <= width }, "width \(width):\n\(chart)")
            XCTAssertTrue(chart.contains("Temperature, °C"))
            XCTAssertTrue(chart.contains("Wind (*) and gusts (+), m/s"))
            XCTAssertTrue(chart.contains("Rain and snow, mm per 3 h"))
            XCTAssertTrue(chart.contains("Sat 01"), "the first day is labelled")
        }
        // At 100 columns every slot has its own columns, so the scale is the recorded extremes.
        let chart = WeatherText.forecastChart(try forecast(name), units: .metric, width: 100)
        let lines = chart.split(separator: "\n").map(String.init)
        let top = try XCTUnwrap(lines.firstIndex(of: "Temperature, °C")) + 1
        XCTAssertTrue(lines[top].hasPrefix(String(format: "%8.1f |", temps.max()!)), lines[top])
        XCTAssertTrue(lines[top + 5].hasPrefix(String(format: "%8.1f |", temps.min()!)), lines[top + 5])
        // Day boundaries: 5 changes of day after the first -> 5 "|" marks on the ruler.
        let ruler = try XCTUnwrap(lines.first { $0.hasPrefix("         +") })
        XCTAssertEqual(ruler.filter { $0 == "|" }.count, 5, ruler)
    }

    func testChartColumnsFoldAndSpread() {
        XCTAssertEqual(TextChart.columns(count: 4, width: 8), [[0], [0], [1], [1], [2], [2], [3], [3]])
        XCTAssertEqual(TextChart.columns(count: 4, width: 2), [[0, 1], [2, 3]])
        XCTAssertEqual(TextChart.columns(count: 5, width: 2), [[0, 1], [2, 3, 4]])
        XCTAssertEqual(TextChart.columns(count: 0, width: 5), [])
    }

    func testCompassAndZones() {
        XCTAssertEqual(WeatherText.compass(0), "N")
        XCTAssertEqual(WeatherText.compass(11.2), "N")
        XCTAssertEqual(WeatherText.compass(11.3), "NNE")
        XCTAssertEqual(WeatherText.compass(90), "E")
        XCTAssertEqual(WeatherText.compass(348.8), "N")
        XCTAssertEqual(WeatherText.compass(-90), "W")
        XCTAssertEqual(WeatherText.zoneName(0), "UTC")
        XCTAssertEqual(WeatherText.zoneName(10800), "UTC+3")
        XCTAssertEqual(WeatherText.zoneName(-14400), "UTC-4")
        XCTAssertEqual(WeatherText.zoneName(19800), "UTC+5:30")
    }

    func testSprayReportListsWindowsFirstAndEverySlot() throws {
        // Hand-made: good 06-12, avoid 12-15 (wind 25 km/h), good 15-18, in UTC.
        var rules = SprayRules()
        rules.boomWindFactor = 1
        let t0 = Date(timeIntervalSince1970: 1_785_564_000)
        func slot(_ i: Int, wind: Double) -> SpraySlot {
            SpraySlot(
                start: t0.addingTimeInterval(Double(i) * 10800), temperatureC: 18, humidity: 65, wind10m: wind / 3.6,
                precipitationProbability: 0, cloudPercent: 50)
        }
        let report = SprayAdvisor.report(
            slots: [slot(0, wind: 10), slot(1, wind: 10), slot(2, wind: 25), slot(3, wind: 10)], rules: rules)
        let text = WeatherText.sprayReport(report, timeZoneOffset: 0, width: 80, productName: "Example 500 SC")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Spray windows for Example 500 SC, rain-fast period 2 h (default"), lines[0])
        let first = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  good") })
        XCTAssertEqual(lines[first], "  good     Sat 01 06:00 - Sat 01 12:00  6 h")
        XCTAssertEqual(lines[first + 1], "  good     Sat 01 15:00 - Sat 01 18:00  3 h")
        XCTAssertEqual(lines[first + 2], "", "no marginal windows")
        let bySlot = try XCTUnwrap(lines.firstIndex(of: "By slot:"))
        XCTAssertEqual(lines[bySlot + 1], "  Sat 01 06:00  good")
        XCTAssertTrue(lines[bySlot + 3].hasPrefix("  Sat 01 12:00  avoid    wind 25 km/h above 20"), lines[bySlot + 3])
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, text)
    }

    func testSprayReportWrapsLongReasonsToTheWidth() throws {
        let fl = try forecast("forecast_5day_3h_london_full_list_rain.json")
        let report = SprayAdvisor.report(forecast: fl, units: .standard, rainfastHours: 4)
        let text = WeatherText.sprayReport(report, timeZoneOffset: fl.city?.timezone, width: 90)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 90 }, text)
        XCTAssertTrue(lines[0].contains("rain-fast period 4 h;"), lines[0])
        XCTAssertEqual(
            lines.filter {
                $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLetter == true && $0.contains(":00  ") && !$0.contains(" - ")
            }.count,
            fl.list.count, "one line starts per slot")
    }

    func testJSONOutputKeepsRawValuesAndVerdicts() throws {
        let name = "forecast_5day_3h_london_full_list_rain.json"
        let json = try Fixtures.object(name)
        let fl = try forecast(name)
        let point = Coordinates(latitude: 51.5073, longitude: -0.1277)
        let spray = SprayAdvisor.report(forecast: fl, units: .standard)
        let output = WeatherOutput(
            point: point, units: .standard, locale: nil, answer: WeatherAnswer(value: fl, source: .cache(age: 120), warning: "w"),
            spray: spray)
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: WeatherJSON.encode(output)) as? [String: Any])
        XCTAssertEqual(decoded["source"] as? String, "cache")
        XCTAssertEqual(number(decoded["ageSeconds"]), 120)
        XCTAssertEqual(decoded["warning"] as? String, "w")
        // Raw OpenWeatherMap keys and values survive.
        XCTAssertEqual(
            number(dig(decoded, "weather", "list", 0, "main", "feels_like")), number(dig(json, "list", 0, "main", "feels_like")))
        XCTAssertEqual(dig(decoded, "weather", "list", 0, "dt_txt") as? String, dig(json, "list", 0, "dt_txt") as? String)
        XCTAssertEqual(number(dig(decoded, "weather", "list", 0, "wind", "gust")), number(dig(json, "list", 0, "wind", "gust")))
        let slots = try XCTUnwrap(dig(decoded, "spray", "slots") as? [[String: Any]])
        XCTAssertEqual(slots.count, (json["list"] as? [Any])?.count)
        XCTAssertTrue(slots.allSatisfy { ["good", "marginal", "avoid"].contains($0["verdict"] as? String ?? "") })
        XCTAssertNotNil(dig(slots[0], "findings", 0, "rule") as? String)
        XCTAssertEqual(dig(slots[0], "slot", "start") as? String, "2025-03-20T21:00:00Z")
    }
}
