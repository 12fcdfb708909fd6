import AgroDomain
import AgroWeather
import Dispatch
import Foundation

/// Token buckets: each client may spend `perClient` a minute and all of them together
/// `total` a minute, refilled continuously. The table of clients is bounded (idle buckets are
/// forgotten when it grows), so a flood of addresses costs no memory.
final class RateLimiter: @unchecked Sendable {
    let perClient: Int
    let total: Int
    private let lock = NSLock()
    private var clients: [String: Bucket] = [:]
    private var all: Bucket
    private let now: @Sendable () -> Double

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    static let maximumClients = 10_000

    init(
        perClient: Int, total: Int, now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.perClient = perClient
        self.total = total
        self.now = now
        all = Bucket(tokens: Double(total), updated: now())
    }

    /// Takes one token for `client`; nil when allowed, else the seconds until one is free.
    func take(client: String) -> Double? {
        let time = now()
        return lock.withLock {
            if clients.count >= Self.maximumClients {
                clients = clients.filter { Self.refilled($0.value, at: time, rate: perClient) < Double(perClient) }
                if clients.count >= Self.maximumClients { clients = [:] }
            }
            var mine = clients[client] ?? Bucket(tokens: Double(perClient), updated: time)
            mine.tokens = Self.refilled(mine, at: time, rate: perClient)
            mine.updated = time
            all.tokens = Self.refilled(all, at: time, rate: total)
            all.updated = time
            defer { clients[client] = mine }
            guard mine.tokens >= 1 else { return (1 - mine.tokens) * 60 / Double(max(perClient, 1)) }
            guard all.tokens >= 1 else { return (1 - all.tokens) * 60 / Double(max(total, 1)) }
            mine.tokens -= 1
            all.tokens -= 1
            return nil
        }
    }

    private static func refilled(_ bucket: Bucket, at time: Double, rate perMinute: Int) -> Double {
        min(Double(perMinute), bucket.tokens + (time - bucket.updated) * Double(perMinute) / 60)
    }
}

/// The weather client with the server's key, behind the rate limits: a call that would reach
/// OpenWeatherMap takes a token first (answers fresh in the cache take none).
struct LimitedWeatherService: WeatherService {
    let upstream: any WeatherService
    let limiter: RateLimiter
    let client: String

    func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather {
        try admit()
        return try await upstream.current(at: point, units: units, locale: locale)
    }

    func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast {
        try admit()
        return try await upstream.forecast(at: point, units: units, locale: locale)
    }

    private func admit() throws {
        if let wait = limiter.take(client: client) { throw WebLimitError.tooManyRequests(retryAfter: Int(wait.rounded(.up))) }
    }
}

/// A request refused by one of `WebLimits`; the API answers it as JSON with its HTTP status.
enum WebLimitError: Error, Sendable {
    /// Over a rate limit: 429, try again after that many seconds.
    case tooManyRequests(retryAfter: Int)
    /// The request's catalog work passed its deadline: 503.
    case tooSlow

    var message: String {
        switch self {
        case let .tooManyRequests(seconds):
            return "too many weather requests; try again in \(seconds) s"
        case .tooSlow:
            return "the request needs more catalog work than one request may do; ask for less (fewer words, a smaller page)"
        }
    }
}
