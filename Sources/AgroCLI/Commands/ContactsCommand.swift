import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

/// `agro contacts REGION`: who to call in a region; `agro contacts --near LAT,LON`: every
/// representative by distance from a point.
struct ContactsCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "contacts", abstract: "Show the representatives and distributors of a region, or the representatives nearest a point.",
        discussion: """
            Give a region, or --near LAT,LON (decimal degrees) for every representative sorted by distance.             A representative's place is their own location when the catalog has one, else their region's centre.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    @Argument(help: "Region id (e.g. KZ-AKM) or name.") var region: String?

    // Unconditional: "-38.4,-71.6" starts with a dash and would otherwise be read as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("List representatives by distance from this point: LAT,LON.", valueName: "lat,lon"))
    var near: String?

    func run() throws {
        let environment = try Environment(global)
        switch (region, near) {
        case let (region?, nil):
            let catalog = try environment.openCatalogUntilExit()
            let id = try catalog.resolve(region, kind: .region, locale: environment.locale).id
            try Self.show(regionID: id, catalog: catalog, environment: environment)
        case let (nil, near?):
            // Coordinates first: bad input is reported before the catalog is opened.
            let point = try CoordinateParser.parse(near)
            try Self.showNearest(
                to: point, catalog: try environment.openCatalogUntilExit(), environment: environment, pages: pages)
        case (_?, _?):
            throw RequestError.notBoth(.contactsRegion, .near)
        case (nil, nil):
            throw RequestError.oneNeeded(.contactsRegion, .near)
        }
    }

    /// Every representative with the distance from `point`, nearest first, as a paged list.
    static func showNearest(to point: Coordinates, catalog: some Catalog, environment: Environment, pages: PageOptions) throws {
        let sorted = try CatalogDocuments.nearest(to: point, catalog: catalog, environment: environment)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.distance"), rightAligned: true) { item in
                    item.distanceKm.map { s.decimal(String(format: "%.1f", $0)) } ?? ""
                },
                Column(header: s("column.name")) { $0.representative.name },
                Column(header: s("column.position")) { $0.representative.position ?? "" },
                Column(header: s("column.region")) { $0.representative.region.name },
                Column(header: s("column.phone")) { $0.representative.phone ?? "" },
                Column(header: s("column.email")) { $0.representative.email ?? "" },
            ],
            load: { Page(slicing: sorted, $0) },
            open: { item in
                try show(regionID: item.representative.region.id, catalog: catalog, environment: environment)
            }
        ).show(pages)
    }

    static func show(regionID: EntityID, catalog: some Catalog, environment: Environment) throws {
        let contacts = try CatalogDocuments.contacts(regionID: regionID, catalog: catalog, environment: environment)
        try environment.print(contacts) {
            [["role", "id", "name", "position", "phone", "email", "address", "website"]]
                + contacts.representatives.map { r in
                    ["representative", r.id, r.name, r.position ?? "", r.phone ?? "", r.email ?? "", "", ""]
                }
                + contacts.distributors.map { d in
                    ["distributor", d.id, d.name, "", d.phone ?? "", d.email ?? "", d.address ?? "", d.website ?? ""]
                }
        } table: {
            card(contacts, environment: environment)
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
