import Foundation

/// Criteria for a products list. Every criterion is an id already resolved by the caller;
/// nil means "any".
public struct ProductFilter: Sendable, Hashable, Codable {
    /// Products with a use against this pest.
    public var pest: EntityID?
    /// Matches uses registered on this culture or on any group it belongs to.
    public var culture: EntityID?
    /// Products containing this active substance.
    public var substance: EntityID?
    /// Products of this category.
    public var category: ProductCategory?
    /// Products of this company.
    public var company: EntityID?
    /// First letter of the name in the reading locale (case- and diacritic-insensitive).
    public var letter: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case pest, culture, substance, category, company, letter
    }

    /// A filter; every criterion left nil matches everything.
    public init(
        pest: EntityID? = nil, culture: EntityID? = nil, substance: EntityID? = nil,
        category: ProductCategory? = nil, company: EntityID? = nil, letter: String? = nil
    ) {
        self.pest = pest
        self.culture = culture
        self.substance = substance
        self.category = category
        self.company = company
        self.letter = letter
    }
}

/// Criteria for a pests list.
public struct PestFilter: Sendable, Hashable, Codable {
    /// Pests with a registered use on this culture or its groups.
    public var culture: EntityID?
    /// Pests of this kind only.
    public var kind: PestKind?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case culture, kind
    }

    /// A filter; nil criteria match everything.
    public init(culture: EntityID? = nil, kind: PestKind? = nil) {
        self.culture = culture
        self.kind = kind
    }
}

/// A search hit.
public struct SearchHit: Sendable, Hashable, Codable, Identifiable {
    /// What kind of entity was found.
    public var kind: EntityKind
    /// Its id.
    public var id: EntityID
    /// Its name in the requested locale.
    public var name: String
    /// A short text giving the hit its context (category, Latin name, date, ...).
    public var detail: String?
    /// Lower is better.
    public var rank: Double

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case kind, id, name, detail, rank
    }

    /// A search result.
    public init(kind: EntityKind, id: EntityID, name: String, detail: String?, rank: Double) {
        self.kind = kind
        self.id = id
        self.name = name
        self.detail = detail
        self.rank = rank
    }
}
