import AgroDomain
import AgroWeather
import Dispatch
import Foundation
import Synchronization

/// Token buckets: each client may spend `perClient` per `period` seconds and all of them
/// together `total`, refilled continuously. The table of clients is bounded (idle buckets are
/// forgotten when it grows), so a flood of addresses costs no memory.
final class RateLimiter: Sendable {
    let perClient: Int
    let total: Int
    /// Seconds in which a full bucket refills: 60 for a per-minute limit, 86,400 for a daily one.
    let period: Double
    private let state: Mutex<State>
    private let now: @Sendable () -> Double

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private struct State {
        var clients: [String: Bucket] = [:]
        var all: Bucket
    }

    static let maximumClients = 10_000

    init(
        perClient: Int, total: Int, period: Double = 60,
        now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.perClient = perClient
        self.total = total
        self.period = period
        self.now = now
        state = Mutex(State(all: Bucket(tokens: Double(total), updated: now())))
    }

    /// Takes one token for `client`; nil when allowed, else the seconds until one is free.
    func take(client: String) -> Double? {
        let time = now()
        return state.withLock { state in
            if state.clients.count >= Self.maximumClients {
                state.clients = state.clients.filter { refilled($0.value, at: time, rate: perClient) < Double(perClient) }
                if state.clients.count >= Self.maximumClients { state.clients = [:] }
            }
            var mine = state.clients[client] ?? Bucket(tokens: Double(perClient), updated: time)
            mine.tokens = refilled(mine, at: time, rate: perClient)
            mine.updated = time
            state.all.tokens = refilled(state.all, at: time, rate: total)
            state.all.updated = time
            defer { state.clients[client] = mine }
            guard mine.tokens >= 1 else { return (1 - mine.tokens) * period / Double(max(perClient, 1)) }
            guard state.all.tokens >= 1 else { return (1 - state.all.tokens) * period / Double(max(total, 1)) }
            mine.tokens -= 1
            state.all.tokens -= 1
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, at time: Double, rate perPeriod: Int) -> Double {
        min(Double(perPeriod), bucket.tokens + (time - bucket.updated) * Double(perPeriod) / period)
    }

    /// Gives back a token taken by `take` for a call that was not made after all.
    func refund(client: String) {
        state.withLock { state in
            if var mine = state.clients[client] {
                mine.tokens = min(Double(perClient), mine.tokens + 1)
                state.clients[client] = mine
            }
            state.all.tokens = min(Double(total), state.all.tokens + 1)
        }
    }
}

/// The weather client with the server's key, behind the rate limits: a call that would reach
/// OpenWeatherMap takes a token of every limiter first, per minute and per day (answers fresh
/// in the cache take none); refused by one, it gives back what the others gave.
struct LimitedWeatherService: WeatherService {
    let upstream: any WeatherService
    let limiters: [RateLimiter]
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
        for (index, limiter) in limiters.enumerated() {
            if let wait = limiter.take(client: client) {
                for taken in limiters.prefix(index) { taken.refund(client: client) }
                throw WebLimitError.tooManyRequests(retryAfter: Int(min(wait, 86_400).rounded(.up)))
            }
        }
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
