import AgroDomain
import AgroPresentation
import ArgumentParser

struct CultureCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "culture", abstract: "Show a culture: its groups, growth stages, pests and products, and its scheme in brief.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Culture id or name.") var culture: String

    func run() throws {
        let (environment, catalog, id) = try Environment.withCatalog(global, resolving: culture, as: .culture)
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.culture(id: id, catalog: catalog, environment: environment)
        let (culture, products, pests, schemes) = (document.culture, document.products, document.pests, document.schemes)
        try environment.print(document) {
            [["kind", "id", "name"]] + products.map { ["product", $0.id, $0.name] } + pests.map { ["pest", $0.id, $0.name] }
        } table: {
            let s = environment.strings
            var facts = [(s("field.id"), culture.id)]
            if let latin = culture.latinName { facts.append((s("field.latin"), latin)) }
            if let code = culture.eppoCode { facts.append((s("field.eppo"), code)) }
            if !culture.parents.isEmpty { facts.append((s("field.groups"), culture.parents.map(\.name).joined(separator: ", "))) }
            if !culture.children.isEmpty {
                facts.append((s("field.members"), culture.children.map(\.name).joined(separator: ", ")))
            }
            var lines = Card.head(name: culture.name, facts: facts, description: culture.description, environment: environment)
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
            return lines
        }
    }
}
