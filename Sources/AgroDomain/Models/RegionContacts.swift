import Foundation

/// An administrative region (oblast) or a city with the status of one.
public struct Region: Sendable, Hashable, Codable, Identifiable {
    /// Whether the place is an administrative region or a city.
    public enum Kind: String, Sendable, Codable, CaseIterable, Hashable {
        /// An administrative region; a city with a region's standing.
        case region, city
    }
    /// Region code, e.g. "KZ-AKM".
    public var id: EntityID
    /// The region's name in the requested locale.
    public var name: String
    /// Region or city.
    public var kind: Kind
    /// Administrative centre.
    public var centre: Coordinates
    /// The name of the centre (the regional capital), if it has one.
    public var centreName: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name, kind, centre, centreName
    }

    /// A region with its centre.
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
    /// Stable id of the representative.
    public var id: EntityID
    /// The region the representative covers.
    public var region: EntityRef
    /// Full name.
    public var name: String
    /// Job title, in the requested locale.
    public var position: String?
    /// Phone number as written for dialling.
    public var phone: String?
    /// Email address.
    public var email: String?
    /// Path or URL of a photo.
    public var photo: String?
    /// Where the representative is based; defaults to the region's centre.
    public var location: Coordinates?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, region, name, position, phone, email, photo, location
    }

    /// A representative of the catalog's company in a region.
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
    /// Stable id of the distributor.
    public var id: EntityID
    /// The region the distributor serves.
    public var region: EntityRef
    /// Company name.
    public var name: String
    /// Postal address, in the requested locale.
    public var address: String?
    /// Phone number.
    public var phone: String?
    /// Email address.
    public var email: String?
    /// Website URL.
    public var website: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, region, name, address, phone, email, website
    }

    /// A distributor in a region.
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
    /// The region.
    public var region: Region
    /// The company's representatives there.
    public var representatives: [Representative]
    /// The distributors there.
    public var distributors: [Distributor]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case region, representatives, distributors
    }

    /// Everyone to call in `region`.
    public init(region: Region, representatives: [Representative], distributors: [Distributor]) {
        self.region = region
        self.representatives = representatives
        self.distributors = distributors
    }
}
