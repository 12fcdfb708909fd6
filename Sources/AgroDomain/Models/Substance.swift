import Foundation

/// A mode-of-action classification: the scheme (FRAC, IRAC, HRAC) and the group code
/// within it, both kept as strings because codes like "M03" or "4A" are not numbers.
public struct ModeOfAction: Sendable, Hashable, Codable {
    /// The classification: "HRAC", "FRAC" or "IRAC".
    public var scheme: String
    /// The group within it ("4", "3", "1B").
    public var group: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case scheme, group
    }

    /// Group `group` of classification `scheme`.
    public init(scheme: String, group: String) {
        self.scheme = scheme
        self.group = group
    }

    /// "FRAC 11", "IRAC 4A".
    public var label: String { "\(scheme) \(group)" }
}

/// An active substance.
public struct Substance: Sendable, Hashable, Codable, Identifiable {
    /// Stable id ("tebuconazole").
    public var id: EntityID
    /// Common name in the requested locale.
    public var name: String
    /// IUPAC name.
    public var iupacName: String?
    /// CAS registry number.
    public var casNumber: String?
    /// Mode-of-action group.
    public var modeOfAction: ModeOfAction?
    /// A description in the requested locale.
    public var description: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, iupacName, casNumber, modeOfAction, description
    }

    /// An active substance.
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
