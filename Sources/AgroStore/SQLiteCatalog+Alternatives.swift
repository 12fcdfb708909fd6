import AgroDomain
import Foundation
import GRDB

extension SQLiteCatalog: AlternativesUseCase {
    /// Products sharing a (culture, pest) pair of `product`'s uses, ranked by their relation
    /// (another mode of action first), then by how many pairs they share.
    public func alternatives(to product: EntityID, culture: EntityID?, pest: EntityID?, locale: String) throws -> [Alternative] {
        let texts = texts(locale)
        // The product's own (culture, pest) pairs, narrowed to --culture/--pest when given.
        var own: SQL = """
            SELECT DISTINCT uc.culture_id, up.pest_id FROM uses u
            JOIN use_cultures uc ON uc.use_id = u.id JOIN use_pests up ON up.use_id = u.id
            WHERE u.id IN (
            """ + usesQuery(UseFilter(product: product, pest: pest, culture: culture)) + ")"
        if let pest { own += " AND up.pest_id = \(pest)" }
        // Another product's use matches a pair on the same pest and a culture that is the
        // pair's, one of its groups, or (with --culture) one of the given culture's groups.
        let cultureMatch: SQL =
            culture.map { culture in
                "uc.culture_id IN (SELECT ancestor_id FROM culture_ancestors WHERE culture_id = \(culture))"
            } ?? "uc.culture_id IN (SELECT ancestor_id FROM culture_ancestors WHERE culture_id = own.culture_id)"
        let candidates: SQL = """
            WITH own(culture_id, pest_id) AS (
            """ + own + """
                )
                SELECT u.product_id, COUNT(DISTINCT own.culture_id || char(31) || own.pest_id) AS shared,
                  p.registration_number,
                  \(texts.name("product", owner: "u.product_id")) AS name,
                  \(texts.field("product", "name_key", owner: "u.product_id")) AS name_key
                FROM own JOIN use_pests up ON up.pest_id = own.pest_id
                JOIN uses u ON u.id = up.use_id JOIN use_cultures uc ON uc.use_id = u.id
                JOIN products p ON p.id = u.product_id
                WHERE u.product_id <> \(product) AND
                """ + " " + cultureMatch + " GROUP BY u.product_id"
        return try read { db in
            let rows = try db.rows(candidates)
            let ids: [String] = rows.map { $0["product_id"] }
            let ingredients = try useIngredients(db, productIDs: ids + [product], texts: texts)
            let mine = ingredients[product] ?? []
            let mySubstances = Set(mine.map(\.substanceID)), myGroups = Set(mine.compactMap(\.group))
            let ranked = rows.map { row -> (Alternative, String) in
                let id: String = row["product_id"]
                let theirs = ingredients[id] ?? []
                let substances = Set(theirs.map(\.substanceID)), groups = Set(theirs.compactMap(\.group))
                let relation: AlternativeRelation =
                    !substances.isDisjoint(with: mySubstances)
                    ? .sameSubstance
                    : !groups.isDisjoint(with: myGroups) ? .sameModeOfAction : .otherModeOfAction
                return (
                    Alternative(
                        id: id, name: row["name"] ?? id, registrationNumber: row.text("registration_number"),
                        relation: relation, ingredients: theirs, groups: Self.groups(theirs), sharedUses: row["shared"]),
                    row["name_key"] ?? id
                )
            }
            let rank: (AlternativeRelation) -> Int = { relation in
                switch relation {
                case .otherModeOfAction: return 0
                case .sameSubstance: return 1
                case .sameModeOfAction: return 2
                }
            }
            return ranked.sorted { a, b in
                let ra = rank(a.0.relation), rb = rank(b.0.relation)
                if ra != rb { return ra < rb }
                if a.0.sharedUses != b.0.sharedUses { return a.0.sharedUses > b.0.sharedUses }
                if a.1 != b.1 { return NameOrder.precedes(a.1, b.1) }
                return a.0.id < b.0.id
            }.map(\.0)
        }
    }
}
