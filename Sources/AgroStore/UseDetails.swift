import AgroDomain
import Foundation
import GRDB

/// What a compared use's row shows besides names: the use's dose, water, intervals and stages,
/// its product's registration and ingredients, read once per catalog (the Swiss register's
/// 25,876 uses and 2,501 products: a few MB). A uses page's 20 rows are then made without a
/// statement: reading them (the uses, their products, the ingredients, GRDB's look-up of every
/// column by name) was about a third of the page's time. The texts that depend on the locale
/// (names, the application area) are kept apart, per locale.
struct UseDetails: Sendable {
    /// One use's own values, as its row shows them.
    struct Use: Sendable {
        let productID: String
        let dose: Dose
        let water: Dose?
        let phiDays: Int?
        let maxApplications: Int?
        let intervalDays: Int?
        let bbch: BBCHRange?
    }

    /// One product's registration and active ingredients (in label order).
    struct Product: Sendable {
        let registrationNumber: String?
        let registrationExpiry: String?
        let ingredients: [Ingredient]
    }

    /// An active ingredient without its substance's name (a name is per locale).
    struct Ingredient: Sendable {
        let substanceID: String
        let concentration: Double?
        let unit: String?
        let group: String?
    }

    /// Only uses whose product is in the catalog: the comparison joins the products.
    let uses: [String: Use]
    let products: [String: Product]

    init(_ db: Database) throws {
        var ingredients: [String: [Ingredient]] = [:]
        // Columns by position: the same values as the comparison's statements read by name.
        // Through cursors, row by row: the uses' rows all at once raised the server's resident
        // memory by more than what is kept.
        let ingredientRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT pi.product_id, pi.substance_id, pi.concentration, pi.unit, s.moa_scheme, s.moa_group
                FROM product_ingredients pi JOIN substances s ON s.id = pi.substance_id
                ORDER BY pi.product_id, pi.position
                """)
        while let row = try ingredientRows.next() {
            let product: String = row[0]
            let group = row.text(at: 4).flatMap { scheme in row.text(at: 5).map { ModeOfAction(scheme: scheme, group: $0) } }
            ingredients[product, default: []].append(
                Ingredient(substanceID: row[1], concentration: row[2], unit: row.text(at: 3), group: group?.label))
        }
        var products: [String: Product] = [:]
        let productRows = try Row.fetchCursor(db, sql: "SELECT id, registration_number, registration_expiry FROM products")
        while let row = try productRows.next() {
            let id: String = row[0]
            products[id] = Product(
                registrationNumber: row.text(at: 1), registrationExpiry: row.text(at: 2), ingredients: ingredients[id] ?? [])
        }
        var uses: [String: Use] = [:]
        let useRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT u.id, u.product_id, u.dose_from, u.dose_to, u.dose_unit, u.water_from, u.water_to, u.water_unit,
                  u.phi_days, u.max_applications, u.interval_days, u.bbch_from, u.bbch_to
                FROM uses u JOIN products p ON p.id = u.product_id
                """)
        while let row = try useRows.next() {
            let water = Dose(from: row[5], to: row[6], unit: row.text(at: 7))
            // The product's id shared with the products table's key, not a copy per use.
            let product: String = row[1]
            uses[row[0]] = Use(
                productID: products.index(forKey: product).map { products.keys[$0] } ?? product,
                dose: Dose(from: row[2], to: row[3], unit: row.text(at: 4)).closed,
                water: water.isEmpty ? nil : water.closed, phiDays: row[8], maxApplications: row[9], intervalDays: row[10],
                bbch: (row[11] as Int?).map { BBCHRange(from: $0, to: row[12] ?? $0) })
        }
        self.uses = uses
        self.products = products
    }
}
