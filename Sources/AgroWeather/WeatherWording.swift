import AgroDomain
import Foundation

/// How the text renderings word their labels, numbers, verdicts and spray findings.
///
/// `english` (the default) gives the library's English; a program with an interface language
/// gives its own: `phrase` maps a phrase key (e.g. "current.temperature") and its English
/// template to the template in that language, with `{0}`, `{1}`, ... for the arguments.
public struct WeatherWording: Sendable {
    /// The template for a key; gets the English template to fall back on.
    public var phrase: @Sendable (_ key: String, _ english: String) -> String
    /// A number already written with a decimal point, in the language's way ("12.5" → "12,5").
    public var number: @Sendable (_ text: String) -> String
    /// One spray finding as a short phrase; gets the report for its rain-fast period.
    public var finding: @Sendable (_ finding: SprayFinding, _ report: SprayReport) -> String
    /// An age in seconds with its units ("12 min" in English), for a cached answer.
    public var age: @Sendable (_ seconds: TimeInterval) -> String
    /// The locale whose weekday names dates print ("ru": "сб 01 12:00"); the date patterns
    /// themselves are phrases (`clock.dateTime`, `clock.dayTime`, `clock.day`).
    public var locale: String

    /// A wording from the phrase, number, finding and age functions of one interface language
    /// (the age as `formatAge` writes it unless given).
    public init(
        phrase: @escaping @Sendable (_ key: String, _ english: String) -> String,
        number: @escaping @Sendable (_ text: String) -> String,
        finding: @escaping @Sendable (_ finding: SprayFinding, _ report: SprayReport) -> String,
        age: @escaping @Sendable (_ seconds: TimeInterval) -> String = { formatAge($0) },
        locale: String = "en_US_POSIX"
    ) {
        self.phrase = phrase
        self.number = number
        self.finding = finding
        self.age = age
        self.locale = locale
    }

    /// The library's English, byte for byte as before wording could be chosen.
    public static let english = WeatherWording(
        phrase: { _, english in english }, number: { $0 }, finding: { finding, _ in finding.text })

    /// The phrase for `key` with `{i}` replaced by `arguments[i]`.
    func callAsFunction(_ key: String, _ english: String, _ arguments: String...) -> String {
        TextTemplate.fill(phrase(key, english), arguments)
    }

    /// A verdict's word ("good", "marginal", "avoid" in English).
    public func verdict(_ verdict: SprayVerdict) -> String { self("spray.verdict." + verdict.rawValue, verdict.rawValue) }

    /// A 16-point compass name ("NNE" in English).
    public func compass(_ degrees: Double) -> String {
        let name = WeatherText.compass(degrees)
        return self("compass." + name, name)
    }

    /// The wind speed unit ("m/s", "mph" in English).
    public func speed(_ units: WeatherUnits) -> String {
        units == .imperial ? self("unit.mph", "mph") : self("unit.metresPerSecond", "m/s")
    }
}
