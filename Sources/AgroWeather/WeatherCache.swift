import AgroDomain
import Foundation

/// Answers kept on disk, one file per place, units, language and endpoint.
///
/// OpenWeatherMap updates its models no more often than every 10 minutes and asks clients not to
/// call more often for one place (https://openweathermap.org/appid, "API care recommendations"),
/// hence the default freshness. Places are rounded to 2 decimals (about 1 km), so taps a few
/// metres apart share an answer.
public struct WeatherCache: Sendable {
    /// One cached answer and when it was fetched.
    public struct Entry<Value: Sendable>: Sendable {
        /// The answer as it was stored.
        public var value: Value
        /// When it was fetched from the network.
        public var fetchedAt: Date
        /// Seconds since `fetchedAt`, at the time of reading.
        public var age: TimeInterval
        /// Whether the answer is younger than the cache's freshness.
        public var isFresh: Bool
    }

    /// Directory of the cache files (the caller passes e.g. $XDG_CACHE_HOME/agro/weather).
    public let directory: URL
    /// How long an answer counts as fresh, seconds.
    public let freshness: TimeInterval
    private let now: @Sendable () -> Date

    /// A cache in `directory`; answers younger than `freshness` seconds (by `now`) are fresh.
    public init(directory: URL, freshness: TimeInterval = 600, now: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.freshness = freshness
        self.now = now
    }

    /// The file name for one request, e.g. "forecast_51.51_-0.13_metric_ru.json".
    public static func fileName(
        endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?
    ) -> String {
        func rounded(_ value: Double) -> String {
            let text = String(format: "%.2f", value)
            return text == "-0.00" ? "0.00" : text
        }
        // lang comes from the user: keep only characters that are safe in a file name.
        let locale = (locale ?? "").filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        return "\(endpoint.rawValue)_\(rounded(point.latitude))_\(rounded(point.longitude))_\(units.rawValue)_"
            + "\(locale.isEmpty ? "default" : locale).json"
    }

    /// The cached answer, fresh or not; nil when there is none or it cannot be read.
    public func read<Value: Codable & Sendable>(
        _ type: Value.Type, endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?
    ) -> Entry<Value>? {
        let file = directory.appendingPathComponent(Self.fileName(endpoint: endpoint, at: point, units: units, locale: locale))
        guard let data = try? Data(contentsOf: file),
            let envelope = try? JSONDecoder().decode(Envelope<Value>.self, from: data)
        else { return nil }
        // An answer stored by an earlier version, or by hand, is checked as a fresh one would be:
        // one that fails is removed, so it is never served again.
        if let checked = envelope.answer as? any PlausibleAnswer, checked.implausibility != nil {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        let fetchedAt = Date(timeIntervalSince1970: envelope.fetchedAt)
        // A clock set back makes the age negative: count that as just fetched, not as fresh forever.
        let age = max(0, now().timeIntervalSince(fetchedAt))
        return Entry(value: envelope.answer, fetchedAt: fetchedAt, age: age, isFresh: age < freshness)
    }

    /// Stores an answer fetched now.
    /// - Throws: file-system errors (the caller may ignore them: a cache that cannot be written
    ///   only costs a request next time).
    public func write<Value: Codable & Sendable>(
        _ value: Value, endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(Self.fileName(endpoint: endpoint, at: point, units: units, locale: locale))
        let envelope = Envelope(fetchedAt: now().timeIntervalSince1970, answer: value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Written whole then renamed, so a reader never sees half a file.
        try encoder.encode(envelope).write(to: file, options: .atomic)
    }

    /// Removes the answers fetched more than `maximumAge` seconds ago, then the oldest until
    /// the files take at most `maximumBytes`: one file per place, units, language and
    /// endpoint, so a server asked about many places would otherwise fill its disk.
    /// - Returns: the files removed.
    @discardableResult
    public func prune(maximumAge: TimeInterval, maximumBytes: Int) -> Int {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard
            let files = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return 0 }
        let time = now()
        var kept: [(url: URL, date: Date, size: Int)] = []
        var removed = 0
        for file in files where file.pathExtension == "json" {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let date = values.contentModificationDate ?? .distantPast
            if time.timeIntervalSince(date) > maximumAge {
                if (try? FileManager.default.removeItem(at: file)) != nil { removed += 1 }
            } else {
                kept.append((file, date, values.fileSize ?? 0))
            }
        }
        var total = kept.reduce(0) { $0 + $1.size }
        for file in kept.sorted(by: { $0.date < $1.date }) where total > maximumBytes {
            if (try? FileManager.default.removeItem(at: file.url)) != nil {
                removed += 1
                total -= file.size
            }
        }
        return removed
    }

    private struct Envelope<Value: Codable>: Codable {
        var fetchedAt: TimeInterval
        var answer: Value
    }
}

/// Where an answer came from.
public enum AnswerSource: Sendable, Hashable, Codable {
    /// Fetched just now.
    case network
    /// Read from the cache, `age` seconds old.
    case cache(age: TimeInterval)
}

/// A weather answer with its provenance and, when it is a stand-in, a warning for the user.
public struct WeatherAnswer<Value: Sendable>: Sendable {
    /// The answer.
    public var value: Value
    /// Whether it came from the network or the cache, and how old it is.
    public var source: AnswerSource
    /// Set when the network failed and a cached answer is shown instead (English).
    public var warning: String?
    /// The failure a cached answer stands in for, for a program to word `warning` itself.
    public var failure: WeatherError?

    /// An answer from `source`, with a warning when it stands in for a failed fetch.
    public init(value: Value, source: AnswerSource, warning: String? = nil, failure: WeatherError? = nil) {
        self.value = value
        self.source = source
        self.warning = warning
        self.failure = failure
    }
}

/// The cache policy around a weather service.
///
/// - A fresh cached answer is used without a request.
/// - A stale or missing one is fetched; when the fetch fails for a network or server reason and
///   an older answer is cached, that answer is returned with a warning instead of the error.
/// - Offline, only the cache is read, whatever its age.
public struct CachedWeatherService: WeatherService {
    /// The service asked when the cache has no fresh answer.
    public let upstream: any WeatherService
    /// Where answers are kept.
    public let cache: WeatherCache
    /// Never touch the network.
    public let offline: Bool

    /// The cache policy around `upstream`; `offline` reads only the cache.
    public init(upstream: any WeatherService, cache: WeatherCache, offline: Bool = false) {
        self.upstream = upstream
        self.cache = cache
        self.offline = offline
    }

    /// Current weather with its provenance.
    public func currentAnswer(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> WeatherAnswer<
        CurrentWeather
    > {
        try await answer(.current, at: point, units: units, locale: locale) {
            try await upstream.current(at: point, units: units, locale: locale)
        }
    }

    /// Forecast with its provenance.
    public func forecastAnswer(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> WeatherAnswer<
        Forecast
    > {
        try await answer(.forecast, at: point, units: units, locale: locale) {
            try await upstream.forecast(at: point, units: units, locale: locale)
        }
    }

    /// The current weather at `point`, cached or fetched (see the type's policy).
    public func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather {
        try await currentAnswer(at: point, units: units, locale: locale).value
    }

    /// The 5-day forecast at `point`, cached or fetched (see the type's policy).
    public func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast {
        try await forecastAnswer(at: point, units: units, locale: locale).value
    }

    private func answer<Value: Codable & Sendable>(
        _ endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?,
        fetch: () async throws -> Value
    ) async throws -> WeatherAnswer<Value> {
        let cached = cache.read(Value.self, endpoint: endpoint, at: point, units: units, locale: locale)
        if offline {
            guard let cached else {
                throw WeatherError.nothingCached(place: String(format: "%.2f,%.2f", point.latitude, point.longitude))
            }
            return WeatherAnswer(value: cached.value, source: .cache(age: cached.age))
        }
        if let cached, cached.isFresh {
            return WeatherAnswer(value: cached.value, source: .cache(age: cached.age))
        }
        do {
            let value = try await fetch()
            try? cache.write(value, endpoint: endpoint, at: point, units: units, locale: locale)
            return WeatherAnswer(value: value, source: .network)
        } catch let error as WeatherError where error.isTransient {
            guard let cached else { throw error }
            let warning = "\(error.message); showing the answer cached \(formatAge(cached.age)) ago"
            return WeatherAnswer(value: cached.value, source: .cache(age: cached.age), warning: warning, failure: error)
        }
    }
}

/// An age for people: "45 s", "12 min", "3 h 05 min", "2 d 4 h".
public func formatAge(_ seconds: TimeInterval) -> String {
    let total = Int(saturating: max(0, seconds).rounded())
    if total < 60 { return "\(total) s" }
    if total < 3600 { return "\(total / 60) min" }
    if total < 86400 { return String(format: "%d h %02d min", total / 3600, (total % 3600) / 60) }
    return "\(total / 86400) d \((total % 86400) / 3600) h"
}
