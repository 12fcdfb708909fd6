import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: CulturesUseCase {
    /// Every culture and group, with its parents.
    public func cultures(locale: String) throws -> [CultureNode] {
        let texts = texts(locale)
        return try read { db in
            var parents: [String: [String]] = [:]
            for row in try db.rows("SELECT culture_id, parent_id FROM culture_parents ORDER BY culture_id, parent_id") {
                parents[row[0], default: []].append(row[1])
            }
            return try db.rows(
                """
                SELECT * FROM (SELECT c.id, \(texts.name("culture", owner: "c.id")) AS name,
                  \(texts.field("culture", "name_key", owner: "c.id")) AS name_key FROM cultures c)
                ORDER BY name_key COLLATE agro_name, id
                """
            ).map { row in
                CultureNode(id: row["id"], name: row["name"] ?? row["id"], parentIDs: parents[row["id"]] ?? [])
            }
        }
    }

    /// A culture with its groups, members and growth stages; nil when unknown.
    public func culture(id: EntityID, locale: String) throws -> Culture? {
        let texts = texts(locale)
        return try read { db in
            guard
                let row = try db.row(
                    """
                    SELECT c.id, c.latin_name, \(eppoCode("c")), \(texts.name("culture", owner: "c.id")) AS name,
                      \(texts.field("culture", "description", owner: "c.id")) AS description
                    FROM cultures c WHERE c.id = \(id)
                    """)
            else { return nil }
            let related = { (sql: SQL) throws -> [EntityRef] in
                try db.rows(sql).map { EntityRef(id: $0["id"], name: $0["name"] ?? $0["id"]) }
            }
            let parents = try related(
                """
                SELECT parent_id AS id, \(texts.name("culture", owner: "parent_id")) AS name
                FROM culture_parents WHERE culture_id = \(id) ORDER BY name COLLATE agro_name
                """)
            // Qualified: inside the name subquery a bare culture_id is culture_i18n's own column,
            // which named every member after the first culture of the table.
            let children = try related(
                """
                SELECT cp.culture_id AS id, \(texts.name("culture", owner: "cp.culture_id")) AS name
                FROM culture_parents cp WHERE cp.parent_id = \(id) ORDER BY name COLLATE agro_name
                """)
            let stages = try db.rows(
                """
                SELECT g.bbch_from, g.bbch_to, \(texts.name("growth_stage", owner: "g.id")) AS name
                FROM growth_stages g WHERE g.culture_id = \(id) ORDER BY g.position
                """
            ).map { GrowthStage(bbch: BBCHRange(from: $0["bbch_from"], to: $0["bbch_to"]), name: $0["name"] ?? "") }
            return Culture(
                id: id, name: row["name"] ?? id, latinName: row.text("latin_name"), eppoCode: row.text("eppo_code"),
                description: row.text("description"), parents: parents, children: children, growthStages: stages)
        }
    }

    /// The culture and every group above it.
    public func cultureAncestry(id: EntityID) throws -> [EntityID] {
        try read { db in
            try db.column(
                "SELECT ancestor_id FROM culture_ancestors WHERE culture_id = \(id) ORDER BY depth, ancestor_id",
                as: String.self)
        }
    }
}

extension SQLiteCatalog: PestsUseCase {
    /// Pests by name, filtered by culture (its groups included) and kind.
    public func pests(_ filter: PestFilter, page: PageRequest, locale: String) throws -> Page<Pest> {
        let texts = texts(locale)
        var conditions: [SQL] = []
        if let kind = filter.kind { conditions.append("p.kind = \(kind.rawValue)") }
        if let culture = filter.culture {
            conditions.append(
                "p.id IN (SELECT up.pest_id FROM use_pests up WHERE up.use_id IN (" + usesQuery(UseFilter(culture: culture))
                    + "))")
        }
        let whereClause: SQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let ordered: SQL = """
            SELECT * FROM (
              SELECT p.id, p.kind, p.latin_name, \(eppoCode("p")),
                \(texts.name("pest", owner: "p.id")) AS name,
                \(texts.field("pest", "name_key", owner: "p.id")) AS name_key
              FROM pests p
            """ + whereClause + ") ORDER BY name_key COLLATE agro_name, id"
        return try read { db in
            try db.page(count: "SELECT COUNT(*) FROM pests p" + whereClause, ordered: ordered, page) { rows in
                rows.map { row in
                    Pest(
                        id: row["id"], name: row["name"] ?? row["id"], kind: PestKind(rawValue: row["kind"]) ?? .other,
                        latinName: row.text("latin_name"), eppoCode: row.text("eppo_code"))
                }
            }
        }
    }

    /// A pest; nil when unknown.
    public func pest(id: EntityID, locale: String) throws -> Pest? {
        let texts = texts(locale)
        return try read { db in
            guard
                let row = try db.row(
                    """
                    SELECT p.id, p.kind, p.latin_name, \(eppoCode("p")), \(texts.name("pest", owner: "p.id")) AS name,
                      \(texts.field("pest", "description", owner: "p.id")) AS description
                    FROM pests p WHERE p.id = \(id)
                    """)
            else { return nil }
            let images = try db.column(
                "SELECT url FROM pest_images WHERE pest_id = \(id) ORDER BY position", as: String.self)
            return Pest(
                id: id, name: row["name"] ?? id, kind: PestKind(rawValue: row["kind"]) ?? .other,
                latinName: row.text("latin_name"), eppoCode: row.text("eppo_code"), description: row.text("description"),
                images: images.map { Link(kind: .image, url: $0) })
        }
    }
}

extension SQLiteCatalog: SubstancesUseCase {
    /// Active substances by name.
    public func substances(page: PageRequest, locale: String) throws -> Page<Substance> {
        let texts = texts(locale)
        let ordered: SQL = """
            SELECT * FROM (
              SELECT s.*, \(texts.name("substance", owner: "s.id")) AS name,
                \(texts.field("substance", "name_key", owner: "s.id")) AS name_key
              FROM substances s)
            ORDER BY name_key COLLATE agro_name, id
            """
        return try read { db in
            try db.page(count: "SELECT COUNT(*) FROM substances", ordered: ordered, page) { $0.map(Self.substance(from:)) }
        }
    }

    /// A substance; nil when unknown.
    public func substance(id: EntityID, locale: String) throws -> Substance? {
        let texts = texts(locale)
        return try read { db in
            try db.row(
                """
                SELECT s.*, \(texts.name("substance", owner: "s.id")) AS name,
                  \(texts.field("substance", "description", owner: "s.id")) AS description
                FROM substances s WHERE s.id = \(id)
                """
            ).map(Self.substance(from:))
        }
    }

    static func substance(from row: Row) -> Substance {
        Substance(
            id: row["id"], name: row["name"] ?? row["id"], iupacName: row.text("iupac_name"),
            casNumber: row.text("cas_number"), modeOfAction: modeOfAction(row),
            description: row.hasColumn("description") ? row.text("description") : nil)
    }
}
