import Foundation

/// Coordinates typed by the user that cannot be used.
public enum CoordinateError: UserFacingError, Equatable {
    /// Not "LAT,LON" (or two arguments LAT LON).
    case badFormat(String)
    /// A part that is not a plain decimal number.
    case notANumber(part: String, what: String)
    /// A latitude outside -90...90.
    case latitudeOutOfRange(Double)
    /// A longitude outside -180...180.
    case longitudeOutOfRange(Double)

    /// One line saying what was expected.
    public var message: String {
        let expected = "expected LAT,LON in decimal degrees, e.g. 51.51,-0.13 (or LAT LON as two arguments)"
        switch self {
        case let .badFormat(text):
            return "\(expected); got \"\(text)\""
        case let .notANumber(part, what):
            return "\(what) must be a decimal number like 51.51 or -0.13; got \"\(part)\""
        case let .latitudeOutOfRange(value):
            return "latitude must be between -90 and 90; got \(value.plainText)"
        case let .longitudeOutOfRange(value):
            return "longitude must be between -180 and 180; got \(value.plainText)"
        }
    }
}

/// Reads coordinates from command-line text.
///
/// ```swift
/// let astana = try CoordinateParser.parse("51.17,71.45")
/// let london = try CoordinateParser.parse(latitude: "51.51", longitude: "-0.13")
/// ```
public enum CoordinateParser {
    /// "LAT,LON" ("51.51,-0.13", spaces around the comma allowed) or "LAT LON".
    public static func parse(_ text: String) throws -> Coordinates {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts: [Substring]
        if trimmed.contains(",") {
            parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        } else {
            parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        }
        guard parts.count == 2, parts.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw CoordinateError.badFormat(text)
        }
        return try parse(latitude: String(parts[0]), longitude: String(parts[1]))
    }

    /// Two separate arguments.
    public static func parse(latitude: String, longitude: String) throws -> Coordinates {
        let lat = try number(latitude, what: "latitude")
        let lon = try number(longitude, what: "longitude")
        guard (-90...90).contains(lat) else { throw CoordinateError.latitudeOutOfRange(lat) }
        guard (-180...180).contains(lon) else { throw CoordinateError.longitudeOutOfRange(lon) }
        return Coordinates(latitude: lat, longitude: lon)
    }

    /// Numbers only: an optional sign, digits, optionally a point and more digits. Rejects what
    /// Double() would also take ("nan", "inf", "1e3", "0x1p3"), which are no one's coordinates.
    private static func number(_ text: String, what: String) throws -> Double {
        let part = text.trimmingCharacters(in: .whitespaces)
        var body = Substring(part)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digitsOnly = pieces.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !body.isEmpty, digitsOnly, let value = Double(part) else {
            throw CoordinateError.notANumber(part: part, what: what)
        }
        return value
    }
}

/// A region with its distance from a point.
public struct RegionDistance: Sendable, Hashable, Codable {
    /// The region whose centre is nearest.
    public var region: Region
    /// Kilometres from the point to the region's centre.
    public var distanceKm: Double

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case region, distanceKm
    }

    /// `region` at `distanceKm` kilometres.
    public init(region: Region, distanceKm: Double) {
        self.region = region
        self.distanceKm = distanceKm
    }
}

/// A representative with the place used for the distance and the distance itself.
public struct RepresentativeDistance: Sendable, Hashable, Codable {
    /// The nearest representative.
    public var representative: Representative
    /// Where the representative is taken to be: their own location, else their region's centre.
    public var location: Coordinates?
    /// Kilometres from the point; nil when neither a location nor a known region gives a place.
    public var distanceKm: Double?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case representative, location, distanceKm
    }

    /// `representative` at `location`, `distanceKm` away; both nil when unknown.
    public init(representative: Representative, location: Coordinates?, distanceKm: Double?) {
        self.representative = representative
        self.location = location
        self.distanceKm = distanceKm
    }
}

/// Nearest regions and representatives: pure functions over lists the caller loads.
public enum NearestPlaces {
    /// The region whose centre is nearest to `point`.
    ///
    /// The catalog has region centres, not borders, so "the region the point lies in" is
    /// approximated by the nearest centre; near a border this can name the neighbour.
    public static func region(nearestTo point: Coordinates, in regions: [Region]) -> RegionDistance? {
        Self.regions(sortedByDistanceFrom: point, regions).first
    }

    /// Regions by distance of their centre from `point`, nearest first (ties by id).
    public static func regions(sortedByDistanceFrom point: Coordinates, _ regions: [Region]) -> [RegionDistance] {
        regions.map { RegionDistance(region: $0, distanceKm: point.distance(to: $0.centre)) }
            .sorted { ($0.distanceKm, $0.region.id) < ($1.distanceKm, $1.region.id) }
    }

    /// Representatives by distance from `point`, nearest first; those with no known place last,
    /// by name. A representative's place is their own location, else the centre of their region
    /// looked up in `regions`.
    public static func representatives(
        sortedByDistanceFrom point: Coordinates, _ representatives: [Representative], regions: [Region]
    ) -> [RepresentativeDistance] {
        let centres = Dictionary(regions.map { ($0.id, $0.centre) }, uniquingKeysWith: { first, _ in first })
        let measured = representatives.map { representative -> RepresentativeDistance in
            let location = representative.location ?? centres[representative.region.id]
            return RepresentativeDistance(
                representative: representative, location: location, distanceKm: location.map { point.distance(to: $0) })
        }
        return measured.sorted { a, b in
            switch (a.distanceKm, b.distanceKm) {
            case let (x?, y?):
                return x != y
                    ? x < y : (a.representative.name, a.representative.id) < (b.representative.name, b.representative.id)
            case (.some, .none): return true
            case (.none, .some): return false
            case (.none, .none):
                return (a.representative.name, a.representative.id) < (b.representative.name, b.representative.id)
            }
        }
    }

    /// The nearest representative with a known place.
    public static func representative(
        nearestTo point: Coordinates, in representatives: [Representative], regions: [Region]
    ) -> RepresentativeDistance? {
        self.representatives(sortedByDistanceFrom: point, representatives, regions: regions)
            .first { $0.distanceKm != nil }
    }
}
