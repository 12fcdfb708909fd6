import AgroDomain
import Foundation
import Synchronization

/// Stops asking a service that keeps failing: after `threshold` failures in a row it is
/// "open" for `cooldown` seconds, during which calls fail at once without reaching the service;
/// then one call goes through and its outcome closes or reopens it.
///
/// One per server, shared by its requests: a stalled OpenWeatherMap then costs one deadline per
/// cooldown, not one per request.
public final class CircuitBreaker: Sendable {
    /// Failures in a row that open the breaker.
    public let threshold: Int
    /// Seconds it stays open.
    public let cooldown: Double
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    private struct State {
        var failures = 0
        var openUntil: Double = 0
    }

    /// - Parameter now: seconds on a monotonic clock (injected by tests).
    public init(
        threshold: Int = 2, cooldown: Double = 30,
        now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.threshold = max(1, threshold)
        self.cooldown = cooldown
        self.now = now
    }

    /// Seconds until the breaker lets a call through again; nil when it does now.
    public var waitRemaining: Int? {
        let time = now()
        return state.withLock { state in
            state.openUntil > time ? Int((state.openUntil - time).rounded(.up)) : nil
        }
    }

    /// Records a call's outcome: a failure counts toward opening, a success closes.
    public func record(success: Bool) {
        let time = now()
        state.withLock { state in
            if success {
                state.failures = 0
                state.openUntil = 0
            } else {
                state.failures += 1
                if state.failures >= threshold { state.openUntil = time + cooldown }
            }
        }
    }
}

/// A weather service behind a `CircuitBreaker`: transient failures (timeouts, no network,
/// server errors) count; while the breaker is open a call fails with `WeatherError.stalled`
/// at once, which a cached answer may stand in for (`CachedWeatherService`).
public struct BreakerWeatherService: WeatherService {
    /// The service asked while the breaker is closed.
    public let upstream: any WeatherService
    /// The breaker shared by every request.
    public let breaker: CircuitBreaker

    /// `upstream` behind `breaker`.
    public init(upstream: any WeatherService, breaker: CircuitBreaker) {
        self.upstream = upstream
        self.breaker = breaker
    }

    /// Current conditions, unless the breaker is open.
    public func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather {
        try await guarded { try await upstream.current(at: point, units: units, locale: locale) }
    }

    /// The forecast, unless the breaker is open.
    public func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast {
        try await guarded { try await upstream.forecast(at: point, units: units, locale: locale) }
    }

    private func guarded<Value>(_ call: () async throws -> Value) async throws -> Value {
        if let wait = breaker.waitRemaining { throw WeatherError.stalled(retryAfter: wait) }
        do {
            let value = try await call()
            breaker.record(success: true)
            return value
        } catch let error as WeatherError {
            switch error {
            case .timeout, .noNetwork, .serverError: breaker.record(success: false)
            default: break
            }
            throw error
        }
    }
}
