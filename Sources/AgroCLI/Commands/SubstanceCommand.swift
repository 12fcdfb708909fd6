import AgroDomain
import AgroPresentation
import ArgumentParser

struct SubstanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "substance", _superCommandName: CatalogCommands.superCommandName,
        abstract: "Show an active substance and the products that contain it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Substance id or name.") var substance: String

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalogUntilExit()
        let id = try catalog.resolve(substance, kind: .substance, locale: environment.locale).id
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.substance(id: id, catalog: catalog, environment: environment)
        let (substance, products) = (document.substance, document.products)
        let s = environment.strings
        switch environment.format {
        case .json:
            try environment.printJSON(document)
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
