import Foundation

/// One revision of a spray record: what was applied on a field, when, at which stage, by whom
/// and in what weather. Records are never deleted: a correction is a new revision of the same
/// record (`id`), and the history keeps every revision.
public struct SprayRecord: Sendable, Hashable, Codable {
    /// The record, the same across its revisions; made where it was first written.
    public var id: UUID
    /// This revision; made where it was written, so a revision sent twice is stored once.
    public var revision: UUID
    /// The field sprayed.
    public var field: UUID
    /// When spraying began (local time as the person wrote it).
    public var start: JournalTime
    /// When it ended, if written.
    public var end: JournalTime?
    /// The growth stage (BBCH 0-99), if written.
    public var bbch: Int?
    /// The products in the tank, the first the main one.
    public var products: [AppliedProduct]
    /// Litres of spray liquid per hectare.
    public var water: Double?
    /// Hectares treated; nil is the whole field.
    public var area: Double?
    /// Who sprayed.
    public var sprayer: String?
    /// The weather while spraying, each reading measured or taken from a forecast.
    public var weather: SprayWeather
    /// Free notes.
    public var notes: String?
    /// Why this revision was made; nil for the first writing.
    public var reason: String?
    /// The revision this one corrects, as the device that wrote it knew the record; two
    /// revisions correcting the same one were written apart (two phones offline).
    public var revises: UUID?
    /// When this revision was written.
    public var writtenAt: Date

    /// Creates a record revision.
    public init(
        id: UUID = UUID(), revision: UUID = UUID(), field: UUID, start: JournalTime, end: JournalTime? = nil,
        bbch: Int? = nil, products: [AppliedProduct], water: Double? = nil, area: Double? = nil, sprayer: String? = nil,
        weather: SprayWeather = SprayWeather(), notes: String? = nil, reason: String? = nil, revises: UUID? = nil,
        writtenAt: Date
    ) {
        self.id = id
        self.revision = revision
        self.field = field
        self.start = start
        self.end = end
        self.bbch = bbch
        self.products = products
        self.water = water
        self.area = area
        self.sprayer = sprayer
        self.weather = weather
        self.notes = notes
        self.reason = reason
        self.revises = revises
        self.writtenAt = writtenAt
    }

    // `sprayer` is the operator of Regulation (EU) 2023/564; `operator` is a Swift keyword.
    enum CodingKeys: String, CodingKey {
        case id, revision, field, start, end, bbch, products, water, area, weather, notes, reason, revises, writtenAt
        case sprayer = "operator"
    }

    /// Whether two revisions say the same thing (all but the revision's id and time).
    public func saysTheSame(as other: SprayRecord) -> Bool {
        var a = self, b = other
        (a.revision, a.writtenAt) = (b.revision, b.writtenAt)
        return a == b
    }
}

/// A product in the tank: how much per hectare, and against what.
public struct AppliedProduct: Sendable, Hashable, Codable {
    /// The product (a catalog id).
    public var product: EntityID
    /// The dose, in `unit`.
    public var dose: Double
    /// The dose's unit ("l/ha", "g/ha", ...).
    public var unit: String
    /// The pests aimed at (catalog ids); may be empty.
    public var pests: [EntityID]

    /// Creates a product line.
    public init(product: EntityID, dose: Double, unit: String, pests: [EntityID] = []) {
        self.product = product
        self.dose = dose
        self.unit = unit
        self.pests = pests
    }
}

/// The weather while spraying. Each reading says where it comes from: a forecast is never
/// passed off as a measurement.
public struct SprayWeather: Sendable, Hashable, Codable {
    /// Wind, m/s.
    public var wind: Reading?
    /// Gusts, m/s.
    public var gusts: Reading?
    /// Air temperature, °C.
    public var temperature: Reading?
    /// Relative humidity, %.
    public var humidity: Reading?
    /// Rain, mm.
    public var rain: Reading?

    /// Creates the weather of a record.
    public init(
        wind: Reading? = nil, gusts: Reading? = nil, temperature: Reading? = nil, humidity: Reading? = nil,
        rain: Reading? = nil
    ) {
        self.wind = wind
        self.gusts = gusts
        self.temperature = temperature
        self.humidity = humidity
        self.rain = rain
    }

    /// Whether nothing was written.
    public var isEmpty: Bool { [wind, gusts, temperature, humidity, rain].allSatisfy { $0 == nil } }
}

/// A number and where it comes from.
public struct Reading: Sendable, Hashable, Codable {
    /// Where a reading comes from.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// Measured by the person on the field.
        case measured
        /// Taken from a weather forecast.
        case forecast
    }

    /// The value, in the unit of its quantity.
    public var value: Double
    /// Measured or forecast.
    public var source: Source

    /// Creates a reading.
    public init(_ value: Double, _ source: Source) {
        self.value = value
        self.source = source
    }
}

/// A day and, if written, a time of day (local time, as the person wrote it).
public struct JournalTime: Sendable, Hashable, Comparable, CodedAsText {
    /// The day.
    public var date: PlanDate
    /// Minutes after midnight, if a time was written.
    public var minute: Int?

    /// Creates a time.
    public init(date: PlanDate, minute: Int? = nil) {
        self.date = date
        self.minute = minute
    }

    /// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM"; nil for anything else.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.count >= 10, let date = PlanDate(String(text.prefix(10))) else { return nil }
        self.date = date
        let rest = text.dropFirst(10)
        if rest.isEmpty { return }
        guard rest.count == 6, rest.first == "T" || rest.first == " " else { return nil }
        let clock = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }), let hour = Int(clock[0]),
            let minute = Int(clock[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.minute = hour * 60 + minute
    }

    /// Earlier first; a day without a time comes before the same day with one.
    public static func < (a: JournalTime, b: JournalTime) -> Bool {
        a.date != b.date ? a.date < b.date : (a.minute ?? -1) < (b.minute ?? -1)
    }

    /// "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM".
    public var description: String {
        guard let minute else { return date.description }
        return date.description + "T" + String(format: "%02d:%02d", minute / 60, minute % 60)
    }

    /// JSON holds the text form (`CodedAsText`); any other text is not one.
    public static func unreadable(_ text: String) -> String { "\"\(text)\" is not YYYY-MM-DD or YYYY-MM-DDTHH:MM" }
}
