import Foundation

/// How completely a registered use controls a pest.
public enum PestEffect: String, Sendable, Codable, CaseIterable, Hashable {
    /// Controls the pest; partly; as a side effect ("side_effect").
    case full, partial
    case sideEffect = "side_effect"
}

/// A pest targeted by a use, and how well.
public struct UsePest: Sendable, Hashable, Codable {
    /// The pest.
    public var pest: EntityRef
    /// How completely the use controls it.
    public var effect: PestEffect

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case pest, effect
    }

    /// A pest targeted with `effect`.
    public init(pest: EntityRef, effect: PestEffect = .full) {
        self.pest = pest
        self.effect = effect
    }
}

/// A numeric range with a unit: "1.5-2 l/ha", "0.05 %".
public struct Dose: Sendable, Hashable, Codable {
    /// Lower end of the range (or the only value).
    public var from: Double?
    /// Upper end of the range.
    public var to: Double?
    /// Unit as the catalog writes it ("l/ha", "kg/ha", "%").
    public var unit: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case from, to, unit
    }

    /// A range `from`-`to` in `unit`; equal or single ends make one value.
    public init(from: Double?, to: Double?, unit: String?) {
        self.from = from
        self.to = to
        self.unit = unit
    }

    /// Whether the dose has no number at all.
    public var isEmpty: Bool { from == nil && to == nil }

    /// The range as the use comparison sorts and prints it: a single number is both ends;
    /// an "up to" dose keeps no lower end.
    public var closed: Dose { Dose(from: from, to: to ?? from, unit: unit) }

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
    /// Stable id ("u-0001").
    public var id: EntityID
    /// The product used.
    public var product: EntityRef
    /// The cultures (or culture groups) it is registered on.
    public var cultures: [EntityRef]
    /// The pests it is registered against.
    public var pests: [UsePest]
    /// Dose per hectare (or per tonne of seed, or %).
    public var dose: Dose
    /// Spray volume (water), usually l/ha.
    public var water: Dose
    /// Pre-harvest interval (waiting period) in days; nil when the label sets none.
    public var phiDays: Int?
    /// Applications per season at most.
    public var maxApplications: Int?
    /// Minimum days between two applications.
    public var intervalDays: Int?
    /// Growth-stage window for applying.
    public var bbch: BBCHRange?
    /// Where the use applies: field, greenhouse, forestry, storage, ...
    public var applicationArea: String?
    /// Remarks in the requested locale.
    public var notes: String?
    /// Conditions the user must respect (buffer zones, protective equipment, ...).
    public var obligations: [String]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, product, cultures, pests, dose, water, phiDays, maxApplications, intervalDays, bbch, applicationArea
        case notes, obligations
    }

    /// A registered use.
    public init(
        id: EntityID, product: EntityRef, cultures: [EntityRef], pests: [UsePest], dose: Dose,
        water: Dose = Dose(from: nil, to: nil, unit: nil), phiDays: Int? = nil,
        maxApplications: Int? = nil, intervalDays: Int? = nil, bbch: BBCHRange? = nil,
        applicationArea: String? = nil, notes: String? = nil, obligations: [String] = []
    ) {
        self.id = id
        self.product = product
        self.cultures = cultures
        self.pests = pests
        self.dose = dose
        self.water = water
        self.phiDays = phiDays
        self.maxApplications = maxApplications
        self.intervalDays = intervalDays
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
