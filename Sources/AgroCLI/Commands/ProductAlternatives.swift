import AgroDomain
import AgroPresentation
import Foundation

/// `agro product ID --alternatives`: what else is registered for the same uses.
enum ProductAlternatives {
    static func show(id: EntityID, culture: EntityID?, pest: EntityID?, catalog: some Catalog, environment: Environment) throws {
        let locale = environment.locale
        guard let product = try catalog.product(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .product, id: id)
        }
        let found = try catalog.alternatives(to: id, culture: culture, pest: pest, locale: locale)
        let s = environment.strings
        let groups = { (ingredients: [UseIngredient]) in
            ingredients.map { "\($0.name) [\($0.group ?? "?")]" }.joined(separator: " + ")
        }
        switch environment.format {
        case .json:
            try environment.printJSON(Document(product: EntityRef(id: product.id, name: product.name), items: found))
        case .csv:
            environment.output.write(CSV.line(["id", "name", "registration", "relation", "ingredients", "shared_uses"]) + "\n")
            for item in found {
                environment.output.write(
                    CSV.line([
                        item.id, item.name, item.registrationNumber ?? "", item.relation.rawValue, groups(item.ingredients),
                        String(item.sharedUses),
                    ]) + "\n")
            }
        case .table:
            let own = product.ingredients.map { "\($0.substance.name) [\($0.modeOfAction?.label ?? "?")]" }.joined(
                separator: " + ")
            var lines = [environment.bold(s("alternatives.title", product.name)), "  " + own, ""]
            if found.isEmpty {
                lines.append("  " + s("list.empty"))
            } else {
                lines += TextTable(
                    headers: [
                        s("column.product"), s("column.relation"), s("column.ingredients"), s("column.sharedUses"),
                        s("column.id"),
                    ],
                    rows: found.map {
                        [$0.name, s("relation.\($0.relation.rawValue)"), groups($0.ingredients), String($0.sharedUses), $0.id]
                    }
                ).render(width: environment.tableWidth - 2).map { "  " + $0 }
            }
            environment.print(lines)
        }
    }

    struct Document: Encodable {
        var product: EntityRef
        var items: [Alternative]
    }
}
