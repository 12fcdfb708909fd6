import Foundation

/// What sort of harmful organism a pest is.
public enum PestKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// The kinds of harmful organism.
    case insect, mite, disease, weed, nematode, mollusc, rodent, other
}

/// A harmful organism: weed, disease, insect, ...
public struct Pest: Sendable, Hashable, Codable, Identifiable {
    /// Stable id ("avena-fatua").
    public var id: EntityID
    /// Name in the requested locale.
    public var name: String
    /// Weed, disease, insect, ...
    public var kind: PestKind
    /// Scientific name.
    public var latinName: String?
    /// Its code in the EPPO Global Database ("SEPTTR"), when the catalog gives one.
    public var eppoCode: String?
    /// A description in the requested locale.
    public var description: String?
    /// Pictures of the pest.
    public var images: [Link]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, kind, latinName, eppoCode, description, images
    }

    /// A pest as the catalog describes it.
    public init(
        id: EntityID, name: String, kind: PestKind, latinName: String? = nil, eppoCode: String? = nil,
        description: String? = nil, images: [Link] = []
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.latinName = latinName
        self.eppoCode = eppoCode
        self.description = description
        self.images = images
    }
}
