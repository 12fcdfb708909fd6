import Foundation
import XCTest

@testable import AgroWeb

/// The weather budgets: per client and in all, per minute and per day, on a clock set by hand.
final class RateLimiterTests: XCTestCase {
    final class Clock: @unchecked Sendable {
        var seconds: Double = 1000
    }

    func testADailyBudgetRefillsOverTheDayAndIsSharedFairly() {
        let clock = Clock()
        let daily = RateLimiter(perClient: 2, total: 3, period: 86_400, now: { clock.seconds })
        XCTAssertNil(daily.take(client: "a"))
        XCTAssertNil(daily.take(client: "a"))
        // Client a has spent its share: a token comes back in half a day (2 a day).
        XCTAssertEqual(daily.take(client: "a") ?? 0, 43_200, accuracy: 1)
        XCTAssertNil(daily.take(client: "b"))
        // All clients together have spent the day's 3: b waits for the total's next token (8 h).
        XCTAssertEqual(daily.take(client: "b") ?? 0, 28_800, accuracy: 1)
        clock.seconds += 28_800
        XCTAssertNil(daily.take(client: "b"))
    }

    func testARefusalByOneBudgetGivesBackWhatTheOthersTook() {
        let clock = Clock()
        let minute = RateLimiter(perClient: 5, total: 50, now: { clock.seconds })
        let day = RateLimiter(perClient: 1, total: 100, period: 86_400, now: { clock.seconds })
        // A call passes both; the next passes the minute's and is refused by the day's, as
        // LimitedWeatherService asks them, which then refunds the minute's token.
        XCTAssertNil(minute.take(client: "a"))
        XCTAssertNil(day.take(client: "a"))
        XCTAssertNil(minute.take(client: "a"))
        XCTAssertNotNil(day.take(client: "a"))
        minute.refund(client: "a")
        // One call made: 4 of the minute's 5 are left, not 3.
        for _ in 0..<4 { XCTAssertNil(minute.take(client: "a")) }
        XCTAssertNotNil(minute.take(client: "a"))
        // A refund never lifts a bucket over its size.
        clock.seconds += 3600
        minute.refund(client: "a")
        for _ in 0..<5 { XCTAssertNil(minute.take(client: "a")) }
        XCTAssertNotNil(minute.take(client: "a"))
    }
}
