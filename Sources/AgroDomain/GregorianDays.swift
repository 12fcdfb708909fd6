import Foundation

/// Calendar days counted from 1970-01-01 in the proleptic Gregorian calendar, and back
/// (Howard Hinnant's algorithms): plain integer arithmetic, so a date means the same day
/// whatever the machine's time zone, locale or calendar settings.
///
/// ```swift
/// GregorianDays.days(year: 2024, month: 3, day: 1)   // 19783
/// GregorianDays.date(19783)                          // (2024, 3, 1)
/// ```
public enum GregorianDays {
    /// Days since 1970-01-01 of `year`-`month`-`day` (month 1...12; negative before 1970).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The year, month (1...12) and day of the month `days` after 1970-01-01.
    public static func date(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
