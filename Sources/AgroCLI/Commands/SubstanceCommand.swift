import AgroDomain
import AgroStore
import ArgumentParser

struct SubstanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "substance", abstract: "Show an active substance and the products that contain it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Substance id or name.") var substance: String

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalog()
        let id = try catalog.resolve(substance, kind: .substance, locale: environment.language).id
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    struct Document: Encodable {
        var substance: Substance
        var products: [ProductSummary]

        // JSON keys (README, "JSON keys"), apart from the property names.
        enum CodingKeys: String, CodingKey { case substance, products }
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let locale = environment.language
        guard let substance = try catalog.substance(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .substance, id: id)
        }
        let products = try catalog.products(ProductFilter(substance: id), page: .all, locale: locale).items
        let s = environment.strings
        switch environment.format {
        case .json:
            try environment.printJSON(Document(substance: substance, products: products))
        case .csv:
            environment.output.write(CSV.line(["id", "name", "registrationNumber"]) + "\n")
            for product in products {
                environment.output.write(CSV.line([product.id, product.name, product.registrationNumber ?? ""]) + "\n")
            }
        case .table:
            var facts = [(s("field.id"), substance.id)]
            if let moa = substance.modeOfAction { facts.append((s("field.moa"), moa.label)) }
            if let iupac = substance.iupacName { facts.append((s("field.iupac"), iupac)) }
            if let cas = substance.casNumber { facts.append((s("field.cas"), cas)) }
            var lines = [environment.bold(substance.name), ""] + Card.facts(facts)
            if let description = substance.description {
                lines += [""] + DisplayWidth.wrap(description, width: environment.output.size.columns, indent: "  ")
            }
            lines += ["", environment.bold(s("section.products", products.count))]
            lines += products.map { "  • \($0.name) (\($0.id))" }
            environment.print(lines)
        }
    }
}
