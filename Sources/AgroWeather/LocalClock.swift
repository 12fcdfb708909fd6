import Foundation

/// The date and time formats of one rendering in one place's local time.
///
/// Made once per text and passed down: a DateFormatter is costly to build, and a table, chart
/// or spray report formats dozens to hundreds of dates.
struct LocalClock: Sendable {
    private let dateTimeFormatter: DateFormatter
    private let dayTimeFormatter: DateFormatter
    private let dayFormatter: DateFormatter
    private let timeFormatter: DateFormatter

    /// - Parameter offset: the place's UTC offset, seconds; nil is UTC.
    init(offset: Int?) {
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: offset ?? 0) ?? TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter
        }
        dateTimeFormatter = formatter("yyyy-MM-dd HH:mm")
        dayTimeFormatter = formatter("EEE dd HH:mm")
        dayFormatter = formatter("EEE dd")
        timeFormatter = formatter("HH:mm")
    }

    /// "2026-08-01 12:00".
    func dateTime(_ date: Date) -> String { dateTimeFormatter.string(from: date) }
    /// "Sat 01 12:00".
    func dayTime(_ date: Date) -> String { dayTimeFormatter.string(from: date) }
    /// "Sat 01".
    func day(_ date: Date) -> String { dayFormatter.string(from: date) }
    /// "12:00".
    func time(_ date: Date) -> String { timeFormatter.string(from: date) }
}
