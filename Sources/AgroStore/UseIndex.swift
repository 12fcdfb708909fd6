import Foundation
import GRDB

/// The catalog's uses as ids in memory, read once per catalog (a few MB for a national
/// register): the uses naming each pest, the cultures of each use, each culture's ancestry
/// (itself included) and each use's product. A comparison of a pest on a culture, the uses
/// page's question, is then found without a statement: about 380 uses for the Swiss register's
/// largest pair, where SQLite took several index searches each.
struct UseIndex: Sendable {
    let usesOfPest: [String: [String]]
    let culturesOfUse: [String: [String]]
    let ancestors: [String: Set<String>]
    /// Only uses whose product is in the catalog (the comparison joins the products).
    let productOfUse: [String: String]

    init(_ db: Database) throws {
        var usesOfPest: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT pest_id, use_id FROM use_pests") {
            usesOfPest[row[0], default: []].append(row[1])
        }
        var culturesOfUse: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT use_id, culture_id FROM use_cultures") {
            culturesOfUse[row[0], default: []].append(row[1])
        }
        var ancestors: [String: Set<String>] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT culture_id, ancestor_id FROM culture_ancestors") {
            ancestors[row[0], default: []].insert(row[1])
        }
        var productOfUse: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT u.id, u.product_id FROM uses u JOIN products p ON p.id = u.product_id") {
            productOfUse[row[0]] = row[1]
        }
        self.usesOfPest = usesOfPest
        self.culturesOfUse = culturesOfUse
        self.ancestors = ancestors
        self.productOfUse = productOfUse
    }

    /// The uses (id and product) naming `pest` on `culture` or a group above it, unordered.
    func uses(pest: String, culture: String) -> [(id: String, product: String)] {
        guard let line = ancestors[culture], let candidates = usesOfPest[pest] else { return [] }
        return candidates.compactMap { use in
            guard let product = productOfUse[use], culturesOfUse[use]?.contains(where: line.contains) == true else {
                return nil
            }
            return (use, product)
        }
    }
}
