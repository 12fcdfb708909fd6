import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: ContactsUseCase {
    /// Regions and cities, with their centres, by name.
    public func regions(locale: String) throws -> [Region] {
        let texts = texts(locale)
        return try read { db in
            try db.rows(regionsQuery(texts) + " ORDER BY name_key COLLATE agro_name, id").map(Self.region(from:))
        }
    }

    /// The representatives and distributors of a region; nil when there is no such region.
    public func contacts(regionID: EntityID, locale: String) throws -> RegionContacts? {
        let texts = texts(locale)
        return try read { db in
            guard let region = try db.row(regionsQuery(texts) + " WHERE id = \(regionID)").map(Self.region(from:))
            else { return nil }
            let representatives = try db.rows(
                representativesQuery(texts) + " WHERE r.region_id = \(regionID) ORDER BY r.id"
            ).map(Self.representative(from:))
            let distributors = try db.rows(
                """
                SELECT d.*, \(texts.name("distributor", owner: "d.id")) AS name,
                  \(texts.field("distributor", "address", owner: "d.id")) AS address,
                  \(texts.name("region", owner: "d.region_id")) AS region_name
                FROM distributors d WHERE d.region_id = \(regionID) ORDER BY name COLLATE agro_name, d.id
                """
            ).map { row in
                Distributor(
                    id: row["id"], region: EntityRef(id: row["region_id"], name: row["region_name"] ?? row["region_id"]),
                    name: row["name"] ?? row["id"], address: row.text("address"), phone: row.text("phone"),
                    email: row.text("email"), website: row.text("website"))
            }
            return RegionContacts(region: region, representatives: representatives, distributors: distributors)
        }
    }

    /// Every representative, with their region.
    public func representatives(locale: String) throws -> [Representative] {
        let texts = texts(locale)
        return try read { db in
            try db.rows(representativesQuery(texts) + " ORDER BY r.id").map(Self.representative(from:))
        }
    }

    private func regionsQuery(_ texts: LocalizedSQL) -> SQL {
        """
        SELECT * FROM (
          SELECT r.*, \(texts.name("region", owner: "r.id")) AS name,
            \(texts.field("region", "name_key", owner: "r.id")) AS name_key,
            \(texts.field("region", "centre_name", owner: "r.id")) AS centre_name
          FROM regions r)
        """
    }

    private func representativesQuery(_ texts: LocalizedSQL) -> SQL {
        """
        SELECT r.*, \(texts.name("representative", owner: "r.id")) AS name,
          \(texts.field("representative", "position", owner: "r.id")) AS position,
          \(texts.name("region", owner: "r.region_id")) AS region_name,
          g.latitude AS region_latitude, g.longitude AS region_longitude
        FROM representatives r JOIN regions g ON g.id = r.region_id
        """
    }

    static func region(from row: Row) -> Region {
        Region(
            id: row["id"], name: row["name"] ?? row["id"], kind: Region.Kind(rawValue: row["kind"]) ?? .region,
            centre: Coordinates(latitude: row["latitude"], longitude: row["longitude"]),
            centreName: row.text("centre_name"))
    }

    static func representative(from row: Row) -> Representative {
        // A representative without a location of their own is placed at the region's centre.
        let location: Coordinates
        if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
            location = Coordinates(latitude: latitude, longitude: longitude)
        } else {
            location = Coordinates(latitude: row["region_latitude"], longitude: row["region_longitude"])
        }
        return Representative(
            id: row["id"], region: EntityRef(id: row["region_id"], name: row["region_name"] ?? row["region_id"]),
            name: row["name"] ?? row["id"], position: row.text("position"), phone: row.text("phone"),
            email: row.text("email"), photo: row.text("photo"), location: location)
    }
}

extension SQLiteCatalog: NewsUseCase {
    /// The catalog's news and articles, newest first.
    public func news(kind: NewsKind?, page: PageRequest, locale: String) throws -> Page<NewsSummary> {
        let texts = texts(locale)
        let whereClause: SQL = kind.map { " WHERE n.kind = \($0.rawValue)" } ?? ""
        let ordered: SQL = """
            SELECT n.id, n.kind, n.date, \(texts.field("news", "title", owner: "n.id")) AS title
            FROM news n
            """ + whereClause + " ORDER BY n.date DESC, n.id"
        return try read { db in
            try db.page(count: "SELECT COUNT(*) FROM news n" + whereClause, ordered: ordered, page) { rows in
                rows.map { row in
                    NewsSummary(
                        id: row["id"], kind: NewsKind(rawValue: row["kind"]) ?? .news,
                        title: row["title"] ?? row["id"], date: row["date"])
                }
            }
        }
    }

    /// One news item with its body; nil when there is none with that id.
    public func newsItem(id: EntityID, locale: String) throws -> NewsItem? {
        let texts = texts(locale)
        return try read { db in
            try db.row(
                """
                SELECT n.*, \(texts.field("news", "title", owner: "n.id")) AS title,
                  \(texts.field("news", "summary", owner: "n.id")) AS summary,
                  \(texts.field("news", "body_html", owner: "n.id")) AS body_html
                FROM news n WHERE n.id = \(id)
                """
            ).map { row in
                NewsItem(
                    id: id, kind: NewsKind(rawValue: row["kind"]) ?? .news, title: row["title"] ?? id,
                    date: row["date"], summary: row.text("summary"), bodyHTML: row["body_html"] ?? "",
                    image: row.text("image"), source: row.text("source"))
            }
        }
    }
}
