import Foundation

/// How completely a registered use controls a pest.
public enum PestEffect: String, Sendable, Codable, CaseIterable, Hashable {
    case full, partial, sideEffect = "side_effect"
}

/// A pest targeted by a use, and how well.
public struct UsePest: Sendable, Hashable, Codable {
    public var pest: EntityRef
    public var effect: PestEffect

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case pest, effect
    }

    public init(pest: EntityRef, effect: PestEffect = .full) {
        self.pest = pest
        self.effect = effect
    }
}

/// A numeric range with a unit: "1.5-2 l/ha", "0.05 %".
public struct Dose: Sendable, Hashable, Codable {
    public var from: Double?
    public var to: Double?
    public var unit: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case from, to, unit
    }

    public init(from: Double?, to: Double?, unit: String?) {
        self.from = from
        self.to = to
        self.unit = unit
    }

    public var isEmpty: Bool { from == nil && to == nil }

    /// The range as printed on labels; numbers without trailing zeros.
    public var label: String {
        var text: String
        switch (from, to) {
        case let (f?, t?) where f != t: text = "\(f.plainText)-\(t.plainText)"
        case let (f?, _): text = f.plainText
        case let (nil, t?): text = t.plainText
        default: return ""
        }
        if let unit, !unit.isEmpty { text += " \(unit)" }
        return text
    }
}

/// A registered use of a product: on these cultures, against these pests, at this dose.
public struct Use: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var product: EntityRef
    public var cultures: [EntityRef]
    public var pests: [UsePest]
    public var dose: Dose
    /// Spray volume (water), usually l/ha.
    public var waterVolume: Dose
    /// Pre-harvest interval (waiting period) in days; nil when the label sets none.
    public var preHarvestIntervalDays: Int?
    public var maxApplications: Int?
    /// Minimum days between two applications.
    public var applicationIntervalDays: Int?
    public var bbch: BBCHRange?
    /// Where the use applies: field, greenhouse, forestry, storage, ...
    public var applicationArea: String?
    public var notes: String?
    /// Conditions the user must respect (buffer zones, protective equipment, ...).
    public var obligations: [String]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, product, cultures, pests, dose, maxApplications, bbch, applicationArea, notes, obligations
        case waterVolume = "water"
        case preHarvestIntervalDays = "phiDays"
        case applicationIntervalDays = "intervalDays"
    }

    public init(
        id: EntityID, product: EntityRef, cultures: [EntityRef], pests: [UsePest], dose: Dose,
        waterVolume: Dose = Dose(from: nil, to: nil, unit: nil), preHarvestIntervalDays: Int? = nil,
        maxApplications: Int? = nil, applicationIntervalDays: Int? = nil, bbch: BBCHRange? = nil,
        applicationArea: String? = nil, notes: String? = nil, obligations: [String] = []
    ) {
        self.id = id
        self.product = product
        self.cultures = cultures
        self.pests = pests
        self.dose = dose
        self.waterVolume = waterVolume
        self.preHarvestIntervalDays = preHarvestIntervalDays
        self.maxApplications = maxApplications
        self.applicationIntervalDays = applicationIntervalDays
        self.bbch = bbch
        self.applicationArea = applicationArea
        self.notes = notes
        self.obligations = obligations
    }
}

extension Double {
    /// The number as labels and messages write it: whole numbers without ".0" ("250", not
    /// "250.0"), others as Swift prints them; beyond 1e15 in Swift's form too, which no
    /// integer conversion can trap on.
    public var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
