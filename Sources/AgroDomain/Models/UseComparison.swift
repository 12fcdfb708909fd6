import Foundation

/// How `agro uses` orders its rows.
public enum UseSort: String, Sendable, Codable, CaseIterable, Hashable {
    /// Product name, then use.
    case name
    /// Unit, then the highest registered dose, lowest first.
    case dose
    /// Pre-harvest interval, shortest first; uses without one last.
    case phi
}

/// Criteria of a use comparison; ids are resolved by the caller.
public struct UseQuery: Sendable, Hashable, Codable {
    /// Only uses registered against this pest.
    public var pest: EntityID?
    /// Matches uses registered on this culture, on any group it belongs to, or on any of its
    /// members (the cultures below it, when it is a group or has sub-crops): those rows name
    /// their member (`UseRow.member`) and come after the culture's own, grouped by member.
    public var culture: EntityID?
    /// Marks uses whose BBCH window does not contain this stage (they are still listed).
    public var stage: Int?
    /// Only products containing this active substance.
    public var substance: EntityID?
    /// Only products with a substance in this mode-of-action group.
    public var group: GroupCode?
    /// The order of the rows.
    public var sort: UseSort
    /// Registrations expiring before this ISO 8601 date (YYYY-MM-DD) are marked expired.
    public var asOf: String

    /// Creates a query; only `asOf` is required, every other criterion is optional.
    public init(
        pest: EntityID? = nil, culture: EntityID? = nil, stage: Int? = nil, substance: EntityID? = nil,
        group: GroupCode? = nil, sort: UseSort = .name, asOf: String
    ) {
        self.pest = pest
        self.culture = culture
        self.stage = stage
        self.substance = substance
        self.group = group
        self.sort = sort
        self.asOf = asOf
    }
}

/// A mode-of-action group as the user types it: "FRAC 3", "irac:4A", or a bare "11" that
/// matches that code in any scheme.
public struct GroupCode: Sendable, Hashable, Codable {
    /// "FRAC", "IRAC" or "HRAC" in capitals; nil matches the code in any scheme.
    public var scheme: String?
    /// The group's code in capitals ("3", "4A", "M5").
    public var group: String

    /// Creates a group from a scheme and a code already in capitals.
    public init(scheme: String?, group: String) {
        self.scheme = scheme
        self.group = group
    }

    /// Parses "FRAC 3", "FRAC:3", "frac3", "3"; nil for an empty text or an unknown scheme.
    public init?(parsing text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace && $0 != ":" && $0 != "-" }
        guard !compact.isEmpty else { return nil }
        for scheme in ["FRAC", "IRAC", "HRAC"] where compact.hasPrefix(scheme) {
            let group = String(compact.dropFirst(scheme.count))
            guard !group.isEmpty else { return nil }
            self.init(scheme: scheme, group: group)
            return
        }
        guard compact.allSatisfy({ $0.isLetter || $0.isNumber }),
            compact.first?.isNumber == true || compact.hasPrefix("M") || compact.hasPrefix("U")
        else { return nil }
        self.init(scheme: nil, group: compact)
    }

    /// Whether a substance's mode of action falls in this group.
    public func matches(_ modeOfAction: ModeOfAction) -> Bool {
        (scheme == nil || scheme == modeOfAction.scheme.uppercased()) && group == modeOfAction.group.uppercased()
    }
}

/// An active ingredient of a compared product, with its mode-of-action group.
public struct UseIngredient: Sendable, Hashable, Codable {
    /// The active substance.
    public var substanceID: EntityID
    /// The substance's name in the requested locale.
    public var name: String
    /// Its concentration in the product, in `unit`.
    public var concentration: Double?
    /// Unit of the concentration ("g/l", "g/kg", "%").
    public var unit: String?
    /// "FRAC 3"; nil when the catalog gives no group.
    public var group: String?

    /// Creates an ingredient row.
    public init(substanceID: EntityID, name: String, concentration: Double?, unit: String?, group: String?) {
        self.substanceID = substanceID
        self.name = name
        self.concentration = concentration
        self.unit = unit
        self.group = group
    }

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case substanceID = "substanceId"
        case name, concentration, unit, group
    }
}

/// One row of `agro uses`: one product × one registered use, with everything an agronomist
/// compares side by side.
public struct UseRow: Sendable, Hashable, Codable, Identifiable {
    /// The use's id.
    public var id: EntityID
    /// The product's name.
    public var name: String
    /// The product the use belongs to.
    public var productID: EntityID
    /// The product's registration number, if the catalog has one.
    public var registrationNumber: String?
    /// The day the registration ends (YYYY-MM-DD), if known.
    public var registrationExpiry: String?
    /// The product's active ingredients with their groups.
    public var ingredients: [UseIngredient]
    /// Mode-of-action group codes of the ingredients ("FRAC 3"), without repeats.
    public var groups: [String]
    /// The registered dose.
    public var dose: Dose
    /// The registered water volume (l/ha), if the label gives one.
    public var water: Dose?
    /// Pre-harvest interval in days; nil when the label sets none.
    public var phiDays: Int?
    /// Most applications per season the use allows.
    public var maxApplications: Int?
    /// Least days between two applications.
    public var intervalDays: Int?
    /// The growth-stage window the use is registered for.
    public var bbch: BBCHRange?
    /// Where the use applies (field, greenhouse, storage), in the requested locale.
    public var applicationArea: String?
    /// The cultures (or culture groups) the use is registered on.
    public var cultures: [EntityRef]
    /// The pests the use is registered against.
    public var pests: [EntityRef]
    /// The registration expired before the query's date.
    public var expired: Bool
    /// The use's BBCH window does not contain the query's stage.
    public var outsideStage: Bool
    /// The member of the asked culture (a culture below it) the use is registered on, when the
    /// use is not registered on the asked culture or a group above it: the first of its cultures
    /// below the asked one by name. Nil without a culture asked.
    public var member: EntityRef?

    /// Creates a row; the store fills every field from one use.
    public init(
        id: EntityID, name: String, productID: EntityID, registrationNumber: String?, registrationExpiry: String?,
        ingredients: [UseIngredient], groups: [String], dose: Dose, water: Dose?, phiDays: Int?,
        maxApplications: Int?, intervalDays: Int?, bbch: BBCHRange?, applicationArea: String?, cultures: [EntityRef],
        pests: [EntityRef], expired: Bool, outsideStage: Bool, member: EntityRef? = nil
    ) {
        self.id = id
        self.name = name
        self.productID = productID
        self.registrationNumber = registrationNumber
        self.registrationExpiry = registrationExpiry
        self.ingredients = ingredients
        self.groups = groups
        self.dose = dose
        self.water = water
        self.phiDays = phiDays
        self.maxApplications = maxApplications
        self.intervalDays = intervalDays
        self.bbch = bbch
        self.applicationArea = applicationArea
        self.cultures = cultures
        self.pests = pests
        self.expired = expired
        self.outsideStage = outsideStage
        self.member = member
    }

    enum CodingKeys: String, CodingKey {
        case productID = "productId"
        case id, name, registrationNumber, registrationExpiry, ingredients, groups, dose, water, phiDays
        case maxApplications, intervalDays, bbch, applicationArea, cultures, pests, expired, outsideStage, member
    }

    /// The documented keys are always present (null when the catalog has no value).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(productID, forKey: .productID)
        try c.encode(registrationNumber, forKey: .registrationNumber)
        try c.encode(registrationExpiry, forKey: .registrationExpiry)
        try c.encode(ingredients, forKey: .ingredients)
        try c.encode(groups, forKey: .groups)
        try c.encode(dose, forKey: .dose)
        try c.encode(water, forKey: .water)
        try c.encode(phiDays, forKey: .phiDays)
        try c.encode(maxApplications, forKey: .maxApplications)
        try c.encode(intervalDays, forKey: .intervalDays)
        try c.encode(bbch, forKey: .bbch)
        try c.encode(applicationArea, forKey: .applicationArea)
        try c.encode(cultures, forKey: .cultures)
        try c.encode(pests, forKey: .pests)
        try c.encode(expired, forKey: .expired)
        try c.encode(outsideStage, forKey: .outsideStage)
        try c.encode(member, forKey: .member)
    }
}
