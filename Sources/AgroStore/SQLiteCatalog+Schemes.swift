import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: SchemesUseCase {
    /// The protection schemes of a culture (or of its groups), stages in BBCH order.
    public func schemes(cultureID: EntityID, locale: String) throws -> [ProtectionScheme] {
        let texts = texts(locale)
        return try read { db in
            // The culture's own schemes, else those of the nearest group above it.
            let owners = try db.rows(
                """
                SELECT s.id, s.culture_id, ca.depth FROM culture_ancestors ca
                JOIN schemes s ON s.culture_id = ca.ancestor_id
                WHERE ca.culture_id = \(cultureID) ORDER BY ca.depth, s.id
                """)
            guard let nearest: Int = owners.first?["depth"] else { return [] }
            return try owners.filter { $0["depth"] == nearest }.map { owner in
                try scheme(db, id: owner["id"], texts: texts)
            }
        }
    }

    private func scheme(_ db: Database, id: String, texts: LocalizedSQL) throws -> ProtectionScheme {
        // The id comes from a query on the same snapshot; a damaged catalog is reported, not trapped on.
        guard
            let head = try db.row(
                """
                SELECT s.culture_id, \(texts.field("scheme", "title", owner: "s.id")) AS title,
                  \(texts.field("scheme", "description", owner: "s.id")) AS description,
                  \(texts.name("culture", owner: "s.culture_id")) AS culture_name
                FROM schemes s WHERE s.id = \(id)
                """)
        else { throw CatalogError.corrupt(path: path, reason: "schemes/\(id)") }
        let stageRows = try db.rows(
            """
            SELECT st.id, st.bbch_from, st.bbch_to, \(texts.name("scheme_stage", owner: "st.id")) AS name
            FROM scheme_stages st WHERE st.scheme_id = \(id) ORDER BY st.position
            """)
        let treatmentRows = try db.rows(
            """
            SELECT t.id, t.scheme_stage_id, t.product_id, t.dose_from, t.dose_to, t.dose_unit,
              \(texts.name("product", owner: "t.product_id")) AS product_name,
              \(texts.field("scheme_treatment", "note", owner: "t.id")) AS note
            FROM scheme_treatments t JOIN scheme_stages st ON st.id = t.scheme_stage_id
            WHERE st.scheme_id = \(id) ORDER BY t.scheme_stage_id, t.position
            """)
        var pests: [Int64: [EntityRef]] = [:]
        for row in try db.rows(
            """
            SELECT tp.scheme_treatment_id, tp.pest_id, \(texts.name("pest", owner: "tp.pest_id")) AS name
            FROM scheme_treatment_pests tp JOIN scheme_treatments t ON t.id = tp.scheme_treatment_id
            JOIN scheme_stages st ON st.id = t.scheme_stage_id
            WHERE st.scheme_id = \(id) ORDER BY tp.scheme_treatment_id, tp.position
            """)
        {
            pests[row["scheme_treatment_id"], default: []].append(
                EntityRef(id: row["pest_id"], name: row["name"] ?? row["pest_id"]))
        }
        var treatments: [Int64: [SchemeTreatment]] = [:]
        for row in treatmentRows {
            treatments[row["scheme_stage_id"], default: []].append(
                SchemeTreatment(
                    product: EntityRef(id: row["product_id"], name: row["product_name"] ?? row["product_id"]),
                    dose: Dose(from: row["dose_from"], to: row["dose_to"], unit: row.text("dose_unit")),
                    pests: pests[row["id"]] ?? [], note: row.text("note")))
        }
        let stages = stageRows.map { row in
            SchemeStage(
                bbch: BBCHRange(from: row["bbch_from"], to: row["bbch_to"]), name: row["name"] ?? "",
                treatments: treatments[row["id"]] ?? [])
        }
        let cultureID: String = head["culture_id"]
        return ProtectionScheme(
            id: id, culture: EntityRef(id: cultureID, name: head["culture_name"] ?? cultureID),
            title: head["title"] ?? id, description: head.text("description"), stages: stages)
    }

    /// The cultures that have a scheme, for "schemes exist for: ..." messages.
    public func culturesWithSchemes(locale: String) throws -> [EntityRef] {
        let texts = texts(locale)
        return try read { db in
            try db.rows(
                """
                SELECT DISTINCT s.culture_id AS id, \(texts.name("culture", owner: "s.culture_id")) AS name
                FROM schemes s ORDER BY name COLLATE agro_name
                """
            ).map { EntityRef(id: $0["id"], name: $0["name"] ?? $0["id"]) }
        }
    }
}
