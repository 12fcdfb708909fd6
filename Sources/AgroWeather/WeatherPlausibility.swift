import Foundation

/// An answer whose values can be checked against `WeatherPlausibility`'s ranges.
public protocol PlausibleAnswer: Sendable {
    /// The first field outside its range ("timezone 57600"), nil when every field is in range.
    var implausibility: String? { get }
}

extension CurrentWeather: PlausibleAnswer {
    /// See `WeatherPlausibility.problem(in:)`.
    public var implausibility: String? { WeatherPlausibility.problem(in: self) }
}

extension Forecast: PlausibleAnswer {
    /// See `WeatherPlausibility.problem(in:)`.
    public var implausibility: String? { WeatherPlausibility.problem(in: self) }
}

/// The ranges an OpenWeatherMap answer must keep before anything formats or computes with it.
///
/// An answer is hostile input: a UTC offset of 16 hours traps `DateFormatter`, a time stamp of
/// `Int.max` overflows date arithmetic, and 1e300 mm of rain or a NaN spreads through the spray
/// rules. The bounds are physical or calendar limits with a margin, in any of the three unit
/// systems (kelvin, °C and °F share one temperature range), so no real answer is refused.
public enum WeatherPlausibility {
    /// UTC offsets in use run from -12 h to +14 h.
    public static let offsetSeconds: ClosedRange<Int> = -12 * 3600...14 * 3600
    /// Unix times from 2000 to 2200: an answer about another century is not weather.
    public static let unixTime: ClosedRange<Int> = 946_684_800...7_258_118_400
    static let temperature: ClosedRange<Double> = -150...400
    static let speed: ClosedRange<Double> = 0...250
    static let degrees: ClosedRange<Double> = 0...360
    static let percent: ClosedRange<Double> = 0...100
    /// Relative humidity above 100 % occurs in recorded answers (101 % in a London forecast).
    static let humidity: ClosedRange<Double> = 0...150
    static let pressure: ClosedRange<Double> = 0...2000
    static let precipitation: ClosedRange<Double> = 0...2000
    static let visibility: ClosedRange<Double> = 0...1_000_000
    static let probability: ClosedRange<Double> = 0...1
    static let latitude: ClosedRange<Double> = -90...90
    static let longitude: ClosedRange<Double> = -180...180
    /// OpenWeatherMap's five days in 3-hour slots are 40; more is not its answer.
    static let maxSlots = 100

    /// The time zone of a UTC offset in seconds; UTC for nil or an offset outside `offsetSeconds`,
    /// which Foundation's formatters do not survive (an answer is checked before it gets here;
    /// this keeps a formatter safe from any other caller).
    public static func timeZone(offset: Int?) -> TimeZone {
        guard let offset, offsetSeconds.contains(offset), let zone = TimeZone(secondsFromGMT: offset) else {
            return TimeZone(secondsFromGMT: 0) ?? TimeZone.gmt
        }
        return zone
    }

    /// The first field of `answer` outside its range ("timezone 57600"), nil when all are in range.
    public static func problem(in answer: CurrentWeather) -> String? {
        var check = Check()
        check.coordinates(answer.coord)
        check.readings(answer.main)
        check.range("visibility", answer.visibility, visibility)
        check.wind(answer.wind)
        check.range("clouds.all", answer.clouds?.all, percent)
        check.precipitation("rain", answer.rain)
        check.precipitation("snow", answer.snow)
        check.time("dt", answer.dt)
        check.sunTime("sys.sunrise", answer.sys?.sunrise)
        check.sunTime("sys.sunset", answer.sys?.sunset)
        check.offset("timezone", answer.timezone)
        return check.problem
    }

    /// The first field of `answer` outside its range ("list[3].dt -1"), nil when all are in range.
    public static func problem(in answer: Forecast) -> String? {
        var check = Check()
        if answer.list.count > maxSlots { return "list holds \(answer.list.count) slots" }
        if let city = answer.city {
            check.coordinates(city.coord)
            check.offset("city.timezone", city.timezone)
            check.sunTime("city.sunrise", city.sunrise)
            check.sunTime("city.sunset", city.sunset)
        }
        for (index, slot) in answer.list.enumerated() where check.problem == nil {
            check.prefix = "list[\(index)]."
            check.time("dt", slot.dt)
            check.readings(slot.main)
            check.wind(slot.wind)
            check.range("visibility", slot.visibility, visibility)
            check.range("pop", slot.pop, probability)
            check.range("clouds.all", slot.clouds?.all, percent)
            check.precipitation("rain", slot.rain)
            check.precipitation("snow", slot.snow)
        }
        return check.problem
    }

    /// Keeps the first value out of range; NaN and infinities are out of every range.
    private struct Check {
        var problem: String?
        var prefix = ""

        mutating func range(_ name: String, _ value: Double?, _ bounds: ClosedRange<Double>) {
            guard problem == nil, let value, !(value.isFinite && bounds.contains(value)) else { return }
            problem = "\(prefix)\(name) \(value)"
        }

        mutating func time(_ name: String, _ value: Int?) {
            guard problem == nil, let value, !WeatherPlausibility.unixTime.contains(value) else { return }
            problem = "\(prefix)\(name) \(value)"
        }

        /// 0 is how OpenWeatherMap says the sun neither rises nor sets (polar day and night).
        mutating func sunTime(_ name: String, _ value: Int?) {
            if value != 0 { time(name, value) }
        }

        mutating func offset(_ name: String, _ value: Int?) {
            guard problem == nil, let value, !WeatherPlausibility.offsetSeconds.contains(value) else { return }
            problem = "\(prefix)\(name) \(value)"
        }

        mutating func coordinates(_ coordinates: WeatherCoordinates?) {
            range("coord.lat", coordinates?.lat, WeatherPlausibility.latitude)
            range("coord.lon", coordinates?.lon, WeatherPlausibility.longitude)
        }

        mutating func readings(_ main: MainReadings?) {
            guard let main else { return }
            for (name, value) in [
                ("main.temp", main.temp), ("main.feels_like", main.feelsLike), ("main.temp_min", main.tempMin),
                ("main.temp_max", main.tempMax), ("main.dew_point", main.dewPoint),
            ] {
                range(name, value, WeatherPlausibility.temperature)
            }
            range("main.humidity", main.humidity, WeatherPlausibility.humidity)
            range("main.pressure", main.pressure, WeatherPlausibility.pressure)
            range("main.sea_level", main.seaLevel, WeatherPlausibility.pressure)
            range("main.grnd_level", main.groundLevel, WeatherPlausibility.pressure)
        }

        mutating func wind(_ wind: Wind?) {
            range("wind.speed", wind?.speed, WeatherPlausibility.speed)
            range("wind.gust", wind?.gust, WeatherPlausibility.speed)
            range("wind.deg", wind?.deg, WeatherPlausibility.degrees)
        }

        mutating func precipitation(_ name: String, _ value: Precipitation?) {
            range(name + ".1h", value?.oneHour, WeatherPlausibility.precipitation)
            range(name + ".3h", value?.threeHours, WeatherPlausibility.precipitation)
        }
    }
}
