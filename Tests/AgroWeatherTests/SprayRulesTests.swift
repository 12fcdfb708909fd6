import Foundation
import XCTest

@testable import AgroWeather

/// The spray rules at each threshold, with expected verdicts worked out by hand from the
/// documented defaults (SprayRules.swift).
final class SprayRulesTests: XCTestCase {
    let rules = SprayRules()

    private func verdicts(_ values: [Double?], _ finding: (Double?) -> SprayFinding) -> [SprayVerdict] {
        values.map { finding($0).verdict }
    }

    // MARK: - One rule at a time, at each boundary

    func testWindBoundaries() {
        // < 3 avoid (calm), 3...15 good, 15 < w <= 20 marginal, > 20 avoid; unknown marginal.
        XCTAssertEqual(
            verdicts([0, 2.9, 3.0, 15.0, 15.1, 20.0, 20.1, nil]) { AgroWeather.SprayAdvisor.windFinding($0, rules) },
            [.avoid, .avoid, .good, .good, .marginal, .marginal, .avoid, .marginal])
        let calm = SprayAdvisor.windFinding(2.9, rules)
        XCTAssertEqual(calm.threshold, 3)
        XCTAssertEqual(calm.value, 2.9)
        XCTAssertEqual(calm.rule, .wind)
        XCTAssertTrue(calm.text.contains("inversion"), calm.text)
        XCTAssertEqual(SprayAdvisor.windFinding(20.1, rules).threshold, 20)
        XCTAssertEqual(SprayAdvisor.windFinding(15.1, rules).threshold, 15)
    }

    func testValuesNoIntegerHoldsAreShownNotTrappedOn() {
        // 1e300 is valid JSON in a forecast: worded (Swift's form), not trapped on in Int().
        let wind = SprayAdvisor.windFinding(1e300, rules)
        XCTAssertEqual(wind.verdict, .avoid)
        XCTAssertTrue(wind.text.hasPrefix("wind 1e+300 km/h above 20"), wind.text)
        XCTAssertEqual(SprayAdvisor.temperatureFinding(-1e300, rules).text, "-1e+300 °C below 2: frost risk, no uptake")
    }

    func testGustBoundaries() {
        // <= 20 good, <= 30 marginal, > 30 avoid; no gusts in the forecast is no objection.
        XCTAssertEqual(
            verdicts([20.0, 20.1, 30.0, 30.1, nil]) { SprayAdvisor.gustFinding($0, rules) },
            [.good, .marginal, .marginal, .avoid, .good])
    }

    func testRainBoundaries() {
        // >= 1 mm avoid, >= 0.1 mm marginal.
        let found = [0, 0.09, 0.1, 0.99, 1.0, 4].map { SprayAdvisor.rainFinding($0, rainfastHours: 2, rules).verdict }
        XCTAssertEqual(found, [.good, .good, .marginal, .marginal, .avoid, .avoid])
        XCTAssertTrue(SprayAdvisor.rainFinding(1, rainfastHours: 2, rules).text.contains("2 h"))
    }

    func testPrecipitationProbabilityBoundaries() {
        // >= 0.6 avoid, >= 0.3 marginal; absent is no objection.
        XCTAssertEqual(
            verdicts([0, 0.29, 0.3, 0.59, 0.6, 1, nil]) { SprayAdvisor.precipitationProbabilityFinding($0, rules) },
            [.good, .good, .marginal, .marginal, .avoid, .avoid, .good])
    }

    func testTemperatureBoundaries() {
        // < 2 avoid, < 8 marginal, 8...25 good, > 25 marginal, > 28 avoid.
        XCTAssertEqual(
            verdicts([-5, 1.9, 2.0, 7.9, 8.0, 25.0, 25.1, 28.0, 28.1, nil]) { SprayAdvisor.temperatureFinding($0, rules) },
            [.avoid, .avoid, .marginal, .marginal, .good, .good, .marginal, .marginal, .avoid, .marginal])
    }

    func testHumidityBoundaries() {
        // < 30 avoid, < 50 marginal.
        XCTAssertEqual(
            verdicts([10, 29.9, 30, 49.9, 50, 100, nil]) { SprayAdvisor.humidityFinding($0, rules) },
            [.avoid, .avoid, .marginal, .marginal, .good, .good, .marginal])
    }

    func testDeltaTBoundaries() {
        // < 2 avoid, 2...8 good, 8 < x <= 10 marginal, > 10 avoid.
        XCTAssertEqual(
            verdicts([0, 1.9, 2.0, 8.0, 8.1, 10.0, 10.1, nil]) { SprayAdvisor.deltaTFinding($0, rules) },
            [.avoid, .avoid, .good, .good, .marginal, .marginal, .avoid, .marginal])
    }

    func testInversionBoundaries() {
        // Outside the period: no objection. Inside: light wind (< 11 km/h at 10 m) and clear sky
        // (<= 30 % cloud) avoid, anything else marginal.
        XCTAssertEqual(SprayAdvisor.inversionFinding(inPeriod: false, wind10mKmh: 0, cloudPercent: 0, rules).verdict, .good)
        XCTAssertEqual(SprayAdvisor.inversionFinding(inPeriod: true, wind10mKmh: 10.9, cloudPercent: 30, rules).verdict, .avoid)
        XCTAssertEqual(
            SprayAdvisor.inversionFinding(inPeriod: true, wind10mKmh: 11.0, cloudPercent: 30, rules).verdict, .marginal)
        XCTAssertEqual(
            SprayAdvisor.inversionFinding(inPeriod: true, wind10mKmh: 10.9, cloudPercent: 31, rules).verdict, .marginal)
        XCTAssertEqual(
            SprayAdvisor.inversionFinding(inPeriod: true, wind10mKmh: nil, cloudPercent: nil, rules).verdict, .avoid,
            "unknown wind and cloud at night: assume the worst")
    }

    // MARK: - Physics

    func testStullWetBulbWorkedExample() {
        // Stull (2011) gives T = 20 °C, RH = 50 % -> Tw = 13.7 °C.
        XCTAssertEqual(Psychrometrics.wetBulb(temperature: 20, humidity: 50), 13.7, accuracy: 0.05)
        XCTAssertEqual(Psychrometrics.deltaT(temperature: 20, humidity: 50), 6.3, accuracy: 0.05)
    }

    func testDeltaTNeverNegativeAndGrowsAsAirDries() {
        XCTAssertEqual(Psychrometrics.deltaT(temperature: 5, humidity: 101), 0, accuracy: 0.3)
        XCTAssertGreaterThanOrEqual(Psychrometrics.deltaT(temperature: 5, humidity: 101), 0)
        let moist = Psychrometrics.deltaT(temperature: 25, humidity: 80)
        let dry = Psychrometrics.deltaT(temperature: 25, humidity: 30)
        XCTAssertLessThan(moist, dry)
        // Bureau of Meteorology's Delta-T chart: 30 °C at 30 % is well past 10.
        XCTAssertGreaterThan(Psychrometrics.deltaT(temperature: 30, humidity: 30), 10)
    }

    func testLogWindProfileFactor() {
        // ln(1/0.03) / ln(10/0.03) = 3.5066 / 5.8091 = 0.6036.
        XCTAssertEqual(SprayRules().windHeightFactor, 0.6036, accuracy: 0.0001)
        var crop = SprayRules()
        crop.roughnessLengthMetres = 0.1
        // ln(10) / ln(100) = 0.5 exactly.
        XCTAssertEqual(crop.windHeightFactor, 0.5, accuracy: 1e-12)
        crop.boomWindFactor = 0.8
        XCTAssertEqual(crop.windHeightFactor, 0.8)
    }

    func testRulesFromPartialConfigKeepDefaults() throws {
        let json = #"{"windGoodMaxKmh": 12, "boomWindFactor": 0.7, "defaultRainfastHours": 4}"#
        let decoded = try JSONDecoder().decode(SprayRules.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.windGoodMaxKmh, 12)
        XCTAssertEqual(decoded.boomWindFactor, 0.7)
        XCTAssertEqual(decoded.defaultRainfastHours, 4)
        XCTAssertEqual(decoded.windMarginalMaxKmh, 20)
        XCTAssertEqual(decoded.deltaTGoodMaxC, 8)
        // And the full set survives a round trip.
        let again = try JSONDecoder().decode(SprayRules.self, from: JSONEncoder().encode(decoded))
        XCTAssertEqual(again, decoded)
    }
}

/// Whole slots through the advisor.
final class SprayAdvisorTests: XCTestCase {
    /// 2026-08-01 06:00 UTC.
    let t0 = Date(timeIntervalSince1970: 1_785_564_000)
    /// Rules with the height factor 1, so that boom wind = 10 m wind and km/h = m/s × 3.6 exactly.
    var flat: SprayRules {
        var rules = SprayRules()
        rules.boomWindFactor = 1
        return rules
    }

    /// A calm, mild, dry day slot: 18 °C, 65 % (Delta-T about 3.8 by psychrometric tables),
    /// wind 10 km/h, no gusts, no rain, pop 0, half cloudy.
    private func slot(
        _ index: Int, wind kmh: Double = 10, gust: Double? = nil, temp: Double = 18, rh: Double = 65,
        rain: Double = 0, pop: Double? = 0, cloud: Double = 50, night: Bool = false
    ) -> SpraySlot {
        SpraySlot(
            start: t0.addingTimeInterval(Double(index) * 3 * 3600), temperatureC: temp, humidity: rh,
            wind10m: kmh / 3.6, gust10m: gust.map { $0 / 3.6 }, precipitationMm: rain,
            precipitationProbability: pop, cloudPercent: cloud, inversionPeriod: night)
    }

    private func verdict(_ slot: SpraySlot, rules: SprayRules? = nil) -> SprayVerdict {
        SprayAdvisor.report(slots: [slot], rules: rules ?? flat).slots[0].verdict
    }

    /// Snow is said as snow: the rain rule judges the water, the words name what falls.
    func testSnowIsSaidAsSnow() {
        var snowy = slot(0, temp: 1, rain: 5)
        snowy.snowMm = 5
        let rule = SprayAdvisor.report(slots: [snowy], rules: flat).slots[0].findings.first { $0.rule == .rain }
        XCTAssertEqual(rule?.verdict, .avoid)
        XCTAssertEqual(rule?.snow, true)
        XCTAssertTrue(rule?.text.hasPrefix("snow 5 mm") == true, rule?.text ?? "")
        // Mostly rain with a little snow: rain.
        var mixed = slot(0, temp: 1, rain: 5)
        mixed.snowMm = 1
        let wet = SprayAdvisor.report(slots: [mixed], rules: flat).slots[0].findings.first { $0.rule == .rain }
        XCTAssertNil(wet?.snow)
        XCTAssertTrue(wet?.text.hasPrefix("rain 5 mm") == true, wet?.text ?? "")
        // From a forecast: the next item's snow.3h is the slot's snow.
        let forecast = Forecast(
            list: [
                ForecastSlot(dt: 1_785_564_000, main: MainReadings(temp: 0.5, humidity: 90)),
                ForecastSlot(dt: 1_785_574_800, main: MainReadings(temp: 0.2, humidity: 92), snow: Precipitation(threeHours: 4)),
            ])
        let slots = SpraySlot.slots(from: forecast, units: .metric)
        XCTAssertEqual(slots[0].snowMm, 4)
        XCTAssertEqual(slots[0].precipitationMm, 4)
    }

    func testBaseSlotIsGoodWithNoReasons() {
        let assessment = SprayAdvisor.report(slots: [slot(0)], rules: flat).slots[0]
        XCTAssertEqual(assessment.verdict, .good)
        XCTAssertEqual(assessment.reasons, [])
        XCTAssertEqual(assessment.findings.map(\.rule), SprayRule.allCases)
        XCTAssertEqual(assessment.boomWindKmh, 10)
        let deltaT = try? XCTUnwrap(assessment.deltaT)
        // Stull's fit is within about 1 °C of the tables.
        XCTAssertEqual(deltaT ?? 0, 3.8, accuracy: 1.0)
    }

    func testSlotWindAtEachBoundary() {
        XCTAssertEqual(verdict(slot(0, wind: 2.9)), .avoid)
        XCTAssertEqual(verdict(slot(0, wind: 3.0)), .good)
        XCTAssertEqual(verdict(slot(0, wind: 15.0)), .good)
        XCTAssertEqual(verdict(slot(0, wind: 15.1)), .marginal)
        XCTAssertEqual(verdict(slot(0, wind: 20.0)), .marginal)
        XCTAssertEqual(verdict(slot(0, wind: 20.1)), .avoid)
    }

    func testForecastWindIsReducedToBoomHeight() {
        // 10 m wind 18 km/h (5 m/s) would be marginal; at 1 m over grass it is
        // 18 × 0.6036 = 10.9 km/h: good.
        let assessment = SprayAdvisor.report(slots: [slot(0, wind: 18)]).slots[0]
        XCTAssertEqual(assessment.boomWindKmh, 10.9)
        XCTAssertEqual(assessment.verdict, .good)
        XCTAssertEqual(verdict(slot(0, wind: 18)), .marginal, "with factor 1 the same wind is marginal")
    }

    func testSlotGustAtEachBoundary() {
        XCTAssertEqual(verdict(slot(0, gust: 20.0)), .good)
        XCTAssertEqual(verdict(slot(0, gust: 20.1)), .marginal)
        XCTAssertEqual(verdict(slot(0, gust: 30.0)), .marginal)
        XCTAssertEqual(verdict(slot(0, gust: 30.1)), .avoid)
    }

    func testSlotTemperatureAtEachBoundary() {
        // Humidity 70 % keeps Delta-T inside 2...8 at every one of these temperatures
        // (about 2.9 at 8 °C, 4.3 at 28 °C), so only the temperature rule speaks.
        XCTAssertEqual(verdict(slot(0, temp: 1.9, rh: 90)), .avoid)
        XCTAssertEqual(verdict(slot(0, temp: 7.9, rh: 70)), .marginal)
        XCTAssertEqual(verdict(slot(0, temp: 8.0, rh: 70)), .good)
        XCTAssertEqual(verdict(slot(0, temp: 25.0, rh: 70)), .good)
        XCTAssertEqual(verdict(slot(0, temp: 25.1, rh: 70)), .marginal)
        XCTAssertEqual(verdict(slot(0, temp: 28.0, rh: 70)), .marginal)
        XCTAssertEqual(verdict(slot(0, temp: 28.1, rh: 70)), .avoid)
    }

    func testSlotNegativeTemperatureAvoid() {
        let assessment = SprayAdvisor.report(slots: [slot(0, temp: -1.4, rh: 99)], rules: flat).slots[0]
        XCTAssertEqual(assessment.verdict, .avoid)
        XCTAssertTrue(assessment.reasons.contains { $0.rule == .temperature && $0.value == -1.4 })
        XCTAssertTrue(assessment.reasons.contains { $0.rule == .deltaT }, "near-saturated air: Delta-T below 2")
    }

    func testSlotDryAirFlagsHumidityAndDeltaT() {
        // 24 °C (a good temperature), 20 %: Delta-T about 12 -> avoid; humidity 20 < 30 -> avoid.
        let assessment = SprayAdvisor.report(slots: [slot(0, temp: 24, rh: 20)], rules: flat).slots[0]
        XCTAssertEqual(assessment.verdict, .avoid)
        XCTAssertEqual(Set(assessment.reasons.map(\.rule)), [.humidity, .deltaT])
    }

    func testRainInTheSlotItself() {
        XCTAssertEqual(verdict(slot(0, rain: 0.09)), .good)
        XCTAssertEqual(verdict(slot(0, rain: 0.1)), .marginal)
        XCTAssertEqual(verdict(slot(0, rain: 1.0)), .avoid)
    }

    func testRainInTheFollowingSlotCountsForTheRainfastPeriod() {
        // Next slot: 1.5 mm over 3 h. With 2 h rain-fast, 2/3 of it falls inside: 1.0 mm -> avoid.
        let slots = [slot(0), slot(1, rain: 1.5)]
        let twoHours = SprayAdvisor.report(slots: slots, rules: flat, rainfastHours: 2)
        XCTAssertEqual(twoHours.slots[0].rainInRainfastPeriodMm, 1.0)
        XCTAssertEqual(twoHours.slots[0].verdict, .avoid)
        XCTAssertFalse(twoHours.rainfastIsDefault)
        // 1 h: 0.5 mm -> marginal.
        let oneHour = SprayAdvisor.report(slots: slots, rules: flat, rainfastHours: 1)
        XCTAssertEqual(oneHour.slots[0].rainInRainfastPeriodMm, 0.5)
        XCTAssertEqual(oneHour.slots[0].verdict, .marginal)
        // A product that is rain-fast at once: the next slot's rain does not matter.
        XCTAssertEqual(SprayAdvisor.report(slots: slots, rules: flat, rainfastHours: 0).slots[0].verdict, .good)
    }

    func testDefaultRainfastPeriodWhenTheProductHasNone() {
        // Default 2 h, as above: 1.2 mm next slot -> 0.8 mm -> marginal.
        let report = SprayAdvisor.report(slots: [slot(0), slot(1, rain: 1.2)], rules: flat)
        XCTAssertEqual(report.rainfastHours, 2)
        XCTAssertTrue(report.rainfastIsDefault)
        XCTAssertEqual(report.slots[0].rainInRainfastPeriodMm, 0.8)
        XCTAssertEqual(report.slots[0].verdict, .marginal)
    }

    func testLongRainfastPeriodReachesTwoSlotsAhead() {
        // 6 h after the slot covers the next two slots fully: 0.3 + 0.4 = 0.7 mm, the third not at all.
        let slots = [slot(0), slot(1, rain: 0.3), slot(2, rain: 0.4), slot(3, rain: 5)]
        let report = SprayAdvisor.report(slots: slots, rules: flat, rainfastHours: 6)
        XCTAssertEqual(report.slots[0].rainInRainfastPeriodMm, 0.7)
        XCTAssertEqual(report.slots[0].verdict, .marginal)
    }

    func testProbabilityOfPrecipitationAheadCounts() {
        let slots = [slot(0, pop: 0.1), slot(1, pop: 0.6)]
        let report = SprayAdvisor.report(slots: slots, rules: flat, rainfastHours: 2)
        XCTAssertEqual(report.slots[0].precipitationProbabilityInRainfastPeriod, 0.6)
        XCTAssertEqual(report.slots[0].verdict, .avoid)
        XCTAssertEqual(verdict(slot(0, pop: 0.3)), .marginal)
        XCTAssertEqual(verdict(slot(0, pop: 0.29)), .good)
    }

    func testNightSlots() {
        // Clear night, light wind (10 km/h at 10 m): inversion likely -> avoid.
        XCTAssertEqual(verdict(slot(0, cloud: 10, night: true)), .avoid)
        // Cloudy night, same wind: marginal.
        XCTAssertEqual(verdict(slot(0, cloud: 90, night: true)), .marginal)
        // Windy night (12 km/h >= 11): marginal only.
        XCTAssertEqual(verdict(slot(0, wind: 12, cloud: 10, night: true)), .marginal)
    }

    func testWorstFindingWinsAndAllReasonsAreKept() {
        let assessment = SprayAdvisor.report(slots: [slot(0, wind: 16, temp: 29, rh: 70)], rules: flat).slots[0]
        XCTAssertEqual(assessment.verdict, .avoid)
        let reasons = Dictionary(uniqueKeysWithValues: assessment.reasons.map { ($0.rule, $0.verdict) })
        XCTAssertEqual(reasons[.wind], .marginal)
        XCTAssertEqual(reasons[.temperature], .avoid)
    }

    func testMissingValuesAreNotCalledGood() {
        let unknown = SpraySlot(start: t0, temperatureC: nil, humidity: nil, wind10m: nil)
        let assessment = SprayAdvisor.report(slots: [unknown], rules: flat).slots[0]
        XCTAssertEqual(assessment.verdict, .marginal)
        XCTAssertEqual(Set(assessment.reasons.map(\.rule)), [.wind, .temperature, .humidity, .deltaT])
    }

    func testWindowsLongestGoodFirstThenMarginal() {
        // Hours from t0:   0  3  6  9 12 15 18 21 24
        // Verdicts:        G  G  A  G  G  G  M  M  G
        let slots = [
            slot(0), slot(1), slot(2, wind: 25), slot(3), slot(4), slot(5),
            slot(6, gust: 25), slot(7, gust: 25), slot(8),
        ]
        let report = SprayAdvisor.report(slots: slots, rules: flat)
        XCTAssertEqual(report.slots.map(\.verdict), [.good, .good, .avoid, .good, .good, .good, .marginal, .marginal, .good])
        let hours = report.windows.map { window in
            (window.verdict, Int(window.start.timeIntervalSince(t0) / 3600), Int(window.end.timeIntervalSince(t0) / 3600))
        }
        XCTAssertEqual(hours.map(\.0), [.good, .good, .good, .marginal])
        XCTAssertEqual(hours.map(\.1), [9, 0, 24, 18])
        XCTAssertEqual(hours.map(\.2), [18, 6, 27, 24])
        XCTAssertEqual(report.windows.map(\.slotCount), [3, 2, 1, 2])
    }

    func testGapInTimeSplitsAWindow() {
        // Slots 0 and 2 are good but slot 1 is missing from the forecast.
        let report = SprayAdvisor.report(slots: [slot(0), slot(2)], rules: flat)
        XCTAssertEqual(report.windows.count, 2)
        XCTAssertEqual(report.windows.map(\.slotCount), [1, 1])
    }

    func testSlotsAreSortedByTime() {
        let report = SprayAdvisor.report(slots: [slot(1), slot(0, wind: 25)], rules: flat)
        XCTAssertEqual(report.slots.map(\.slot.start), [t0, t0.addingTimeInterval(3 * 3600)])
        XCTAssertEqual(report.slots.map(\.verdict), [.avoid, .good])
    }

    // MARK: - From forecasts

    func testInversionPeriodFromSunTimes() {
        // Sunrise 06:00 UTC, sunset 18:00 UTC: period 16:00 (2 h before) to 07:00 (1 h after).
        let midnight = 1_785_542_400  // 2026-08-01 00:00 UTC
        let rules = SprayRules()
        func period(_ startHour: Double) -> Bool {
            SpraySlot.inversionPeriod(
                start: Date(timeIntervalSince1970: Double(midnight) + startHour * 3600), duration: 3 * 3600,
                sunrise: midnight + 6 * 3600, sunset: midnight + 18 * 3600, partOfDay: "d", rules: rules)
        }
        XCTAssertFalse(period(12), "12-15 is daytime")
        XCTAssertTrue(period(15), "15-18 reaches into 16:00")
        XCTAssertTrue(period(21))
        XCTAssertTrue(period(0))
        XCTAssertTrue(period(6), "06-09 starts inside, until 07:00")
        XCTAssertFalse(period(7.25), "07:15-10:15 is after the period")
        XCTAssertFalse(period(9))
        XCTAssertTrue(period(24 + 21), "the next day repeats the clock times")
        // Without sun times the part of day decides.
        XCTAssertTrue(
            SpraySlot.inversionPeriod(start: t0, duration: 10800, sunrise: nil, sunset: nil, partOfDay: "n", rules: rules))
        XCTAssertFalse(
            SpraySlot.inversionPeriod(start: t0, duration: 10800, sunrise: nil, sunset: nil, partOfDay: "d", rules: rules))
    }

    func testSlotsFromImperialForecastAreConverted() {
        let forecast = Forecast(list: [
            ForecastSlot(
                dt: 1_785_564_000, main: MainReadings(temp: 50, humidity: 60), clouds: Clouds(all: 20),
                wind: Wind(speed: 10, deg: 90, gust: 20), pop: 0.4,
                rain: Precipitation(threeHours: 0.5), snow: Precipitation(threeHours: 0.25), sys: ForecastSys(pod: "d")),
            ForecastSlot(
                dt: 1_785_574_800, main: MainReadings(temp: 32), pop: 0.7, rain: Precipitation(threeHours: 1.25),
                sys: ForecastSys(pod: "n")),
        ])
        let slots = SpraySlot.slots(from: forecast, units: .imperial)
        XCTAssertEqual(slots.count, 2)
        XCTAssertEqual(slots[0].temperatureC ?? .nan, 10, accuracy: 1e-9)  // 50 °F
        XCTAssertEqual(slots[1].temperatureC ?? .nan, 0, accuracy: 1e-9)  // 32 °F
        XCTAssertEqual(slots[0].wind10m ?? .nan, 4.4704, accuracy: 1e-9)  // 10 mph
        XCTAssertEqual(slots[0].gust10m ?? .nan, 8.9408, accuracy: 1e-9)
        // rain.3h is the volume of the 3 h before dt: the first item's 0.5 + 0.25 fell before the
        // first slot; the second item's 1.25 fell during it. The last slot keeps its own value.
        XCTAssertEqual(slots[0].precipitationMm, 1.25, accuracy: 1e-9)
        XCTAssertEqual(slots[1].precipitationMm, 1.25, accuracy: 1e-9)
        XCTAssertEqual(slots[0].precipitationProbability, 0.7, "the higher pop of the two items")
        XCTAssertEqual(slots[1].precipitationProbability, 0.7)
        XCTAssertEqual(slots[0].duration, 3 * 3600)
        XCTAssertEqual(slots[1].duration, 3 * 3600, "the last slot takes its predecessor's spacing")
        XCTAssertFalse(slots[0].inversionPeriod)
        XCTAssertTrue(slots[1].inversionPeriod)
        XCTAssertNil(slots[1].humidity)
    }

    func testReportOnRecordedSubzeroForecast() throws {
        let name = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"
        let json = try Fixtures.object(name)
        let list = try XCTUnwrap(json["list"] as? [[String: Any]])
        let forecast = try JSONDecoder().decode(Forecast.self, from: Fixtures.data(name))
        let report = SprayAdvisor.report(slots: SpraySlot.slots(from: forecast, units: .metric))
        XCTAssertEqual(report.slots.count, list.count)
        for (index, entry) in list.enumerated() {
            let temp = try XCTUnwrap(number(dig(entry, "main", "temp")))
            // Below 2 °C is avoid whatever else the slot holds.
            if (temp * 10).rounded() / 10 < 2 {
                XCTAssertEqual(report.slots[index].verdict, .avoid, "slot \(index) at \(temp) °C")
            }
            // Rain and snow of the slot are those of the next entry ("last 3 hours"), the last
            // slot's its own.
            let source = index + 1 < list.count ? list[index + 1] : entry
            let snow = number(dig(source, "snow", "3h")) ?? 0
            let rain = number(dig(source, "rain", "3h")) ?? 0
            XCTAssertEqual(report.slots[index].slot.precipitationMm, rain + snow, accuracy: 1e-9, "slot \(index)")
        }
        // Windows never contain an avoid slot.
        for window in report.windows {
            XCTAssertNotEqual(window.verdict, .avoid)
            let inside = report.slots.filter { $0.slot.start >= window.start && $0.slot.end <= window.end }
            XCTAssertEqual(inside.count, window.slotCount)
            XCTAssertTrue(inside.allSatisfy { $0.verdict == window.verdict })
        }
    }
}
