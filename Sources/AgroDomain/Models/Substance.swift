import Foundation

/// A mode-of-action classification: the scheme (FRAC, IRAC, HRAC) and the group code
/// within it, both kept as strings because codes like "M03" or "4A" are not numbers.
public struct ModeOfAction: Sendable, Hashable, Codable {
    public var scheme: String
    public var group: String

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case scheme, group
    }

    public init(scheme: String, group: String) {
        self.scheme = scheme
        self.group = group
    }

    /// "FRAC 11", "IRAC 4A".
    public var label: String { "\(scheme) \(group)" }
}

/// An active substance.
public struct Substance: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var name: String
    public var iupacName: String?
    public var casNumber: String?
    public var modeOfAction: ModeOfAction?
    public var description: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, iupacName, casNumber, modeOfAction, description
    }

    public init(
        id: EntityID, name: String, iupacName: String? = nil, casNumber: String? = nil,
        modeOfAction: ModeOfAction? = nil, description: String? = nil
    ) {
        self.id = id
        self.name = name
        self.iupacName = iupacName
        self.casNumber = casNumber
        self.modeOfAction = modeOfAction
        self.description = description
    }
}
