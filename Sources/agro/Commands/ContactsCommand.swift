import AgroDomain
import AgroStore
import ArgumentParser

struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts", abstract: "Show the representatives and distributors of a region.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Region id (e.g. KZ-AKM) or name.") var region: String

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalog()
        let id = try catalog.resolve(region, kind: .region, locale: environment.language).id
        try Self.show(regionID: id, catalog: catalog, environment: environment)
    }

    static func show(regionID: EntityID, catalog: some Catalog, environment: Environment) throws {
        guard let contacts = try catalog.contacts(regionID: regionID, locale: environment.language) else {
            throw CatalogError.notFound(kind: .region, id: regionID)
        }
        switch environment.format {
        case .json:
            try environment.printJSON(contacts)
        case .csv:
            environment.output.write(CSV.line(["role", "id", "name", "position", "phone", "email", "address", "website"]) + "\n")
            for r in contacts.representatives {
                environment.output.write(CSV.line(["representative", r.id, r.name, r.position ?? "", r.phone ?? "", r.email ?? "", "", ""]) + "\n")
            }
            for d in contacts.distributors {
                environment.output.write(CSV.line(["distributor", d.id, d.name, "", d.phone ?? "", d.email ?? "", d.address ?? "", d.website ?? ""]) + "\n")
            }
        case .table:
            environment.print(card(contacts, environment: environment))
        }
    }

    static func card(_ contacts: RegionContacts, environment: Environment) -> [String] {
        let s = environment.strings
        var lines = [environment.bold(contacts.region.name)]
        if let centre = contacts.region.centreName { lines.append("  " + s("field.centre") + ": " + centre) }
        lines += ["", environment.bold(s("section.representatives"))]
        for r in contacts.representatives {
            lines.append("  • " + r.name + (r.position.map { " — \($0)" } ?? ""))
            let reach = [r.phone, r.email].compactMap { $0 }.joined(separator: "  ")
            if !reach.isEmpty { lines.append("    " + reach) }
        }
        if contacts.representatives.isEmpty { lines.append("  " + s("list.empty")) }
        lines += ["", environment.bold(s("section.distributors"))]
        for d in contacts.distributors {
            lines.append("  • " + d.name)
            if let address = d.address { lines.append("    " + address) }
            let reach = [d.phone, d.email, d.website].compactMap { $0 }.joined(separator: "  ")
            if !reach.isEmpty { lines.append("    " + reach) }
        }
        if contacts.distributors.isEmpty { lines.append("  " + s("list.empty")) }
        return lines
    }
}
