import Foundation

/// A season's protection programme for one culture, by growth stage.
public struct ProtectionScheme: Sendable, Hashable, Codable, Identifiable {
    /// Stable id ("scheme-winter-wheat").
    public var id: EntityID
    /// The culture the scheme is for.
    public var culture: EntityRef
    /// Title in the requested locale.
    public var title: String
    /// An introduction in the requested locale.
    public var description: String?
    /// Stages in growth order.
    public var stages: [SchemeStage]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, culture, title, description, stages
    }

    /// A scheme; stages in BBCH order.
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
    /// The BBCH codes the stage spans.
    public var bbch: BBCHRange
    /// The stage's name in the requested locale.
    public var name: String
    /// What to apply at this stage.
    public var treatments: [SchemeTreatment]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case bbch, name, treatments
    }

    /// A stage of a scheme.
    public init(bbch: BBCHRange, name: String, treatments: [SchemeTreatment]) {
        self.bbch = bbch
        self.name = name
        self.treatments = treatments
    }
}

/// A product recommended at a scheme stage, with its dose and target pests.
public struct SchemeTreatment: Sendable, Hashable, Codable {
    /// The product to apply.
    public var product: EntityRef
    /// The dose the scheme recommends.
    public var dose: Dose
    /// The pests it is aimed at.
    public var pests: [EntityRef]
    /// A remark in the requested locale.
    public var note: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case product, dose, pests, note
    }

    /// A treatment of a stage.
    public init(product: EntityRef, dose: Dose, pests: [EntityRef], note: String? = nil) {
        self.product = product
        self.dose = dose
        self.pests = pests
        self.note = note
    }
}
