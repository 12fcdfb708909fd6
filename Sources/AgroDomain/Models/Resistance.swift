import Foundation

/// A resistance-management limit for one mode-of-action group, as published by FRAC, IRAC or
/// HRAC, optionally for one culture group only.
public struct GroupLimit: Sendable, Hashable, Codable {
    public var scheme: String
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

    public var modeOfAction: ModeOfAction { ModeOfAction(scheme: scheme, group: group) }
}

/// Two products the catalog marks as not to be mixed in one tank.
public struct TankIncompatibility: Sendable, Hashable, Codable {
    public var product: EntityID
    public var other: EntityID
    public var reason: String

    public init(product: EntityID, other: EntityID, reason: String) {
        self.product = product
        self.other = other
        self.reason = reason
    }
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
    public var id: EntityID
    public var name: String
    public var registrationNumber: String?
    public var relation: AlternativeRelation
    public var ingredients: [UseIngredient]
    public var groups: [String]
    /// How many of the original's (culture, pest) pairs this product also covers.
    public var sharedUses: Int

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
}
