import Foundation

/// A stable identifier of a catalog entity (product, culture, pest, ...).
///
/// Identifiers survive catalog replacements, so user data (favorites) refers to them.
public typealias EntityID = String

/// The kinds of entity a catalog holds; used by search results and favorites.
public enum EntityKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// The kinds of entity a catalog holds, as ids and names refer to them.
    case product, substance, culture, pest, news, region, company
}

/// A reference to an entity with its display name in the requested locale; also what a lookup
/// of an id or a name typed by the user finds.
public struct EntityRef: Sendable, Hashable, Codable {
    /// The entity's stable id.
    public var id: EntityID
    /// Its name in the requested locale.
    public var name: String

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case id, name
    }

    /// A reference to entity `id` called `name`.
    public init(id: EntityID, name: String) {
        self.id = id
        self.name = name
    }
}

/// A closed range on the BBCH growth-stage scale (00 ... 99).
public struct BBCHRange: Sendable, Hashable, Codable {
    /// First BBCH code of the range (0-99).
    public var from: Int
    /// Last BBCH code of the range (0-99), not below `from`.
    public var to: Int

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case from, to
    }

    /// The range `from` through `to`.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// Whether `stage` lies within the range.
    public func contains(_ stage: Int) -> Bool { from <= stage && stage <= to }

    /// The range as printed on labels: "BBCH 13-32" or "BBCH 30".
    public var label: String { from == to ? "BBCH \(from)" : "BBCH \(from)-\(to)" }
}

/// A geographic point in decimal degrees (WGS 84).
public struct Coordinates: Sendable, Hashable, Codable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case latitude, longitude
    }

    /// A point; see `CoordinateParser` for reading one from user input.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in kilometres (haversine on a 6371 km sphere).
    public func distance(to other: Coordinates) -> Double {
        let rad = Double.pi / 180
        let dLat = (other.latitude - latitude) * rad
        let dLon = (other.longitude - longitude) * rad
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude * rad) * cos(other.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
