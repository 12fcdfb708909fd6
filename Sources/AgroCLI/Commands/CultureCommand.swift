import AgroDomain
import AgroPresentation
import ArgumentParser

struct CultureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "culture", _superCommandName: CatalogCommands.superCommandName,
        abstract: "Show a culture: its groups, growth stages, pests and products, and its scheme in brief.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Culture id or name.") var culture: String

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalogUntilExit()
        let id = try catalog.resolve(culture, kind: .culture, locale: environment.locale).id
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.culture(id: id, catalog: catalog, environment: environment)
        let (culture, products, pests, schemes) = (document.culture, document.products, document.pests, document.schemes)
        switch environment.format {
        case .json:
            try environment.printJSON(document)
        case .csv:
            environment.output.write(CSV.line(["kind", "id", "name"]) + "\n")
            for product in products { environment.output.write(CSV.line(["product", product.id, product.name]) + "\n") }
            for pest in pests { environment.output.write(CSV.line(["pest", pest.id, pest.name]) + "\n") }
        case .table:
            let s = environment.strings
            var facts = [(s("field.id"), culture.id)]
            if let latin = culture.latinName { facts.append((s("field.latin"), latin)) }
            if let code = culture.eppoCode { facts.append((s("field.eppo"), code)) }
            if !culture.parents.isEmpty { facts.append((s("field.groups"), culture.parents.map(\.name).joined(separator: ", "))) }
            if !culture.children.isEmpty {
                facts.append((s("field.members"), culture.children.map(\.name).joined(separator: ", ")))
            }
            var lines = [environment.bold(culture.name), ""] + Card.facts(facts)
            if let description = culture.description {
                lines += [""] + DisplayWidth.wrap(description, width: environment.output.size.columns, indent: "  ")
            }
            if !culture.growthStages.isEmpty {
                lines += ["", environment.bold(s("section.stages"))]
                // Aligned like the facts: "BBCH 0–9" is narrower than "BBCH 10–19".
                lines += Card.facts(culture.growthStages.map { (s.label($0.bbch), $0.name) })
            }
            for scheme in schemes {
                lines += ["", environment.bold(s("section.scheme", scheme.title))]
                lines += Card.facts(
                    scheme.stages.map { stage in
                        (s.label(stage.bbch), "\(stage.name): " + stage.treatments.map(\.product.name).joined(separator: ", "))
                    })
            }
            lines += ["", environment.bold(s("section.pests", pests.count))]
            lines += pests.map { "  • \($0.name)" + ($0.latinName.map { " (\($0))" } ?? "") }
            lines += ["", environment.bold(s("section.products", products.count))]
            lines += products.map { "  • \($0.name) — \(environment.name(of: $0.category))" }
            lines += ["", s("hint.compareUses", "agro uses --culture \(culture.id) --pest PEST")]
            environment.print(lines)
        }
    }
}
