import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct UsesCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "uses", abstract: "Compare the registered uses against a pest on a culture, side by side.",
        discussion: """
            One row per product and use: registration, active ingredients with their mode-of-action \
            group, dose, water volume, pre-harvest interval, applications, BBCH window and area. A culture \
            also matches uses registered on its groups and, when it is a group or has sub-crops, on its \
            members: those come after its own, grouped by the member they are registered on. Rows are marked when the registration has expired \
            or the use's BBCH window does not contain --stage.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    @Option(help: "Pest (id or name).") var pest: String?
    @Option(help: "Culture (id or name); uses on its groups and its members count.") var culture: String?
    @Option(help: "Growth stage (BBCH 0-99): marks uses whose window does not contain it.") var stage: Int?
    @Option(help: "Only products containing this active substance (id or name).") var substance: String?
    @Option(help: "Only products with a substance in this mode-of-action group: \"FRAC 3\", \"IRAC 4A\", \"11\".") var group:
        String?
    @Option(help: "Order: name, dose or phi.") var sort: String = "name"

    func run() throws {
        let environment = try Environment(global)
        // Checked before the catalog opens, worded in the interface language (RequestError).
        _ = try CatalogDocuments.checkUseOptions(pest: pest, culture: culture, stage: stage, group: group, sort: sort)
        let catalog = try environment.openCatalogUntilExit()
        let query = try CatalogDocuments.useQuery(
            pest: pest, culture: culture, stage: stage, substance: substance, group: group, sort: sort,
            catalog: catalog, environment: environment)
        let locale = environment.locale
        // A group or a culture with sub-crops: which member each row is registered on.
        let members = try query.culture.flatMap { try catalog.culture(id: $0, locale: locale) }.map { !$0.children.isEmpty }
        try ListPresenter(
            environment: environment, columns: Self.columns(environment, members: members ?? false),
            load: { try catalog.compareUses(query, page: $0, locale: locale) },
            open: { try ProductCommand.show(id: $0.productID, catalog: catalog, environment: environment) }
        ).show(pages)
    }

    /// The table's columns; with `members`, the member culture each row is registered on
    /// after the product (empty for the asked culture's own uses).
    static func columns(_ environment: Environment, members: Bool = false) -> [Column<UseRow>] {
        let s = environment.strings
        let member = members ? [Column<UseRow>(header: s("column.member")) { $0.member?.name ?? "" }] : []
        return [Column(header: s("column.product")) { $0.name }] + member + [
            Column(header: s("column.registration")) { $0.registrationNumber ?? "" },
            Column(header: s("column.ingredients")) { row in
                row.ingredients.map { ingredient in
                    let amount = environment.label(Dose(from: ingredient.concentration, to: nil, unit: ingredient.unit))
                    let name = amount.isEmpty ? ingredient.name : "\(ingredient.name) \(amount)"
                    return name + " [\(ingredient.group ?? "?")]"
                }.joined(separator: " + ")
            },
            Column(header: s("column.dose")) { environment.label($0.dose) },
            Column(header: s("column.water")) { $0.water.map { environment.label($0) } ?? "" },
            // In days, worded like the interval beside it ("30 дней"): a bare 30 read as nothing.
            Column(header: s("column.phi"), rightAligned: true) { $0.phiDays.map { s.plural("use.days", $0) } ?? "" },
            Column(header: s("column.applications")) { row in
                [row.maxApplications.map { "\($0)×" }, row.intervalDays.map { s.plural("use.days", $0) }]
                    .compactMap { $0 }.joined(separator: " / ")
            },
            Column(header: "BBCH") { $0.bbch.map(s.stages) ?? "" },
            Column(header: s("column.area")) { $0.applicationArea ?? "" },
            Column(header: s("column.mark")) { row in
                [row.expired ? s("mark.expired") : nil, row.outsideStage ? s("mark.outsideStage") : nil]
                    .compactMap { $0 }.joined(separator: ", ")
            },
        ]
    }
}
