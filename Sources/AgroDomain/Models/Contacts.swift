import Foundation

/// An administrative region (oblast) or a city with the status of one.
public struct Region: Sendable, Hashable, Codable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable, Hashable {
        case region, city
    }
    /// Region code, e.g. "KZ-AKM".
    public var id: EntityID
    public var name: String
    public var kind: Kind
    /// Administrative centre.
    public var centre: Coordinates
    public var centreName: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, kind, centre, centreName
    }

    public init(id: EntityID, name: String, kind: Kind, centre: Coordinates, centreName: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.centre = centre
        self.centreName = centreName
    }
}

/// A company representative responsible for a region.
public struct Representative: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var region: EntityRef
    public var name: String
    public var position: String?
    public var phone: String?
    public var email: String?
    public var photo: String?
    /// Where the representative is based; defaults to the region's centre.
    public var location: Coordinates?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, region, name, position, phone, email, photo, location
    }

    public init(
        id: EntityID, region: EntityRef, name: String, position: String? = nil, phone: String? = nil,
        email: String? = nil, photo: String? = nil, location: Coordinates? = nil
    ) {
        self.id = id
        self.region = region
        self.name = name
        self.position = position
        self.phone = phone
        self.email = email
        self.photo = photo
        self.location = location
    }
}

/// A dealer selling the company's products in a region.
public struct Distributor: Sendable, Hashable, Codable, Identifiable {
    public var id: EntityID
    public var region: EntityRef
    public var name: String
    public var address: String?
    public var phone: String?
    public var email: String?
    public var website: String?

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, region, name, address, phone, email, website
    }

    public init(
        id: EntityID, region: EntityRef, name: String, address: String? = nil, phone: String? = nil,
        email: String? = nil, website: String? = nil
    ) {
        self.id = id
        self.region = region
        self.name = name
        self.address = address
        self.phone = phone
        self.email = email
        self.website = website
    }
}

/// Everyone to call in one region.
public struct RegionContacts: Sendable, Hashable, Codable {
    public var region: Region
    public var representatives: [Representative]
    public var distributors: [Distributor]

    // The output contract (README, "JSON keys"): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case region, representatives, distributors
    }

    public init(region: Region, representatives: [Representative], distributors: [Distributor]) {
        self.region = region
        self.representatives = representatives
        self.distributors = distributors
    }
}
