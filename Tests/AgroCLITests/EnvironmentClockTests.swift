import AgroPresentation
import Foundation
import XCTest

/// The clock is passed in: what "expired" means comes from the environment's `today`, set
/// where the environment is made (a command line, a web request), not from a global.
final class EnvironmentClockTests: XCTestCase {
    private func environment(today: String) -> AgroPresentation.Environment {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agro-clock-\(UUID())").path
        return Environment(
            paths: Paths(environment: ["HOME": home]), configuration: Configuration(), locale: "en", format: .table,
            output: .standardOutput, catalogPath: nil, processEnvironment: [:], today: today)
    }

    func testExpiryIsJudgedAgainstTheEnvironmentsDay() {
        let before = environment(today: "2030-06-30"), after = environment(today: "2030-07-02")
        XCTAssertEqual(before.registration("W-1", expiry: "2030-07-01"), "W-1")
        XCTAssertNotEqual(after.registration("W-1", expiry: "2030-07-01"), "W-1")
        XCTAssertTrue(after.registration("W-1", expiry: "2030-07-01").hasPrefix("W-1 ("))
        // A request's environment takes the request's day, not the server's first one.
        let request = Environment(before, locale: "ru", strings: before.strings, today: "2031-01-01")
        XCTAssertEqual(request.today, "2031-01-01")
        XCTAssertEqual(Environment.isoDate(Date(timeIntervalSince1970: 0)), "1970-01-01")
    }

    /// The day in UTC, whatever the machine's time zone: leap days, the last second of a day,
    /// before 1970 (days counted by hand: 11,016 to 2000-02-29, 19,782 to 2024-02-29).
    func testTodayIsTheISODayInUTC() {
        let day: Double = 86_400
        let cases: [(Double, String)] = [
            (-1, "1969-12-31"), (day - 1, "1970-01-01"), (day, "1970-01-02"), (11_016 * day, "2000-02-29"),
            (19_782 * day + day - 0.5, "2024-02-29"), (19_783 * day, "2024-03-01"), (-719_528 * day, "0000-01-01"),
        ]
        for (seconds, expected) in cases {
            XCTAssertEqual(Environment.isoDate(Date(timeIntervalSince1970: seconds)), expected, "\(seconds)")
        }
    }
}
