import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: SeasonPlanUseCase {
    /// The plan's products and their uses on `culture` or a group above it, read in a few
    /// statements for the whole plan.
    public func planFacts(products ids: [EntityID], culture: EntityID, locale: String) throws -> (
        products: [EntityID: Product], uses: [EntityID: [Use]]
    ) {
        guard !ids.isEmpty else { return ([:], [:]) }
        let texts = texts(locale)
        // A handful of statements for the whole plan, not a card and a use list per product.
        return try read { db in
            var products: [EntityID: Product] = [:]
            for row in try db.rows(
                """
                SELECT p.id, p.category, p.registration_number, p.registration_expiry,
                  \(texts.name("product", owner: "p.id")) AS name
                FROM products p WHERE p.id IN \(ids)
                """)
            {
                let id: String = row["id"]
                products[id] = Product(
                    id: id, name: row["name"] ?? id, category: ProductCategory(rawValue: row["category"]) ?? .other,
                    registrationNumber: row.text("registration_number"), registrationExpiry: row.text("registration_expiry"))
            }
            for (id, ingredients) in try activeIngredients(db, productIDs: ids, texts: texts) {
                products[id]?.ingredients = ingredients
            }
            let useRows = try db.rows(
                """
                SELECT u.*, \(texts.name("product", owner: "u.product_id")) AS product_name FROM uses u
                WHERE u.product_id IN \(ids) AND EXISTS (
                  SELECT 1 FROM use_cultures uc JOIN culture_ancestors ca
                  ON ca.culture_id = \(culture) AND ca.ancestor_id = uc.culture_id WHERE uc.use_id = u.id)
                ORDER BY u.product_id, u.id
                """)
            let useIDs: [String] = useRows.map { $0["id"] }
            var cultures: [String: [EntityRef]] = [:], pests: [String: [UsePest]] = [:]
            if !useIDs.isEmpty {
                for row in try db.rows("SELECT use_id, culture_id FROM use_cultures WHERE use_id IN \(useIDs)") {
                    cultures[row["use_id"], default: []].append(EntityRef(id: row["culture_id"], name: row["culture_id"]))
                }
                for row in try db.rows("SELECT use_id, pest_id, effect FROM use_pests WHERE use_id IN \(useIDs)") {
                    pests[row["use_id"], default: []].append(
                        UsePest(
                            pest: EntityRef(id: row["pest_id"], name: row["pest_id"]),
                            effect: PestEffect(rawValue: row["effect"]) ?? .full))
                }
            }
            var uses: [EntityID: [Use]] = [:]
            for row in useRows {
                let id: String = row["id"], productID: String = row["product_id"]
                uses[productID, default: []].append(
                    Use(
                        id: id, product: EntityRef(id: productID, name: row["product_name"] ?? productID),
                        cultures: cultures[id] ?? [], pests: pests[id] ?? [],
                        dose: Dose(from: row["dose_from"], to: row["dose_to"], unit: row.text("dose_unit")),
                        water: Dose(from: row["water_from"], to: row["water_to"], unit: row.text("water_unit")),
                        phiDays: row["phi_days"], maxApplications: row["max_applications"],
                        intervalDays: row["interval_days"],
                        bbch: (row["bbch_from"] as Int?).map { BBCHRange(from: $0, to: row["bbch_to"] ?? $0) }))
            }
            return (products, uses)
        }
    }
}
