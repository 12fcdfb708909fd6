import Foundation

/// A calendar day as plans write it (YYYY-MM-DD), counted in days for the interval rules.
public struct PlanDate: Sendable, Hashable, Comparable, CodedAsText {
    /// Days since 1970-01-01.
    public var day: Int

    /// Parses "YYYY-MM-DD"; nil for anything else or a day that does not exist.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            (1...12).contains(month), dayOfMonth >= 1, dayOfMonth <= Self.daysIn(month: month, year: year)
        else { return nil }
        day = GregorianDays.days(year: year, month: month, day: dayOfMonth)
    }

    /// The date `day` days after 1970-01-01.
    public init(day: Int) { self.day = day }

    /// Earlier days come first.
    public static func < (a: PlanDate, b: PlanDate) -> Bool { a.day < b.day }

    /// The date as "YYYY-MM-DD".
    public var description: String {
        let (y, m, d) = GregorianDays.date(day)
        return String(format: "%04d-%02d-%02d", y, m, d)
    }

    /// JSON holds the date as "YYYY-MM-DD" (`CodedAsText`); any other text is not one.
    public static func unreadable(_ text: String) -> String { "not a date YYYY-MM-DD: \(text)" }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
