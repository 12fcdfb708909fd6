import Foundation

/// A field as the farm knows it this season: where it is, how large, what grows on it, and
/// when it was sown and is expected to be harvested (the date the harvest gate is checked
/// against).
public struct Field: Sendable, Hashable, Codable {
    /// Made where the field was first written (a phone, a command line), so the same field
    /// written twice is stored once.
    public var id: UUID
    /// The name the farm calls it by ("Field 7"); unique within the journal, case aside.
    public var name: String
    /// Hectares.
    public var area: Double
    /// A point on the field (WGS 84), the geographic reference Regulation (EU) 2023/564 asks for.
    public var location: FieldLocation?
    /// The field's outline as a GeoJSON Polygon, kept as written.
    public var boundary: String?
    /// The culture grown this season (a catalog id).
    public var culture: EntityID
    /// The sowing date, if known.
    public var sown: PlanDate?
    /// The expected harvest date, if known.
    public var harvest: PlanDate?
    /// When the field was written.
    public var writtenAt: Date

    /// Creates a field.
    public init(
        id: UUID = UUID(), name: String, area: Double, location: FieldLocation? = nil, boundary: String? = nil,
        culture: EntityID, sown: PlanDate? = nil, harvest: PlanDate? = nil, writtenAt: Date
    ) {
        self.id = id
        self.name = name
        self.area = area
        self.location = location
        self.boundary = boundary
        self.culture = culture
        self.sown = sown
        self.harvest = harvest
        self.writtenAt = writtenAt
    }
}

/// A point in WGS 84 degrees.
public struct FieldLocation: Sendable, Hashable, Codable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    /// Creates a point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
