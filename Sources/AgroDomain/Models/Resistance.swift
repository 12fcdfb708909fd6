import Foundation

/// A resistance-management limit for one mode-of-action group, as published by FRAC, IRAC or
/// HRAC, optionally for one culture group only.
public struct GroupLimit: Sendable, Hashable, Codable {
    /// "FRAC", "IRAC" or "HRAC".
    public var scheme: String
    /// The group's code in its scheme ("3", "4A").
    public var group: String
    /// The culture (or culture group) the limit applies to; nil for every culture.
    public var culture: EntityID?
    /// Most applications containing the group per season.
    public var maxApplications: Int?
    /// Most applications containing the group in a row.
    public var maxConsecutive: Int?
    /// Largest share (0...1) of the season's applications of the same scheme.
    public var maxShare: Double?
    /// Where the limit comes from.
    public var source: String

    /// Creates a limit; at least one of the maxima is expected.
    public init(
        scheme: String, group: String, culture: EntityID? = nil, maxApplications: Int? = nil,
        maxConsecutive: Int? = nil, maxShare: Double? = nil, source: String
    ) {
        self.scheme = scheme
        self.group = group
        self.culture = culture
        self.maxApplications = maxApplications
        self.maxConsecutive = maxConsecutive
        self.maxShare = maxShare
        self.source = source
    }

    /// The group as a mode of action, to compare with a substance's.
    public var modeOfAction: ModeOfAction { ModeOfAction(scheme: scheme, group: group) }

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey { case scheme, group, culture, maxApplications, maxConsecutive, maxShare, source }
}

/// Two products the catalog marks as not to be mixed in one tank.
public struct TankIncompatibility: Sendable, Hashable, Codable {
    /// One of the two products.
    public var product: EntityID
    /// The other product.
    public var other: EntityID
    /// Why they must not be mixed, in the requested locale.
    public var reason: String

    /// Creates an incompatibility.
    public init(product: EntityID, other: EntityID, reason: String) {
        self.product = product
        self.other = other
        self.reason = reason
    }

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey { case product, other, reason }
}

/// How an alternative product relates to the one it replaces.
public enum AlternativeRelation: String, Sendable, Codable, CaseIterable, Hashable {
    /// No substance and no known mode-of-action group in common: the first choice for
    /// resistance management.
    case otherModeOfAction = "other_mode_of_action"
    /// The same active substances (a generic).
    case sameSubstance = "same_substance"
    /// Another substance of a shared mode-of-action group.
    case sameModeOfAction = "same_mode_of_action"
}

/// A product registered for the same use as another one.
public struct Alternative: Sendable, Hashable, Codable, Identifiable {
    /// The alternative product.
    public var id: EntityID
    /// Its name.
    public var name: String
    /// Its registration number, if the catalog has one.
    public var registrationNumber: String?
    /// How it relates to the original product; the ranking's first key.
    public var relation: AlternativeRelation
    /// Its active ingredients with their groups.
    public var ingredients: [UseIngredient]
    /// Mode-of-action group codes of the ingredients ("FRAC 3"), without repeats.
    public var groups: [String]
    /// How many of the original's (culture, pest) pairs this product also covers.
    public var sharedUses: Int

    /// Creates an alternative.
    public init(
        id: EntityID, name: String, registrationNumber: String?, relation: AlternativeRelation,
        ingredients: [UseIngredient], groups: [String], sharedUses: Int
    ) {
        self.id = id
        self.name = name
        self.registrationNumber = registrationNumber
        self.relation = relation
        self.ingredients = ingredients
        self.groups = groups
        self.sharedUses = sharedUses
    }

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey { case id, name, registrationNumber, relation, ingredients, groups, sharedUses }
}
