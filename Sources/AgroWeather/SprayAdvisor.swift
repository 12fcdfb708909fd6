import AgroDomain
import Foundation

// The rules: how slots are made from a forecast and judged. The types they produce are in
// SprayAdvice.swift.

extension SpraySlot {
    /// The forecast's slots converted to °C and m/s, with the inversion period marked.
    ///
    /// A slot runs from an item's dt to the next item's; temperature, humidity, wind and cloud
    /// are the item's (values at dt), precipitation is the next item's "last 3 hours" volume.
    ///
    /// The inversion period comes from the city's sunrise and sunset (taken as the same clock
    /// times on the following days, a few minutes' error over 5 days); without them, from
    /// OpenWeatherMap's part of day ("n").
    public static func slots(from forecast: Forecast, units: WeatherUnits, rules: SprayRules = SprayRules()) -> [SpraySlot] {
        let sorted = forecast.list.sorted { $0.dt < $1.dt }
        return sorted.enumerated().map { index, item in
            let start = item.date
            // The forecast's own spacing (3 h); the last slot takes its predecessor's.
            var duration: TimeInterval = 3 * 3600
            if index + 1 < sorted.count {
                duration = TimeInterval(sorted[index + 1].dt - item.dt)
            } else if index > 0 {
                duration = TimeInterval(item.dt - sorted[index - 1].dt)
            }
            if duration <= 0 { duration = 3 * 3600 }
            // OpenWeatherMap gives rain.3h and snow.3h as the volume of the 3 hours *before* dt,
            // so what falls in [dt, next dt) is in the next item. The last slot has no next item
            // and keeps its own value (persistence), better than assuming dry.
            let next = index + 1 < sorted.count ? sorted[index + 1] : item
            let rain = next.rain?.threeHours ?? next.rain?.oneHour ?? 0
            let snow = next.snow?.threeHours ?? next.snow?.oneHour ?? 0
            // pop has no stated period; the higher of the two items is the cautious reading.
            let pop = [item.pop, next.pop].compactMap { $0 }.max()
            let inversion = inversionPeriod(
                start: start, duration: duration, sunrise: forecast.city?.sunrise, sunset: forecast.city?.sunset,
                partOfDay: item.sys?.pod, rules: rules)
            return SpraySlot(
                start: start, duration: duration,
                temperatureC: item.main?.temp.map(units.celsius),
                humidity: item.main?.humidity,
                wind10m: item.wind?.speed.map(units.metresPerSecond),
                gust10m: item.wind?.gust.map(units.metresPerSecond),
                precipitationMm: rain + snow,
                precipitationProbability: pop,
                cloudPercent: item.clouds?.all,
                inversionPeriod: inversion, snowMm: snow > 0 ? snow : nil)
        }
    }

    /// Whether [start, start+duration) overlaps [sunset - before, sunrise + after] on any day.
    static func inversionPeriod(
        start: Date, duration: TimeInterval, sunrise: Int?, sunset: Int?, partOfDay: String?, rules: SprayRules
    ) -> Bool {
        guard let sunrise, let sunset, sunrise != sunset else { return partOfDay == "n" }
        let day = 86400.0
        func clock(_ t: Double) -> Double { (t.truncatingRemainder(dividingBy: day) + day).truncatingRemainder(dividingBy: day) }
        let from = clock(Double(sunset) - rules.inversionHoursBeforeSunset * 3600)
        let to = clock(Double(sunrise) + rules.inversionHoursAfterSunrise * 3600)
        func inside(_ t: Double) -> Bool {
            let c = clock(t)
            return from <= to ? (c >= from && c <= to) : (c >= from || c <= to)
        }
        // Sampling every 15 minutes is finer than any threshold here and avoids interval algebra
        // around midnight.
        var t = start.timeIntervalSince1970
        let end = t + duration
        while t < end {
            if inside(t) { return true }
            t += 900
        }
        return false
    }
}

/// Applies `SprayRules` to slots. Pure: same slots and rules, same report.
///
///     let forecast = try JSONDecoder().decode(Forecast.self, from: openWeatherMapAnswer)
///     let report = SprayAdvisor.report(forecast: forecast, units: .metric, rainfastHours: 2)
///     for window in report.windows where window.verdict == .good { print(window.start, window.end) }
public enum SprayAdvisor {
    /// Judges every slot and merges the windows.
    /// - Parameter rainfastHours: the product's rain-fast period; nil uses the rules' default.
    public static func report(slots: [SpraySlot], rules: SprayRules = SprayRules(), rainfastHours: Double? = nil) -> SprayReport {
        let sorted = slots.sorted { $0.start < $1.start }
        let rainfast = max(0, rainfastHours ?? rules.defaultRainfastHours)
        let assessments = sorted.indices.map { assess(slotAt: $0, of: sorted, rules: rules, rainfastHours: rainfast) }
        return SprayReport(
            rules: rules, rainfastHours: rainfast, rainfastIsDefault: rainfastHours == nil,
            slots: assessments, windows: windows(assessments))
    }

    /// Judges the slot at `index`; the slots after it matter for rain in the rain-fast period.
    public static func assess(slotAt index: Int, of slots: [SpraySlot], rules: SprayRules, rainfastHours: Double)
        -> SlotAssessment
    {
        let slot = slots[index]
        let factor = rules.windHeightFactor
        let boomWind = slot.wind10m.map { round1($0 * factor * 3.6) }
        let boomGust = slot.gust10m.map { round1($0 * factor * 3.6) }
        let deltaT: Double? = {
            guard let t = slot.temperatureC, let rh = slot.humidity else { return nil }
            return round1(Psychrometrics.deltaT(temperature: t, humidity: rh))
        }()
        // Spraying may happen until the end of the slot, so the deposit must stay dry from the
        // slot's start to its end plus the rain-fast period. Later slots count for the part of
        // them inside that period, assuming their rain falls evenly.
        let dryUntil = slot.end.addingTimeInterval(rainfastHours * 3600)
        var rain = slot.precipitationMm, snow = slot.snowMm ?? 0
        var pop = slot.precipitationProbability
        for later in slots[(index + 1)...] where later.start < dryUntil && later.end > slot.end {
            let overlap = min(later.end, dryUntil).timeIntervalSince(max(later.start, slot.end))
            guard overlap > 0, later.duration > 0 else { continue }
            rain += later.precipitationMm * overlap / later.duration
            snow += (later.snowMm ?? 0) * overlap / later.duration
            if let p = later.precipitationProbability { pop = max(pop ?? 0, p) }
        }
        let findings = [
            windFinding(boomWind, rules),
            gustFinding(boomGust, rules),
            rainFinding(round2(rain), snowMm: round2(snow), rainfastHours: rainfastHours, rules),
            precipitationProbabilityFinding(pop.map(round2), rules),
            temperatureFinding(slot.temperatureC.map(round1), rules),
            humidityFinding(slot.humidity.map(round1), rules),
            deltaTFinding(deltaT, rules),
            inversionFinding(
                inPeriod: slot.inversionPeriod, wind10mKmh: slot.wind10m.map { round1($0 * 3.6) },
                cloudPercent: slot.cloudPercent.map(round1), rules),
        ]
        return SlotAssessment(
            slot: slot, verdict: findings.map(\.verdict).max() ?? .good, findings: findings,
            boomWindKmh: boomWind, boomGustKmh: boomGust, deltaT: deltaT,
            rainInRainfastPeriodMm: round2(rain), precipitationProbabilityInRainfastPeriod: pop.map(round2))
    }

    /// Runs of consecutive good slots and of consecutive marginal slots (a gap in time breaks a
    /// run); good ones first, each group longest first, then earliest first.
    public static func windows(_ assessments: [SlotAssessment]) -> [SprayWindow] {
        var runs: [SprayWindow] = []
        for assessment in assessments where assessment.verdict != .avoid {
            if var last = runs.last, last.verdict == assessment.verdict, last.end == assessment.slot.start {
                last.end = assessment.slot.end
                last.slotCount += 1
                runs[runs.count - 1] = last
            } else {
                runs.append(
                    SprayWindow(verdict: assessment.verdict, start: assessment.slot.start, end: assessment.slot.end, slotCount: 1)
                )
            }
        }
        // Avoid slots are skipped above, so two good runs around one can sit side by side in
        // `runs`; the time check (last.end == start) is what keeps them apart.
        return runs.sorted { a, b in
            if a.verdict != b.verdict { return a.verdict < b.verdict }
            if a.duration != b.duration { return a.duration > b.duration }
            return a.start < b.start
        }
    }

    // MARK: - Rules, one value each

    /// Mean wind at boom height, km/h.
    public static func windFinding(_ kmh: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = kmh else { return missing(.wind, "km/h", "no wind in the forecast") }
        return band(
            .wind, v, unit: "km/h", label: "wind \(f(v)) km/h",
            avoidBelow: rules.windCalmBelowKmh, good: rules.windGoodMaxKmh, marginal: rules.windMarginalMaxKmh,
            tooLow: "too calm, drift hangs, inversion likely",
            tooHigh: "coarse droplets, wider buffers", farTooHigh: "drift")
    }

    /// Gusts at boom height, km/h; none in the forecast counts as no gusts.
    public static func gustFinding(_ kmh: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = kmh else {
            return SprayFinding(rule: .gust, verdict: .good, value: nil, unit: "km/h", threshold: nil, text: "no gusts forecast")
        }
        let (verdict, limit) = atMost(v, good: rules.gustGoodMaxKmh, marginal: rules.gustMarginalMaxKmh)
        let text = verdict == .good ? "gusts \(f(v)) km/h" : "gusts \(f(v)) km/h above \(f(limit))"
        return SprayFinding(rule: .gust, verdict: verdict, value: v, unit: "km/h", threshold: limit, text: text)
    }

    /// Rain expected during the slot and the rain-fast period after it, mm.
    /// - Parameter snowMm: the part of `mm` falling as snow; when it is most of it, the words
    ///   say snow, not rain.
    public static func rainFinding(_ mm: Double, snowMm: Double = 0, rainfastHours: Double, _ rules: SprayRules)
        -> SprayFinding
    {
        let period = "within the slot and \(f(rainfastHours)) h rain-fast period"
        let (verdict, limit) = atLeast(mm, avoid: rules.rainAvoidMm, marginal: rules.rainMarginalMm)
        let isSnow = mm > 0 && snowMm * 2 > mm
        let word = isSnow ? "snow" : "rain"
        let text: String
        switch verdict {
        case .good: text = "no rain \(period)"
        case .marginal: text = "\(word) \(f2(mm)) mm \(period)"
        case .avoid: text = "\(word) \(f2(mm)) mm \(period), from \(f2(limit)) mm washes off"
        }
        var finding = SprayFinding(rule: .rain, verdict: verdict, value: mm, unit: "mm", threshold: limit, text: text)
        if isSnow && verdict != .good { finding.snow = true }
        return finding
    }

    /// Highest probability of precipitation over the slot and its rain-fast period, 0...1.
    public static func precipitationProbabilityFinding(_ pop: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = pop else {
            return SprayFinding(
                rule: .precipitationProbability, verdict: .good, value: nil, unit: "", threshold: nil,
                text: "no probability of precipitation given")
        }
        let (verdict, limit) = atLeast(
            v, avoid: rules.precipitationProbabilityAvoid, marginal: rules.precipitationProbabilityMarginal)
        var text = "chance of rain \(Int(saturating: (v * 100).rounded()))%"
        if verdict == .avoid { text += ", from \(Int(saturating: (limit * 100).rounded()))% avoid" }
        return SprayFinding(rule: .precipitationProbability, verdict: verdict, value: v, unit: "", threshold: limit, text: text)
    }

    /// Air temperature, °C.
    public static func temperatureFinding(_ celsius: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = celsius else { return missing(.temperature, "°C", "no temperature in the forecast") }
        let (low, lowLimit) = below(v, avoid: rules.temperatureLowAvoidC, marginal: rules.temperatureLowMarginalC)
        if low != .good {
            let why = low == .avoid ? "frost risk, no uptake" : "slow uptake"
            return SprayFinding(
                rule: .temperature, verdict: low, value: v, unit: "°C", threshold: lowLimit,
                text: "\(f(v)) °C below \(f(lowLimit)): \(why)")
        }
        if v > rules.temperatureHighAvoidC {
            return SprayFinding(
                rule: .temperature, verdict: .avoid, value: v, unit: "°C", threshold: rules.temperatureHighAvoidC,
                text: "\(f(v)) °C above \(f(rules.temperatureHighAvoidC))")
        }
        if v > rules.temperatureHighMarginalC {
            return SprayFinding(
                rule: .temperature, verdict: .marginal, value: v, unit: "°C", threshold: rules.temperatureHighMarginalC,
                text: "\(f(v)) °C above \(f(rules.temperatureHighMarginalC))")
        }
        return SprayFinding(rule: .temperature, verdict: .good, value: v, unit: "°C", threshold: nil, text: "\(f(v)) °C")
    }

    /// Relative humidity, %.
    public static func humidityFinding(_ percent: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = percent else { return missing(.humidity, "%", "no humidity in the forecast") }
        let (verdict, limit) = below(v, avoid: rules.humidityAvoidBelow, marginal: rules.humidityMarginalBelow)
        let text = verdict == .good ? "humidity \(f(v))%" : "humidity \(f(v))% below \(f(limit))%"
        return SprayFinding(rule: .humidity, verdict: verdict, value: v, unit: "%", threshold: limit, text: text)
    }

    /// Delta-T, °C.
    public static func deltaTFinding(_ deltaT: Double?, _ rules: SprayRules) -> SprayFinding {
        guard let v = deltaT else { return missing(.deltaT, "°C", "no Delta-T (temperature or humidity missing)") }
        return band(
            .deltaT, v, unit: "°C", label: "Delta-T \(f(v))",
            avoidBelow: rules.deltaTLowAvoidBelowC, good: rules.deltaTGoodMaxC, marginal: rules.deltaTMarginalMaxC,
            tooLow: "droplets linger and drift",
            tooHigh: "fast evaporation, use coarser droplets", farTooHigh: "droplets evaporate")
    }

    // The three ladders the findings share. Each gives the verdict and the limit that decided it
    // (for good, the nearest limit kept), so a finding only adds its own texts.

    /// Good up to `good`, marginal up to `marginal`, avoid above.
    private static func atMost(_ v: Double, good: Double, marginal: Double) -> (verdict: SprayVerdict, threshold: Double) {
        if v <= good { return (.good, good) }
        if v <= marginal { return (.marginal, good) }
        return (.avoid, marginal)
    }

    /// Avoid from `avoid` up, marginal from `marginal` up, good below.
    private static func atLeast(_ v: Double, avoid: Double, marginal: Double) -> (verdict: SprayVerdict, threshold: Double) {
        if v >= avoid { return (.avoid, avoid) }
        if v >= marginal { return (.marginal, marginal) }
        return (.good, marginal)
    }

    /// Avoid below `avoid`, marginal below `marginal`, good from there up.
    private static func below(_ v: Double, avoid: Double, marginal: Double) -> (verdict: SprayVerdict, threshold: Double) {
        if v < avoid { return (.avoid, avoid) }
        if v < marginal { return (.marginal, marginal) }
        return (.good, marginal)
    }

    /// A value with a good band: avoid below `avoidBelow`, then the `atMost` ladder (wind and
    /// Delta-T). `label` names the value; each reason follows the limit that was crossed.
    private static func band(
        _ rule: SprayRule, _ v: Double, unit: String, label: String, avoidBelow: Double, good: Double, marginal: Double,
        tooLow: String, tooHigh: String, farTooHigh: String
    ) -> SprayFinding {
        if v < avoidBelow {
            return SprayFinding(
                rule: rule, verdict: .avoid, value: v, unit: unit, threshold: avoidBelow,
                text: "\(label) below \(f(avoidBelow)): \(tooLow)")
        }
        let (verdict, limit) = atMost(v, good: good, marginal: marginal)
        let text: String
        switch verdict {
        case .good: text = label
        case .marginal: text = "\(label) above \(f(limit)): \(tooHigh)"
        case .avoid: text = "\(label) above \(f(limit)): \(farTooHigh)"
        }
        return SprayFinding(rule: rule, verdict: verdict, value: v, unit: unit, threshold: limit, text: text)
    }

    /// Night-time inversion risk from the period, 10 m wind (km/h) and cloud cover (%).
    public static func inversionFinding(inPeriod: Bool, wind10mKmh: Double?, cloudPercent: Double?, _ rules: SprayRules)
        -> SprayFinding
    {
        guard inPeriod else {
            return SprayFinding(
                rule: .inversion, verdict: .good, value: nil, unit: "", threshold: nil, text: "daytime, no inversion expected")
        }
        let light = wind10mKmh.map { $0 < rules.inversionLightWindBelowKmh } ?? true
        let clear = cloudPercent.map { $0 <= rules.inversionClearSkyMaxCloudPercent } ?? true
        if light && clear {
            return SprayFinding(
                rule: .inversion, verdict: .avoid, value: wind10mKmh, unit: "km/h", threshold: rules.inversionLightWindBelowKmh,
                text: "night, light wind and clear sky: surface inversion likely")
        }
        return SprayFinding(
            rule: .inversion, verdict: .marginal, value: wind10mKmh, unit: "km/h", threshold: rules.inversionLightWindBelowKmh,
            text: "night: surface inversions are common, check on site")
    }

    private static func missing(_ rule: SprayRule, _ unit: String, _ text: String) -> SprayFinding {
        // Unknown is not good: without the value the slot cannot be called safe.
        SprayFinding(rule: rule, verdict: .marginal, value: nil, unit: unit, threshold: nil, text: text)
    }

    static func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    static func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
    /// Whole numbers without ".0"; plainText, because a server may send 1e300, which Int() traps on.
    static func f(_ v: Double) -> String { v == v.rounded() ? v.plainText : String(format: "%.1f", v) }
    /// Up to two decimals, trailing zeros dropped: 0.25, 1.5, 2.
    static func f2(_ v: Double) -> String { trimmedDecimal(v, places: 2) }
}
