import AgroDomain
import AgroPresentation
import ArgumentParser

struct SubstanceCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "substance", abstract: "Show an active substance and the products that contain it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Substance id or name.") var substance: String

    func run() throws {
        let (environment, catalog, id) = try Environment.withCatalog(global, resolving: substance, as: .substance)
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.substance(id: id, catalog: catalog, environment: environment)
        let (substance, products) = (document.substance, document.products)
        try environment.print(document) {
            [["id", "name", "registrationNumber"]]
                + products.map { product -> [String] in [product.id, product.name, product.registrationNumber ?? ""] }
        } table: {
            let s = environment.strings
            var facts = [(s("field.id"), substance.id)]
            if let moa = substance.modeOfAction { facts.append((s("field.moa"), moa.label)) }
            if let iupac = substance.iupacName { facts.append((s("field.iupac"), iupac)) }
            if let cas = substance.casNumber { facts.append((s("field.cas"), cas)) }
            var lines = Card.head(
                name: substance.name, facts: facts, description: substance.description, environment: environment)
            lines += ["", environment.bold(s("section.products", products.count))]
            lines += products.map { "  • \($0.name) (\($0.id))" }
            return lines
        }
    }
}
