import AgroDomain
import Foundation

// The models mirror OpenWeatherMap's JSON (same nesting, same key names through CodingKeys), so
// encoding one gives back the raw values for --format json and for the cache. Every field is
// optional: real answers leave out gusts, visibility, rain, snow, feels_like and more, and
// absence is not an error.

/// Units OpenWeatherMap reports in.
public enum WeatherUnits: String, Sendable, Codable, CaseIterable, Hashable {
    /// Kelvin, m/s (OpenWeatherMap's default when no units are asked for).
    case standard
    /// °C, m/s.
    case metric
    /// °F, miles per hour.
    case imperial

    /// Symbol of a temperature in these units.
    public var temperatureSymbol: String {
        switch self {
        case .standard: return "K"
        case .metric: return "°C"
        case .imperial: return "°F"
        }
    }

    /// Symbol of a wind speed in these units.
    public var speedSymbol: String { self == .imperial ? "mph" : "m/s" }

    /// A temperature in these units, in degrees Celsius.
    public func celsius(_ value: Double) -> Double {
        switch self {
        case .standard: return value - 273.15
        case .metric: return value
        case .imperial: return (value - 32) * 5 / 9
        }
    }

    /// A wind speed in these units, in metres per second.
    public func metresPerSecond(_ value: Double) -> Double {
        self == .imperial ? value * 0.44704 : value
    }
}

/// A point as OpenWeatherMap writes it (`{"lon": .., "lat": ..}`).
public struct WeatherCoordinates: Sendable, Hashable, Codable {
    /// Longitude, degrees east.
    public var lon: Double?
    /// Latitude, degrees north.
    public var lat: Double?

    /// A point as OpenWeatherMap writes it.
    public init(lat: Double?, lon: Double?) {
        self.lat = lat
        self.lon = lon
    }

    /// As a domain point, when both numbers are present.
    public var coordinates: Coordinates? {
        guard let lat, let lon else { return nil }
        return Coordinates(latitude: lat, longitude: lon)
    }
}

/// One weather condition (`weather[]`): code, group, localized description, icon.
///
/// All fields are optional because malformed entries exist in the wild (`{"test":"fake"}`);
/// such an entry decodes with every field nil rather than failing the whole answer.
public struct WeatherCondition: Sendable, Hashable, Codable {
    /// Condition code (https://openweathermap.org/weather-conditions), e.g. 500 light rain.
    public var id: Int?
    /// Group, in English: "Rain", "Snow", "Clear", ...
    public var main: String?
    /// Description in the requested language.
    public var description: String?
    /// OpenWeatherMap's icon code ("10d").
    public var icon: String?

    /// A condition as OpenWeatherMap writes it.
    public init(id: Int? = nil, main: String? = nil, description: String? = nil, icon: String? = nil) {
        self.id = id
        self.main = main
        self.description = description
        self.icon = icon
    }
}

/// The `main` block: temperatures, pressure, humidity.
public struct MainReadings: Sendable, Hashable, Codable {
    /// Air temperature, in the request's units.
    public var temp: Double?
    /// Temperature as felt, in the request's units.
    public var feelsLike: Double?
    /// Lowest temperature seen in the area at this moment.
    public var tempMin: Double?
    /// Highest temperature seen in the area at this moment.
    public var tempMax: Double?
    /// hPa, at sea level when `seaLevel` is absent.
    public var pressure: Double?
    /// Relative humidity, %. Forecasts occasionally say 101.
    public var humidity: Double?
    /// Pressure at sea level, hPa.
    public var seaLevel: Double?
    /// Pressure at ground level, hPa.
    public var groundLevel: Double?
    /// Dew point (some forecast answers carry it).
    public var dewPoint: Double?

    enum CodingKeys: String, CodingKey {
        case temp, pressure, humidity
        case feelsLike = "feels_like"
        case tempMin = "temp_min"
        case tempMax = "temp_max"
        case seaLevel = "sea_level"
        case groundLevel = "grnd_level"
        case dewPoint = "dew_point"
    }

    /// Readings as OpenWeatherMap writes them.
    public init(
        temp: Double? = nil, feelsLike: Double? = nil, tempMin: Double? = nil, tempMax: Double? = nil,
        pressure: Double? = nil, humidity: Double? = nil, seaLevel: Double? = nil,
        groundLevel: Double? = nil, dewPoint: Double? = nil
    ) {
        self.temp = temp
        self.feelsLike = feelsLike
        self.tempMin = tempMin
        self.tempMax = tempMax
        self.pressure = pressure
        self.humidity = humidity
        self.seaLevel = seaLevel
        self.groundLevel = groundLevel
        self.dewPoint = dewPoint
    }
}

/// Wind at 10 m above ground, as weather services report it.
public struct Wind: Sendable, Hashable, Codable {
    /// Mean speed (m/s, or mph in imperial units).
    public var speed: Double?
    /// Direction the wind comes from, degrees clockwise from north.
    public var deg: Double?
    /// Gusts, when the answer has them.
    public var gust: Double?

    /// Wind as OpenWeatherMap writes it.
    public init(speed: Double? = nil, deg: Double? = nil, gust: Double? = nil) {
        self.speed = speed
        self.deg = deg
        self.gust = gust
    }
}

/// Rain or snow volume in millimetres (`{"1h": ..}` in current weather, `{"3h": ..}` in forecasts).
public struct Precipitation: Sendable, Hashable, Codable {
    /// Precipitation over the last hour, mm.
    public var oneHour: Double?
    /// Precipitation over the last 3 hours (forecast: the slot's 3 hours), mm.
    public var threeHours: Double?

    enum CodingKeys: String, CodingKey {
        case oneHour = "1h"
        case threeHours = "3h"
    }

    /// Precipitation as OpenWeatherMap writes it.
    public init(oneHour: Double? = nil, threeHours: Double? = nil) {
        self.oneHour = oneHour
        self.threeHours = threeHours
    }
}

/// Cloudiness, %.
public struct Clouds: Sendable, Hashable, Codable {
    /// Cloud cover, %.
    public var all: Double?

    /// Cloud cover of `all` %.
    public init(all: Double? = nil) { self.all = all }
}

/// The `sys` block of current weather.
public struct CurrentSys: Sendable, Hashable, Codable {
    /// ISO 3166 country code.
    public var country: String?
    /// Unix time, UTC.
    public var sunrise: Int?
    /// Unix time, UTC.
    public var sunset: Int?

    /// The `sys` block as OpenWeatherMap writes it.
    public init(country: String? = nil, sunrise: Int? = nil, sunset: Int? = nil) {
        self.country = country
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// A status code OpenWeatherMap writes as a number in some answers and as a string in others.
public struct ResponseCode: Sendable, Hashable, Codable {
    /// The code as a number, when it is one.
    public var value: Int?
    /// The code as written.
    public var text: String

    /// The code `value`.
    public init(_ value: Int) {
        self.value = value
        self.text = String(value)
    }

    private init(value: Int?, text: String) {
        self.value = value
        self.text = text
    }

    /// Reads a number or a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self.init(number)
        } else {
            let string = try container.decode(String.self)
            self.init(value: Int(string), text: string)
        }
    }

    /// Writes the code as it was received: a number, or the string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encode(text) }
    }
}

/// The answer of /data/2.5/weather.
public struct CurrentWeather: Sendable, Hashable, Codable {
    /// The point asked about, as OpenWeatherMap rounds it.
    public var coord: WeatherCoordinates?
    /// Weather conditions, the most important first.
    public var weather: [WeatherCondition]?
    /// Temperature, humidity and pressure.
    public var main: MainReadings?
    /// Metres; absent in some answers.
    public var visibility: Double?
    /// Wind at 10 m.
    public var wind: Wind?
    /// Cloud cover.
    public var clouds: Clouds?
    /// Rain over the last hour(s).
    public var rain: Precipitation?
    /// Snow over the last hour(s).
    public var snow: Precipitation?
    /// Time of the observation, Unix seconds UTC.
    public var dt: Int?
    /// Country, sunrise and sunset.
    public var sys: CurrentSys?
    /// Offset of the place's local time from UTC, seconds.
    public var timezone: Int?
    /// OpenWeatherMap's city id.
    public var id: Int?
    /// Name of the nearest place OpenWeatherMap knows, in the requested language when it has one.
    public var name: String?
    /// The answer's status code (200).
    public var cod: ResponseCode?

    /// An answer as OpenWeatherMap writes it.
    public init(
        coord: WeatherCoordinates? = nil, weather: [WeatherCondition]? = nil, main: MainReadings? = nil,
        visibility: Double? = nil, wind: Wind? = nil, clouds: Clouds? = nil, rain: Precipitation? = nil,
        snow: Precipitation? = nil, dt: Int? = nil, sys: CurrentSys? = nil, timezone: Int? = nil,
        id: Int? = nil, name: String? = nil, cod: ResponseCode? = nil
    ) {
        self.coord = coord
        self.weather = weather
        self.main = main
        self.visibility = visibility
        self.wind = wind
        self.clouds = clouds
        self.rain = rain
        self.snow = snow
        self.dt = dt
        self.sys = sys
        self.timezone = timezone
        self.id = id
        self.name = name
        self.cod = cod
    }

    /// Observation time.
    public var date: Date? { dt.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
    /// The first well-formed condition (one with a description or a group).
    public var condition: WeatherCondition? {
        weather?.first { $0.description != nil || $0.main != nil }
    }
}

/// Part of day of a forecast slot: "d" or "n".
public struct ForecastSys: Sendable, Hashable, Codable {
    /// Part of the day: "d" for day, "n" for night.
    public var pod: String?

    /// A `sys` block with `pod`.
    public init(pod: String? = nil) { self.pod = pod }
}

/// One 3-hour slot of the 5-day forecast (`list[]`).
public struct ForecastSlot: Sendable, Hashable, Codable {
    /// Start of the slot, Unix seconds UTC.
    public var dt: Int
    /// Temperature, humidity and pressure.
    public var main: MainReadings?
    /// Weather conditions, the most important first.
    public var weather: [WeatherCondition]?
    /// Cloud cover.
    public var clouds: Clouds?
    /// Wind at 10 m.
    public var wind: Wind?
    /// Visibility, metres.
    public var visibility: Double?
    /// Probability of precipitation, 0...1.
    public var pop: Double?
    /// Rain over the slot's 3 hours.
    public var rain: Precipitation?
    /// Snow over the slot's 3 hours.
    public var snow: Precipitation?
    /// Part of the day.
    public var sys: ForecastSys?
    /// "2026-08-01 09:00:00", UTC.
    public var dtTxt: String?

    enum CodingKeys: String, CodingKey {
        case dt, main, weather, clouds, wind, visibility, pop, rain, snow, sys
        case dtTxt = "dt_txt"
    }

    /// A slot as OpenWeatherMap writes it.
    public init(
        dt: Int, main: MainReadings? = nil, weather: [WeatherCondition]? = nil, clouds: Clouds? = nil,
        wind: Wind? = nil, visibility: Double? = nil, pop: Double? = nil, rain: Precipitation? = nil,
        snow: Precipitation? = nil, sys: ForecastSys? = nil, dtTxt: String? = nil
    ) {
        self.dt = dt
        self.main = main
        self.weather = weather
        self.clouds = clouds
        self.wind = wind
        self.visibility = visibility
        self.pop = pop
        self.rain = rain
        self.snow = snow
        self.sys = sys
        self.dtTxt = dtTxt
    }

    /// The slot's start (`dt`, UTC).
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(dt)) }
    /// The first well-formed condition.
    public var condition: WeatherCondition? {
        weather?.first { $0.description != nil || $0.main != nil }
    }
}

/// The `city` block of a forecast.
public struct ForecastCity: Sendable, Hashable, Codable {
    /// OpenWeatherMap's city id.
    public var id: Int?
    /// Empty for places far from any town (e.g. Antarctica).
    public var name: String?
    /// The city's point.
    public var coord: WeatherCoordinates?
    /// ISO 3166 country code.
    public var country: String?
    /// Inhabitants, 0 when unknown.
    public var population: Int?
    /// Offset of local time from UTC, seconds.
    public var timezone: Int?
    /// Sunrise, Unix time (UTC).
    public var sunrise: Int?
    /// Sunset, Unix time (UTC).
    public var sunset: Int?

    /// A city block as OpenWeatherMap writes it.
    public init(
        id: Int? = nil, name: String? = nil, coord: WeatherCoordinates? = nil, country: String? = nil,
        population: Int? = nil, timezone: Int? = nil, sunrise: Int? = nil, sunset: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.coord = coord
        self.country = country
        self.population = population
        self.timezone = timezone
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// The answer of /data/2.5/forecast: up to 40 slots of 3 hours.
public struct Forecast: Sendable, Hashable, Codable {
    /// The answer's status code ("200").
    public var cod: ResponseCode?
    /// Number of slots.
    public var cnt: Int?
    /// The 3-hour slots, in time order.
    public var list: [ForecastSlot]
    /// The place the forecast is for.
    public var city: ForecastCity?

    /// A forecast as OpenWeatherMap writes it.
    public init(cod: ResponseCode? = nil, cnt: Int? = nil, list: [ForecastSlot], city: ForecastCity? = nil) {
        self.cod = cod
        self.cnt = cnt
        self.list = list
        self.city = city
    }
}
