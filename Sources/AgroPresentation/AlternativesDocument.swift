import AgroDomain

/// `agro product ID --alternatives`: the products registered for the same uses as `product`,
/// as JSON (`{"product": {"id", "name"}, "items": [...]}`), CSV rows and a table.
package struct AlternativesDocument: Encodable, Sendable {
    package var product: EntityRef
    package var items: [Alternative]

    /// The alternatives `items` to `product`.
    package init(product: EntityRef, items: [Alternative]) {
        self.product = product
        self.items = items
    }

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case product, items }

    /// The CSV header and one row per alternative.
    package var csvLines: [String] {
        [CSV.line(["id", "name", "registration", "relation", "ingredients", "shared_uses"])]
            + items.map { item in
                CSV.line([
                    item.id, item.name, item.registrationNumber ?? "", item.relation.rawValue, Self.groups(item.ingredients),
                    String(item.sharedUses),
                ])
            }
    }

    /// The table: the product and its own ingredients with their groups, then the alternatives;
    /// `ingredients`: the product's.
    package func lines(ingredients: [ActiveIngredient], environment: Environment) -> [String] {
        let s = environment.strings
        let own = ingredients.map { "\($0.substance.name) [\($0.modeOfAction?.label ?? "?")]" }.joined(separator: " + ")
        var lines = [environment.bold(s("alternatives.title", product.name)), "  " + own, ""]
        guard !items.isEmpty else { return lines + ["  " + s("list.empty")] }
        lines += TextTable(
            headers: [
                s("column.product"), s("column.relation"), s("column.ingredients"), s("column.sharedUses"), s("column.id"),
            ],
            rows: items.map {
                [$0.name, s("relation.\($0.relation.rawValue)"), Self.groups($0.ingredients), String($0.sharedUses), $0.id]
            }
        ).render(width: environment.tableWidth - 2).map { "  " + $0 }
        return lines
    }

    /// "tebuconazole [FRAC 3] + prothioconazole [FRAC 3]".
    private static func groups(_ ingredients: [UseIngredient]) -> String {
        ingredients.map { "\($0.name) [\($0.group ?? "?")]" }.joined(separator: " + ")
    }
}
