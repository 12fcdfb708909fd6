import Foundation

/// What sort of harmful organism a pest is.
public enum PestKind: String, Sendable, Codable, CaseIterable, Hashable {
    case insect, mite, disease, weed, nematode, mollusc, rodent, other
}

/// A harmful organism: weed, disease, insect, ...
public struct Pest: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var name: String
    public var kind: PestKind
    public var latinName: String?
    public var description: String?
    public var images: [Link]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, kind, latinName, description, images
    }

    public init(
        id: EntityID, name: String, kind: PestKind, latinName: String? = nil,
        description: String? = nil, images: [Link] = []
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.latinName = latinName
        self.description = description
        self.images = images
    }
}
