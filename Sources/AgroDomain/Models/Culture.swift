import Foundation

/// A crop, or a group of crops. Cultures form a directed acyclic graph: winter wheat
/// sits under wheat, wheat under cereals, and a culture may have several parents.
public struct Culture: Sendable, Hashable, Codable, Identifiable {
    /// Stable id ("winter-wheat").
    public var id: EntityID
    /// Name in the requested locale.
    public var name: String
    /// Latin (botanical) name, when known.
    public var latinName: String?
    /// Its code in the EPPO Global Database ("TRZAW"), when the catalog gives one.
    public var eppoCode: String?
    /// A description, in the requested locale.
    public var description: String?
    /// Direct parents (groups this culture belongs to).
    public var parents: [EntityRef]
    /// Direct children (members of this group).
    public var children: [EntityRef]
    /// Principal growth stages on the BBCH scale, in order.
    public var growthStages: [GrowthStage]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, latinName, eppoCode, description, parents, children, growthStages
    }

    /// A culture with its place in the culture graph.
    public init(
        id: EntityID, name: String, latinName: String? = nil, eppoCode: String? = nil, description: String? = nil,
        parents: [EntityRef] = [], children: [EntityRef] = [], growthStages: [GrowthStage] = []
    ) {
        self.id = id
        self.name = name
        self.latinName = latinName
        self.eppoCode = eppoCode
        self.description = description
        self.parents = parents
        self.children = children
        self.growthStages = growthStages
    }
}

/// A node of the culture tree as listed by `agro cultures`.
public struct CultureNode: Sendable, Hashable, Codable, Identifiable {
    /// Stable id.
    public var id: EntityID
    /// Name in the requested locale.
    public var name: String
    /// The groups directly above it (none for a root).
    public var parentIDs: [EntityID]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, parentIDs
    }

    /// A node of the culture graph.
    public init(id: EntityID, name: String, parentIDs: [EntityID]) {
        self.id = id
        self.name = name
        self.parentIDs = parentIDs
    }
}

/// A named span of the BBCH scale ("Tillering", BBCH 20-29).
public struct GrowthStage: Sendable, Hashable, Codable {
    /// The BBCH codes the stage spans.
    public var bbch: BBCHRange
    /// The stage's name in the requested locale ("tillering").
    public var name: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case bbch, name
    }

    /// A named growth stage.
    public init(bbch: BBCHRange, name: String) {
        self.bbch = bbch
        self.name = name
    }
}
