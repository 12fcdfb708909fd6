import AgroContent
import AgroDomain
import AgroStore
import Foundation

/// Writes a catalog `factor` times larger than the content sources: `factor` copies of every
/// product, use, pest, substance, culture, scheme and news item; companies, statements,
/// obligations, regions, representatives and distributors once.
///
/// Copy 0 is the content itself, so its ids and names are those of the bundled catalog. Copy
/// k > 0 suffixes every id with `~k` and every name, title and registration number with
/// ` ~k`, and points its references (parents, ingredients, uses, scheme treatments) inside the
/// same copy. Records are written in a fixed order, so the same content and factor always
/// give the same file.
struct CatalogGenerator {
    let content: CatalogContent
    let factor: Int
    /// Share of the uses whose dose is raised by 10 % (evenly spread), the version raised by one:
    /// the same catalog's next release.
    var mutate: Double = 0

    func write(to path: String) throws -> [String: Int] {
        precondition(factor >= 1, "factor must be at least 1")
        var header = content.header
        header.identity += ".x\(factor)"
        if mutate > 0 { header.version += 1 }
        let writer = try CatalogWriter(path: path, header: header)
        do {
            try content.companies.forEach(writer.add)
            try content.statements.forEach(writer.add)
            try content.obligations.forEach(writer.add)
            try content.regions.forEach(writer.add)
            try content.representatives.forEach(writer.add)
            try content.distributors.forEach(writer.add)
            for copy in 0..<factor {
                let c = Copy(index: copy)
                try content.substances.map(c.substance).forEach(writer.add)
                try content.cultures.map(c.culture).forEach(writer.add)
                try content.pests.map(c.pest).forEach(writer.add)
                try content.products.map(c.product).forEach(writer.add)
                for (offset, use) in content.uses.map(c.use).enumerated() {
                    try writer.add(isMutated(copy * content.uses.count + offset) ? mutated(use) : use)
                }
                try content.schemes.map(c.scheme).forEach(writer.add)
                try content.news.map(c.news).forEach(writer.add)
            }
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
        var counts = content.counts
        for key in ["products", "uses", "pests", "substances", "cultures", "schemes", "news"] {
            counts[key, default: 0] *= factor
        }
        return counts
    }

    /// Whether the use at this position (over all copies) changes: every (1/mutate)-th one.
    private func isMutated(_ position: Int) -> Bool {
        guard mutate > 0 else { return false }
        let step = max(1, Int((1 / mutate).rounded()))
        return position % step == 0
    }

    private func mutated(_ use: CatalogRecord.Use) -> CatalogRecord.Use {
        var use = use
        use.dose.from = use.dose.from.map { ($0 * 1.1 * 1000).rounded() / 1000 }
        use.dose.to = use.dose.to.map { ($0 * 1.1 * 1000).rounded() / 1000 }
        return use
    }

    /// The renaming of one copy.
    struct Copy {
        let index: Int

        func id(_ id: EntityID) -> EntityID { index == 0 ? id : "\(id)~\(index)" }
        func id(_ id: EntityID?) -> EntityID? { id.map { self.id($0) } }
        func text(_ text: String) -> String { index == 0 ? text : "\(text) ~\(index)" }
        func text(_ text: String?) -> String? { text.map { self.text($0) } }
        func name(_ name: LocalizedText) -> LocalizedText { name.mapValues { self.text($0) } }

        func substance(_ s: CatalogRecord.Substance) -> CatalogRecord.Substance {
            var s = s
            s.id = id(s.id)
            s.name = name(s.name)
            return s
        }

        func culture(_ c: CatalogRecord.Culture) -> CatalogRecord.Culture {
            var c = c
            c.id = id(c.id)
            c.name = name(c.name)
            c.parentIDs = c.parentIDs.map { id($0) }
            return c
        }

        func pest(_ p: CatalogRecord.Pest) -> CatalogRecord.Pest {
            var p = p
            p.id = id(p.id)
            p.name = name(p.name)
            return p
        }

        func product(_ p: CatalogRecord.Product) -> CatalogRecord.Product {
            var p = p
            p.id = id(p.id)
            p.name = name(p.name)
            p.registrationNumber = text(p.registrationNumber)
            p.originalProductID = id(p.originalProductID)
            p.ingredients = p.ingredients.map { ingredient in
                var ingredient = ingredient
                ingredient.substanceID = id(ingredient.substanceID)
                return ingredient
            }
            return p
        }

        func use(_ u: CatalogRecord.Use) -> CatalogRecord.Use {
            var u = u
            u.id = id(u.id)
            u.productID = id(u.productID)
            u.cultureIDs = u.cultureIDs.map { id($0) }
            u.pests = u.pests.map { CatalogRecord.Target(pestID: id($0.pestID), effect: $0.effect) }
            return u
        }

        func scheme(_ s: CatalogRecord.Scheme) -> CatalogRecord.Scheme {
            var s = s
            s.id = id(s.id)
            s.cultureID = id(s.cultureID)
            s.title = name(s.title)
            s.stages = s.stages.map { stage in
                var stage = stage
                stage.treatments = stage.treatments.map { treatment in
                    var treatment = treatment
                    treatment.productID = id(treatment.productID)
                    treatment.pestIDs = treatment.pestIDs.map { id($0) }
                    return treatment
                }
                return stage
            }
            return s
        }

        func news(_ n: CatalogRecord.News) -> CatalogRecord.News {
            var n = n
            n.id = id(n.id)
            n.title = name(n.title)
            return n
        }
    }
}
