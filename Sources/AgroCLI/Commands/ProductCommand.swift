import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct ProductCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "product", abstract: "Show a product: active ingredients, hazards, registered uses by culture, links.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Product id, registration number or name.") var product: String
    @Flag(help: "List the products registered for the same uses instead: another mode of action first, then generics.")
    var alternatives = false
    @Option(help: "With --alternatives: only uses on this culture or its groups (id or name).") var culture: String?
    @Option(help: "With --alternatives: only uses against this pest (id or name).") var pest: String?

    func run() throws {
        let (environment, catalog, id) = try Environment.withCatalog(global, resolving: product, as: .product)
        if alternatives || culture != nil || pest != nil {
            try ProductAlternatives.show(
                id: id, culture: try environment.resolve(culture, .culture, in: catalog),
                pest: try environment.resolve(pest, .pest, in: catalog), catalog: catalog, environment: environment)
            return
        }
        try Self.show(id: id, catalog: catalog, environment: environment)
    }

    static func show(id: EntityID, catalog: some Catalog, environment: Environment) throws {
        let document = try CatalogDocuments.product(id: id, catalog: catalog, environment: environment)
        let (product, uses) = (document.product, document.uses)
        try environment.print(document) {
            UsesTable.csv(uses)
        } table: {
            card(product, uses: uses, environment: environment)
        }
    }

    static func card(_ product: Product, uses: [Use], environment: Environment) -> [String] {
        let s = environment.strings
        let width = environment.output.size.columns
        var facts: [(String, String)] = [
            (s("field.id"), product.id),
            (s("field.category"), environment.name(of: product.category)),
        ]
        if let formulation = product.formulation { facts.append((s("field.formulation"), environment.formulation(formulation))) }
        if let company = product.company { facts.append((s("field.company"), company.name)) }
        if let number = product.registrationNumber { facts.append((s("field.registration"), number)) }
        if let expiry = product.registrationExpiry {
            let expired = expiry < environment.today
            facts.append((s("field.expires"), expired ? "\(s.date(expiry)) (\(s("product.expired")))" : s.date(expiry)))
        }
        if product.origin != .registered {
            let original = product.originalProduct.map { "\($0.name) (\($0.id))" } ?? ""
            facts.append((s("origin.\(product.origin.rawValue)"), original))
        }
        if let date = product.soldOutDeadline { facts.append((s("field.soldOut"), date)) }
        if let date = product.exhaustionDeadline { facts.append((s("field.exhaustion"), date)) }
        var lines = Card.head(name: product.name, facts: facts, description: nil, environment: environment)

        if !product.ingredients.isEmpty {
            lines += ["", environment.bold(s("section.ingredients"))]
            for ingredient in product.ingredients {
                var line = "  • " + environment.label([ingredient])
                if let moa = ingredient.modeOfAction { line += " — \(moa.label)" }
                lines.append(line)
            }
        }
        if !product.hazard.isEmpty {
            lines += ["", environment.bold(s("section.hazard"))]
            if !product.hazard.pictograms.isEmpty {
                lines.append(
                    "  " + s("field.pictograms") + ": "
                        + environment.pictograms(product.hazard.pictograms).joined(separator: ", "))
            }
            if let word = product.hazard.signalWord { lines.append("  " + s("field.signalWord") + ": " + word) }
            for statement in product.hazard.hazardStatements + product.hazard.precautionaryStatements {
                lines += DisplayWidth.wrap("\(statement.code) \(statement.text)", width: width, indent: "  ")
            }
        }
        lines += ["", environment.bold(s("section.uses", uses.count))]
        lines += UsesTable.grouped(uses, environment: environment)
        for section in product.sections {
            lines += ["", environment.bold(section.title)]
            lines += DisplayWidth.wrap(section.body, width: width, indent: "  ")
        }
        if !product.links.isEmpty {
            lines += ["", environment.bold(s("section.links"))]
            lines += product.links.map { "  \(s("link.\($0.kind.rawValue)")): \($0.url)" }
        }
        return lines
    }
}

/// Uses printed as the register shows them.
enum UsesTable {
    /// Uses grouped by culture: one heading per culture (or set of cultures), one block per use.
    static func grouped(_ uses: [Use], environment: Environment) -> [String] {
        let s = environment.strings
        let width = environment.output.size.columns
        var lines: [String] = []
        var groups: [(String, [Use])] = []
        for use in uses {
            let key = use.cultures.map(\.name).joined(separator: ", ")
            if let index = groups.firstIndex(where: { $0.0 == key }) {
                groups[index].1.append(use)
            } else {
                groups.append((key, [use]))
            }
        }
        for (cultures, uses) in groups.sorted(by: { $0.0 < $1.0 }) {
            lines.append("  " + environment.bold(cultures.isEmpty ? "—" : cultures))
            for use in uses {
                let pests = use.pests.map { pest in
                    pest.effect == .full ? pest.pest.name : "\(pest.pest.name) (\(s("effect.\(pest.effect.rawValue)")))"
                }.joined(separator: ", ")
                lines += DisplayWidth.wrap("• " + (pests.isEmpty ? "—" : pests), width: width, indent: "    ", hanging: "  ")
                var facts: [String] = []
                if !use.dose.isEmpty { facts.append(s("use.dose", environment.label(use.dose))) }
                if !use.water.isEmpty { facts.append(s("use.water", environment.label(use.water))) }
                if let phi = use.phiDays { facts.append(s.plural("use.phi", phi)) }
                if let count = use.maxApplications { facts.append(s.plural("use.applications", count)) }
                if let interval = use.intervalDays { facts.append(s.plural("use.interval", interval)) }
                if let bbch = use.bbch { facts.append(s.label(bbch)) }
                if let area = use.applicationArea { facts.append(area) }
                lines += DisplayWidth.wrap(facts.joined(separator: " · "), width: width, indent: "      ")
                if let notes = use.notes { lines += DisplayWidth.wrap(notes, width: width, indent: "      ") }
                for obligation in use.obligations {
                    lines += DisplayWidth.wrap("! " + obligation, width: width, indent: "      ")
                }
            }
        }
        return lines
    }

    /// The uses as CSV rows, the header first.
    static func csv(_ uses: [Use]) -> [[String]] {
        let headers = [
            "use", "product", "cultures", "pests", "dose_from", "dose_to", "unit", "phi_days",
            "max_applications", "bbch_from", "bbch_to",
        ]
        let number = { (value: Double?) in value.map { Dose(from: $0, to: nil, unit: nil).label } ?? "" }
        return [headers]
            + uses.map { use -> [String] in
                [
                    use.id, use.product.name, use.cultures.map(\.name).joined(separator: "; "),
                    use.pests.map(\.pest.name).joined(separator: "; "), number(use.dose.from), number(use.dose.to),
                    use.dose.unit ?? "", use.phiDays.map(String.init) ?? "",
                    use.maxApplications.map(String.init) ?? "", use.bbch.map { String($0.from) } ?? "",
                    use.bbch.map { String($0.to) } ?? "",
                ]
            }
    }
}
