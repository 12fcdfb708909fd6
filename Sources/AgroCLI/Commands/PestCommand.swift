import AgroDomain
import AgroPresentation
import ArgumentParser

struct PestCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "pest", abstract: "Show a pest and the products registered against it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Pest id, name or Latin name.") var pest: String
    @Option(help: "Only uses on this culture or its groups (id or name).") var culture: String?

    func run() throws {
        let (environment, catalog, id) = try Environment.withCatalog(global, resolving: pest, as: .pest)
        let cultureID = try environment.resolve(culture, .culture, in: catalog)
        try Self.show(id: id, cultureID: cultureID, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, cultureID: EntityID?, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.pest(id: id, cultureID: cultureID, catalog: catalog, environment: environment)
        let (pest, uses) = (document.pest, document.uses)
        try environment.print(document) {
            UsesTable.csv(uses)
        } table: {
            let s = environment.strings
            var facts = [(s("field.id"), pest.id), (s("field.kind"), environment.name(of: pest.kind))]
            if let latin = pest.latinName { facts.append((s("field.latin"), latin)) }
            if let code = pest.eppoCode { facts.append((s("field.eppo"), code)) }
            var lines = Card.head(name: pest.name, facts: facts, description: pest.description, environment: environment)
            lines += ["", environment.bold(s("section.productsAgainst", Set(uses.map(\.product.id)).count))]
            let rows = uses.map { use in
                [
                    use.product.name, use.cultures.map(\.name).joined(separator: ", "), environment.label(use.dose),
                    use.phiDays.map { s.plural("use.days", $0) } ?? "", use.bbch.map(s.label) ?? "",
                ]
            }
            if rows.isEmpty {
                lines.append("  " + s("list.empty"))
            } else {
                lines += TextTable(
                    headers: [s("column.product"), s("column.cultures"), s("column.dose"), s("column.phi"), "BBCH"],
                    rows: rows
                ).render(width: environment.tableWidth - 2).map { "  " + $0 }
            }
            lines += [
                "",
                s(
                    "hint.compareUses",
                    "agro uses --pest \(pest.id)" + (cultureID.map { " --culture \($0)" } ?? " --culture CULTURE")),
            ]
            return lines
        }
    }
}
