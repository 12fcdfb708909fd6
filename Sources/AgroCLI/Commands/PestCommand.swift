import AgroDomain
import AgroPresentation
import ArgumentParser

struct PestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pest", _superCommandName: CatalogCommands.superCommandName,
        abstract: "Show a pest and the products registered against it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Pest id, name or Latin name.") var pest: String
    @Option(help: "Only uses on this culture or its groups (id or name).") var culture: String?

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalogUntilExit()
        let id = try catalog.resolve(pest, kind: .pest, locale: environment.locale).id
        let cultureID = try environment.resolve(culture, .culture, in: catalog)
        try Self.show(id: id, cultureID: cultureID, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, cultureID: EntityID?, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.pest(id: id, cultureID: cultureID, catalog: catalog, environment: environment)
        let (pest, uses) = (document.pest, document.uses)
        switch environment.format {
        case .json:
            try environment.printJSON(document)
        case .csv:
            UsesTable.printCSV(uses, environment: environment)
        case .table:
            let s = environment.strings
            var facts = [(s("field.id"), pest.id), (s("field.kind"), environment.name(of: pest.kind))]
            if let latin = pest.latinName { facts.append((s("field.latin"), latin)) }
            if let code = pest.eppoCode { facts.append((s("field.eppo"), code)) }
            var lines = [environment.bold(pest.name), ""] + Card.facts(facts)
            if let description = pest.description {
                lines += [""] + DisplayWidth.wrap(description, width: environment.output.size.columns, indent: "  ")
            }
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
            environment.print(lines)
        }
    }
}
