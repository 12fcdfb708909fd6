import Foundation

/// A season's protection programme for one culture, by growth stage.
public struct ProtectionScheme: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var culture: EntityRef
    public var title: String
    public var description: String?
    /// Stages in growth order.
    public var stages: [SchemeStage]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, culture, title, description, stages
    }

    public init(id: EntityID, culture: EntityRef, title: String, description: String? = nil, stages: [SchemeStage]) {
        self.id = id
        self.culture = culture
        self.title = title
        self.description = description
        self.stages = stages
    }
}

/// One step of a protection scheme: a BBCH window and what to apply in it.
public struct SchemeStage: Sendable, Hashable, Codable {
    public var bbch: BBCHRange
    public var name: String
    public var treatments: [SchemeTreatment]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case bbch, name, treatments
    }

    public init(bbch: BBCHRange, name: String, treatments: [SchemeTreatment]) {
        self.bbch = bbch
        self.name = name
        self.treatments = treatments
    }
}

/// A product recommended at a scheme stage, with its dose and target pests.
public struct SchemeTreatment: Sendable, Hashable, Codable {
    public var product: EntityRef
    public var dose: Dose
    public var pests: [EntityRef]
    public var note: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case product, dose, pests, note
    }

    public init(product: EntityRef, dose: Dose, pests: [EntityRef], note: String? = nil) {
        self.product = product
        self.dose = dose
        self.pests = pests
        self.note = note
    }
}
