import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

struct TankCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "tank", abstract: "Calculate the sprayer loads: product per load, the last partial load, totals, active substance.",
        discussion: """
            agro tank --product ID --dose 0.75 --unit l/ha --area 120 --water 200 --tank 3000
            Repeat --product, --dose and --unit (in that order) for a tank mix; a single --unit applies to \
            every product. Mixes the catalog marks incompatible are warned about. A dose outside every \
            registered range of the product (on --culture when given) is refused.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Product (id, registration number or name); repeat for a tank mix.") var product: [String] = []
    @Option(help: "Dose per hectare of each product, in the order of --product.") var dose: [Double] = []
    @Option(help: "Unit of each dose: l/ha, ml/ha, kg/ha or g/ha (default l/ha).") var unit: [String] = []
    @Option(help: "Area to treat, ha.") var area: Double
    @Option(help: "Spray volume, l/ha.") var water: Double
    @Option(help: "Tank volume, l.") var tank: Double
    @Option(help: "Check doses against the uses on this culture (id or name).") var culture: String?

    /// Bad numbers get one line and status 64 (not the usage text).
    func check() throws {
        try CatalogDocuments.checkTank(
            products: product.count, doses: dose, units: unit.count, area: area, water: water, tank: tank)
    }

    func run() throws {
        try check()
        let (environment, catalog) = try Environment.withCatalog(global)
        let document = try CatalogDocuments.tank(
            products: product, doses: dose, units: unit, area: area, water: water, tank: tank,
            culture: try environment.resolve(culture, .culture, in: catalog), catalog: catalog, environment: environment)
        let (plan, warnings) = (document.plan, document.warnings)
        try environment.print(document) {
            [["product", "unit", "per_full_load", "last_load", "total"]]
                + plan.products.map { amounts -> [String] in
                    [
                        amounts.name, amounts.unit, Self.number(amounts.perFullLoad), Self.number(amounts.lastLoad),
                        Self.number(amounts.total),
                    ]
                }
        } table: {
            Self.lines(plan, warnings: warnings, environment: environment)
        }
    }

    /// Rounded for reading: three decimals at most.
    static func number(_ value: Double) -> String { ((value * 1000).rounded() / 1000).plainText }

    static func lines(_ plan: TankPlan, warnings: [String], environment: Environment) -> [String] {
        let s = environment.strings
        // Rounded as `number` rounds, written as the interface language writes numbers and units.
        let n = s.tankNumber
        let symbol = { (unit: String) -> String in
            let key = "unit." + unit, text = s(key)
            return text == key ? unit : text
        }
        let summary = s.tankSummary(plan)
        var lines = [environment.bold(summary.title), ""] + summary.facts.map { "  " + $0 } + [""]
        let rows = plan.products.map { amounts in
            [
                amounts.name, "\(n(amounts.perFullLoad)) \(symbol(amounts.unit))",
                plan.lastLoadWater > 0 ? "\(n(amounts.lastLoad)) \(symbol(amounts.unit))" : "—",
                "\(n(amounts.total)) \(symbol(amounts.unit))",
            ]
        }
        lines += TextTable(
            headers: [s("column.product"), s("tank.perLoad"), s("tank.lastLoad"), s("tank.total")], rows: rows
        ).render(width: environment.tableWidth - 2).map { "  " + $0 }
        let substances = plan.products.flatMap(\.substances)
        if !substances.isEmpty {
            lines += ["", environment.bold(s("tank.substances"))]
            lines += substances.map {
                "  • \($0.name): " + ($0.grams.map { "\(n($0)) \(symbol("g"))" } ?? s("tank.unknownGrams"))
            }
        }
        if !warnings.isEmpty {
            lines += ["", environment.bold(s("tank.warnings"))]
            lines += warnings.flatMap {
                DisplayWidth.wrap("! " + $0, width: environment.output.size.columns, indent: "  ", hanging: "  ")
            }
        }
        return lines
    }
}
