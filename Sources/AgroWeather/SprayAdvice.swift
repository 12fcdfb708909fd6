import Foundation

/// How suitable a time is for spraying. Ordered: good < marginal < avoid.
public enum SprayVerdict: String, Sendable, Codable, Hashable, Comparable, CaseIterable {
    case good, marginal, avoid

    private var rank: Int {
        switch self {
        case .good: return 0
        case .marginal: return 1
        case .avoid: return 2
        }
    }

    /// Good before marginal before avoid.
    public static func < (a: SprayVerdict, b: SprayVerdict) -> Bool { a.rank < b.rank }
}

/// The checks a slot goes through.
public enum SprayRule: String, Sendable, Codable, Hashable, CaseIterable {
    /// Mean wind at boom height.
    case wind
    /// Gusts at boom height.
    case gust
    /// Rain or snow expected during the slot and the rain-fast period after it.
    case rain
    /// Probability of precipitation over the same period.
    case precipitationProbability
    case temperature
    case humidity
    /// Dry bulb minus wet bulb temperature.
    case deltaT
    /// Night-time surface temperature inversion.
    case inversion
}

/// One rule's judgement of one slot.
public struct SprayFinding: Sendable, Hashable, Codable {
    /// The rule that judged.
    public var rule: SprayRule
    /// Its verdict on the slot.
    public var verdict: SprayVerdict
    /// The value judged (rounded to one decimal), in `unit`; nil when the forecast lacks it.
    public var value: Double?
    /// The unit of `value` and `threshold` ("km/h", "°C", "mm", "%").
    public var unit: String
    /// The limit that decided the verdict, in `unit` (for good: the nearest limit kept).
    public var threshold: Double?
    /// One short phrase for people, e.g. "wind 17.3 km/h above 15".
    public var text: String
    /// For the rain rule: true when most of the water falls as snow, which the words then say.
    public var snow: Bool?

    /// A finding of `rule` on one slot.
    public init(rule: SprayRule, verdict: SprayVerdict, value: Double?, unit: String, threshold: Double?, text: String) {
        self.rule = rule
        self.verdict = verdict
        self.value = value
        self.unit = unit
        self.threshold = threshold
        self.text = text
    }
}

/// The weather of one forecast slot in the units the rules use (°C, %, m/s, mm).
///
/// Hand-made slots are how the rules are tested; `SpraySlot.slots(from:units:rules:)` makes
/// them from a forecast.
public struct SpraySlot: Sendable, Hashable, Codable {
    /// When the slot begins.
    public var start: Date
    /// Seconds; 3 h in OpenWeatherMap's forecast.
    public var duration: TimeInterval
    /// Air temperature, °C.
    public var temperatureC: Double?
    /// Relative humidity, %.
    public var humidity: Double?
    /// Mean wind at 10 m, m/s.
    public var wind10m: Double?
    /// Gusts at 10 m, m/s.
    public var gust10m: Double?
    /// Rain plus snow (as water) in the slot, mm.
    public var precipitationMm: Double
    /// The part of `precipitationMm` that falls as snow, mm; nil when none does.
    public var snowMm: Double?
    /// Probability of precipitation, 0...1.
    public var precipitationProbability: Double?
    /// Cloud cover, %.
    public var cloudPercent: Double?
    /// Whether the slot touches the night-time inversion period (before sunset to after sunrise).
    public var inversionPeriod: Bool

    /// A slot with its readings, in metric units.
    public init(
        start: Date, duration: TimeInterval = 3 * 3600, temperatureC: Double?, humidity: Double?,
        wind10m: Double?, gust10m: Double? = nil, precipitationMm: Double = 0,
        precipitationProbability: Double? = nil, cloudPercent: Double? = nil, inversionPeriod: Bool = false,
        snowMm: Double? = nil
    ) {
        self.snowMm = snowMm
        self.start = start
        self.duration = duration
        self.temperatureC = temperatureC
        self.humidity = humidity
        self.wind10m = wind10m
        self.gust10m = gust10m
        self.precipitationMm = precipitationMm
        self.precipitationProbability = precipitationProbability
        self.cloudPercent = cloudPercent
        self.inversionPeriod = inversionPeriod
    }

    /// When the slot ends.
    public var end: Date { start.addingTimeInterval(duration) }
}

/// The verdict on one slot with everything that led to it.
public struct SlotAssessment: Sendable, Hashable, Codable {
    /// The slot judged.
    public var slot: SpraySlot
    /// The worst verdict of all findings.
    public var verdict: SprayVerdict
    /// Every rule's finding, in `SprayRule` order.
    public var findings: [SprayFinding]
    /// Wind and gusts at boom height, km/h.
    public var boomWindKmh: Double?
    /// Gusts at boom height, km/h.
    public var boomGustKmh: Double?
    /// Delta-T, °C.
    public var deltaT: Double?
    /// Rain expected during the slot and the rain-fast period after it, mm.
    public var rainInRainfastPeriodMm: Double
    /// Highest probability of precipitation over that period.
    public var precipitationProbabilityInRainfastPeriod: Double?

    /// The findings that are not good: why the verdict is what it is.
    public var reasons: [SprayFinding] { findings.filter { $0.verdict != .good } }
}

/// Consecutive slots with the same verdict.
public struct SprayWindow: Sendable, Hashable, Codable {
    /// The verdict shared by the window's slots.
    public var verdict: SprayVerdict
    /// Start of the first slot.
    public var start: Date
    /// End of the last slot.
    public var end: Date
    /// How many slots the window holds.
    public var slotCount: Int

    /// A window of `slotCount` slots with `verdict` from `start` to `end`.
    public init(verdict: SprayVerdict, start: Date, end: Date, slotCount: Int) {
        self.verdict = verdict
        self.start = start
        self.end = end
        self.slotCount = slotCount
    }

    /// Seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }
}

/// The spray advice for a forecast.
public struct SprayReport: Sendable, Hashable, Codable {
    /// The thresholds the slots were judged by.
    public var rules: SprayRules
    /// Rain-fast period used, hours.
    public var rainfastHours: Double
    /// Whether `rainfastHours` is the rules' default because the product gives none.
    public var rainfastIsDefault: Bool
    /// Every slot, in time order.
    public var slots: [SlotAssessment]
    /// Good windows, longest first, then marginal windows, longest first.
    public var windows: [SprayWindow]
}
