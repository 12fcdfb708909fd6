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

    /// - Parameters:
    ///   - offset: the place's UTC offset, seconds; nil is UTC.
    ///   - wording: the language's date patterns and weekday names (English by default).
    init(offset: Int?, wording w: WeatherWording = .english) {
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: w.locale)
            formatter.timeZone = WeatherPlausibility.timeZone(offset: offset)
            formatter.dateFormat = format
            return formatter
        }
        dateTimeFormatter = formatter(w.phrase("clock.dateTime", "yyyy-MM-dd HH:mm"))
        dayTimeFormatter = formatter(w.phrase("clock.dayTime", "EEE dd HH:mm"))
        dayFormatter = formatter(w.phrase("clock.day", "EEE dd"))
        timeFormatter = formatter("HH:mm")
    }

    /// "2026-08-01 12:00" (Russian "01.08.2026 12:00").
    func dateTime(_ date: Date) -> String { dateTimeFormatter.string(from: date) }
    /// "Sat 01 12:00" (Russian "сб 01 12:00").
    func dayTime(_ date: Date) -> String { dayTimeFormatter.string(from: date) }
    /// "Sat 01".
    func day(_ date: Date) -> String { dayFormatter.string(from: date) }
    /// "12:00".
    func time(_ date: Date) -> String { timeFormatter.string(from: date) }
}
