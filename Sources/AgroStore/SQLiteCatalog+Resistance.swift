import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: ResistanceUseCase {
    /// Every group limit, by scheme, group and culture; none in a schema 1 catalog.
    public func groupLimits() throws -> [GroupLimit] {
        // Schema 1 catalogs have no limits table.
        guard info.schemaVersion >= 2 else { return [] }
        return try read { db in
            try db.rows("SELECT * FROM group_limits ORDER BY scheme, group_code, culture_id").map { row in
                GroupLimit(
                    scheme: row["scheme"], group: row["group_code"], culture: row.text("culture_id"),
                    maxApplications: row["max_applications"], maxConsecutive: row["max_consecutive"],
                    maxShare: row["max_share"], source: row["source"])
            }
        }
    }

    /// The incompatibilities between any two of `products`, with the reason in `locale`; none in a schema 1 catalog.
    public func tankIncompatibilities(among products: [EntityID], locale: String) throws -> [TankIncompatibility] {
        guard info.schemaVersion >= 2, products.count > 1 else { return [] }
        let texts = texts(locale)
        return try read { db in
            try db.rows(
                """
                SELECT t.product_id, t.other_id, \(texts.field("tank_incompatibility", "reason", owner: "t.id")) AS reason
                FROM tank_incompatibilities t
                WHERE t.product_id IN \(products) AND t.other_id IN \(products) ORDER BY t.id
                """
            ).map { TankIncompatibility(product: $0["product_id"], other: $0["other_id"], reason: $0["reason"] ?? "") }
        }
    }
}
