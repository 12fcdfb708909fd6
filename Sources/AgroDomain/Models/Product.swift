import Foundation

/// What a product is used for, as printed on its label.
public enum ProductCategory: String, Sendable, Codable, CaseIterable, Hashable {
    case herbicide, fungicide, insecticide, acaricide, nematicide, molluscicide, rodenticide
    case seedTreatment = "seed_treatment"
    case growthRegulator = "growth_regulator"
    case desiccant, adjuvant, fertilizer, other
}

/// How a product came onto the market: its own registration, a sale permission
/// under another product's registration, or a parallel import.
public enum ProductOrigin: String, Sendable, Codable, CaseIterable, Hashable {
    case registered
    case salePermission = "sale_permission"
    case parallelImport = "parallel_import"
}

/// A crop-protection product as the catalog describes it.
public struct Product: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var name: String
    public var category: ProductCategory
    /// Formulation code (EC, SC, WG, ...).
    public var formulation: String?
    public var company: EntityRef?
    public var registrationNumber: String?
    /// Expiry of the registration, as an ISO 8601 date (YYYY-MM-DD).
    public var registrationExpiry: String?
    public var origin: ProductOrigin
    /// For a sale permission or a parallel import: the product it derives from.
    public var originalProduct: EntityRef?
    /// Last day the product may be sold (withdrawn products), ISO 8601 date.
    public var soldOutDeadline: String?
    /// Last day remaining stock may be used, ISO 8601 date.
    public var exhaustionDeadline: String?
    public var ingredients: [ActiveIngredient]
    public var hazard: Hazard
    public var links: [Link]
    public var sections: [TextSection]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, category, formulation, company, registrationNumber, registrationExpiry, origin,
            originalProduct, soldOutDeadline, exhaustionDeadline, ingredients, hazard, links, sections
    }

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
    public var id: EntityID
    public var name: String
    public var category: ProductCategory
    public var formulation: String?
    public var company: String?
    public var registrationNumber: String?
    /// Active substances with their concentrations (mode of action left out).
    public var ingredients: [ActiveIngredient]
    /// Expiry of the registration, as an ISO 8601 date (YYYY-MM-DD), so a list can mark
    /// expired registrations as the card does.
    public var registrationExpiry: String?

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
    public var substance: EntityRef
    public var concentration: Double?
    /// Unit of the concentration: "g/l", "g/kg", "%", ...
    public var unit: String?
    public var modeOfAction: ModeOfAction?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case substance, concentration, unit, modeOfAction
    }

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
    public var signalWord: String?
    /// Hazard (H, EUH) statements.
    public var hazardStatements: [Statement]
    /// Precautionary (P, SP) statements.
    public var precautionaryStatements: [Statement]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case pictograms, signalWord, hazardStatements, precautionaryStatements
    }

    public init(
        pictograms: [String] = [], signalWord: String? = nil,
        hazardStatements: [Statement] = [], precautionaryStatements: [Statement] = []
    ) {
        self.pictograms = pictograms
        self.signalWord = signalWord
        self.hazardStatements = hazardStatements
        self.precautionaryStatements = precautionaryStatements
    }

    public var isEmpty: Bool {
        pictograms.isEmpty && signalWord == nil && hazardStatements.isEmpty && precautionaryStatements.isEmpty
    }
}

/// A coded statement (H302, P280, SP1, ...) with its text in the requested locale.
public struct Statement: Sendable, Hashable, Codable {
    public var code: String
    public var text: String

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case code, text
    }

    public init(code: String, text: String) {
        self.code = code
        self.text = text
    }
}

/// A link attached to an entity: label, certificate, image, source.
public struct Link: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable, Hashable {
        case label, certificate, image, safetyDataSheet = "safety_data_sheet", website, source
    }
    public var kind: Kind
    public var url: String
    public var title: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case kind, url, title
    }

    public init(kind: Kind, url: String, title: String? = nil) {
        self.kind = kind
        self.url = url
        self.title = title
    }
}

/// A titled block of descriptive text (mode of action, advantages, compatibility, ...).
public struct TextSection: Sendable, Hashable, Codable {
    public var title: String
    public var body: String

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case title, body
    }

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
