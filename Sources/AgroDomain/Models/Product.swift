import Foundation

/// What a product is used for, as printed on its label.
public enum ProductCategory: String, Sendable, Codable, CaseIterable, Hashable {
    /// Label categories.
    case herbicide, fungicide, insecticide, acaricide, nematicide, molluscicide, rodenticide
    /// Seed treatment ("seed_treatment" in the catalog and the JSON).
    case seedTreatment = "seed_treatment"
    /// Plant growth regulator ("growth_regulator").
    case growthRegulator = "growth_regulator"
    /// Further label categories.
    case desiccant, adjuvant, fertilizer, other
}

/// How a product came onto the market: its own registration, a sale permission
/// under another product's registration, or a parallel import.
public enum ProductOrigin: String, Sendable, Codable, CaseIterable, Hashable {
    /// The product's own registration.
    case registered
    /// Sold under another product's registration ("sale_permission").
    case salePermission = "sale_permission"
    /// Imported from another country under a domestic product's registration ("parallel_import").
    case parallelImport = "parallel_import"
}

/// A crop-protection product as the catalog describes it.
public struct Product: Sendable, Hashable, Codable, Identifiable {
    /// Stable id ("glyphosate-360-sl").
    public var id: EntityID
    /// Trade name in the requested locale.
    public var name: String
    /// What the product is for.
    public var category: ProductCategory
    /// Formulation code (EC, SC, WG, ...).
    public var formulation: String?
    /// The registrant or manufacturer.
    public var company: EntityRef?
    /// The registration number ("KZ-0123-Г", "W-7113"); nil when the catalog has none.
    public var registrationNumber: String?
    /// Expiry of the registration, as an ISO 8601 date (YYYY-MM-DD).
    public var registrationExpiry: String?
    /// Own registration, sale permission or parallel import.
    public var origin: ProductOrigin
    /// For a sale permission or a parallel import: the product it derives from.
    public var originalProduct: EntityRef?
    /// Last day the product may be sold (withdrawn products), ISO 8601 date.
    public var soldOutDeadline: String?
    /// Last day remaining stock may be used, ISO 8601 date.
    public var exhaustionDeadline: String?
    /// Active substances with their concentrations and modes of action.
    public var ingredients: [ActiveIngredient]
    /// GHS classification.
    public var hazard: Hazard
    /// Label, certificates, images, sources.
    public var links: [Link]
    /// Titled descriptive texts in the requested locale.
    public var sections: [TextSection]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, category, formulation, company, registrationNumber, registrationExpiry, origin,
            originalProduct, soldOutDeadline, exhaustionDeadline, ingredients, hazard, links, sections
    }

    /// A product card.
    public init(
        id: EntityID, name: String, category: ProductCategory, formulation: String? = nil,
        company: EntityRef? = nil, registrationNumber: String? = nil, registrationExpiry: String? = nil,
        origin: ProductOrigin = .registered, originalProduct: EntityRef? = nil,
        soldOutDeadline: String? = nil, exhaustionDeadline: String? = nil,
        ingredients: [ActiveIngredient] = [], hazard: Hazard = Hazard(), links: [Link] = [],
        sections: [TextSection] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.formulation = formulation
        self.company = company
        self.registrationNumber = registrationNumber
        self.registrationExpiry = registrationExpiry
        self.origin = origin
        self.originalProduct = originalProduct
        self.soldOutDeadline = soldOutDeadline
        self.exhaustionDeadline = exhaustionDeadline
        self.ingredients = ingredients
        self.hazard = hazard
        self.links = links
        self.sections = sections
    }
}

/// A line of a products list: enough to choose, not the whole card.
public struct ProductSummary: Sendable, Hashable, Codable, Identifiable {
    /// Stable id.
    public var id: EntityID
    /// Trade name in the requested locale.
    public var name: String
    /// What the product is for.
    public var category: ProductCategory
    /// Formulation code (EC, SC, ...).
    public var formulation: String?
    /// The company's name.
    public var company: String?
    /// The registration number; encoded as null when absent, so the JSON key is always there.
    public var registrationNumber: String?
    /// Active substances with their concentrations (mode of action left out).
    public var ingredients: [ActiveIngredient]
    /// Expiry of the registration, as an ISO 8601 date (YYYY-MM-DD), so a list can mark
    /// expired registrations as the card does.
    public var registrationExpiry: String?

    /// A line of a products list.
    public init(
        id: EntityID, name: String, category: ProductCategory, formulation: String?,
        company: String?, registrationNumber: String?, ingredients: [ActiveIngredient],
        registrationExpiry: String? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.formulation = formulation
        self.company = company
        self.registrationNumber = registrationNumber
        self.ingredients = ingredients
        self.registrationExpiry = registrationExpiry
    }

    enum CodingKeys: String, CodingKey {
        case id, name, category, formulation, company, registrationNumber, ingredients, registrationExpiry
    }

    /// `registrationNumber` is always present in JSON (null when the product has none), so
    /// every product item carries the documented keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(category, forKey: .category)
        try container.encodeIfPresent(formulation, forKey: .formulation)
        try container.encodeIfPresent(company, forKey: .company)
        try container.encode(registrationNumber, forKey: .registrationNumber)
        try container.encode(ingredients, forKey: .ingredients)
        try container.encodeIfPresent(registrationExpiry, forKey: .registrationExpiry)
    }
}

/// An active substance in a product, with its concentration.
public struct ActiveIngredient: Sendable, Hashable, Codable {
    /// The active substance.
    public var substance: EntityRef
    /// Its concentration in the product, in `unit`.
    public var concentration: Double?
    /// Unit of the concentration: "g/l", "g/kg", "%", ...
    public var unit: String?
    /// The substance's mode of action (HRAC, FRAC or IRAC group).
    public var modeOfAction: ModeOfAction?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case substance, concentration, unit, modeOfAction
    }

    /// A substance at a concentration.
    public init(substance: EntityRef, concentration: Double?, unit: String?, modeOfAction: ModeOfAction?) {
        self.substance = substance
        self.concentration = concentration
        self.unit = unit
        self.modeOfAction = modeOfAction
    }
}

/// Hazard classification of a product (GHS / CLP).
public struct Hazard: Sendable, Hashable, Codable {
    /// GHS pictogram codes: "GHS07", "GHS09", ...
    public var pictograms: [String]
    /// "Danger" or "Warning", in the requested locale.
    public var signalWord: String?
    /// Hazard (H, EUH) statements.
    public var hazardStatements: [Statement]
    /// Precautionary (P, SP) statements.
    public var precautionaryStatements: [Statement]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case pictograms, signalWord, hazardStatements, precautionaryStatements
    }

    /// A classification; empty by default.
    public init(
        pictograms: [String] = [], signalWord: String? = nil,
        hazardStatements: [Statement] = [], precautionaryStatements: [Statement] = []
    ) {
        self.pictograms = pictograms
        self.signalWord = signalWord
        self.hazardStatements = hazardStatements
        self.precautionaryStatements = precautionaryStatements
    }

    /// Whether there is nothing to show.
    public var isEmpty: Bool {
        pictograms.isEmpty && signalWord == nil && hazardStatements.isEmpty && precautionaryStatements.isEmpty
    }
}

/// A coded statement (H302, P280, SP1, ...) with its text in the requested locale.
public struct Statement: Sendable, Hashable, Codable {
    /// The code ("H302").
    public var code: String
    /// Its wording in the requested locale.
    public var text: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case code, text
    }

    /// A statement with its text.
    public init(code: String, text: String) {
        self.code = code
        self.text = text
    }
}

/// A link attached to an entity: label, certificate, image, source.
public struct Link: Sendable, Hashable, Codable {
    /// What a link points at.
    public enum Kind: String, Sendable, Codable, CaseIterable, Hashable {
        /// The label, a registration certificate, a picture, a safety data sheet ("safety_data_sheet"), the maker's site, the data source.
        case label, certificate, image
        case safetyDataSheet = "safety_data_sheet"
        case website, source
    }
    /// What the link points at.
    public var kind: Kind
    /// The URL, as the catalog gives it.
    public var url: String
    /// A title for people.
    public var title: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case kind, url, title
    }

    /// A link of `kind` to `url`.
    public init(kind: Kind, url: String, title: String? = nil) {
        self.kind = kind
        self.url = url
        self.title = title
    }
}

/// A titled block of descriptive text (mode of action, advantages, compatibility, ...).
public struct TextSection: Sendable, Hashable, Codable {
    /// The section's title in the requested locale.
    public var title: String
    /// Its text, plain, in the requested locale.
    public var body: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case title, body
    }

    /// A titled text.
    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
