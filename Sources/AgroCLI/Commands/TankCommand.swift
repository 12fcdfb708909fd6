import AgroDomain
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

struct TankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tank",
        abstract: "Calculate the sprayer loads: product per load, the last partial load, totals, active substance.",
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
        if product.isEmpty { throw TankError(.noProduct) }
        if dose.count != product.count { throw TankError(.doseCountMismatch) }
        if unit.count > 1 && unit.count != product.count { throw TankError(.unitCountMismatch) }
        try TankPlan.checkSizes(area: area, water: water, tank: tank)
        for value in dose where !(value.isFinite && value > 0) { throw TankError(.notPositive(option: "--dose", value: value)) }
    }

    struct Document: Encodable {
        var plan: TankPlan
        var warnings: [String]
    }

    func run() throws {
        try check()
        let environment = try Environment(global)
        let catalog = try environment.openCatalog()
        let locale = environment.language
        let cultureID = try environment.resolve(culture, .culture, in: catalog)
        var products: [TankProduct] = [], warnings: [String] = []
        for (index, text) in product.enumerated() {
            let id = try catalog.resolve(text, kind: .product, locale: locale).id
            guard let card = try catalog.product(id: id, locale: locale) else { throw CatalogError.notFound(kind: .product, id: id) }
            let doseUnit = unit.count > 1 ? unit[index] : (unit.first ?? "l/ha")
            let uses = try catalog.uses(UseFilter(product: id, culture: cultureID), locale: locale)
            let fits = uses.map { PlanCheck.doseFits(dose[index], unit: doseUnit, use: $0) }
            if !fits.isEmpty, !fits.contains(true), fits.contains(false) {
                // One of each range, in the order of their labels.
                let ranges = Dictionary(uses.enumerated().filter { fits[$0.offset] == false }.map { ($0.element.dose.label, $0.element.dose) },
                                        uniquingKeysWith: { a, _ in a }).sorted { $0.key < $1.key }.map(\.value)
                throw TankError(.doseOutsideRange(product: card.name, dose: dose[index], unit: doseUnit, registered: ranges))
            }
            if let expiry = card.registrationExpiry, expiry < environment.today {
                warnings.append(environment.strings("tank.expired", card.name, expiry))
            }
            products.append(TankProduct(product: id, name: card.name, dose: dose[index], unit: doseUnit, ingredients: card.ingredients))
        }
        let plan = try TankPlan.compute(area: area, water: water, tank: tank, products: products)
        let names = Dictionary(products.map { ($0.product, $0.name) }, uniquingKeysWith: { a, _ in a })
        for incompatibility in try catalog.tankIncompatibilities(among: products.map(\.product), locale: locale) {
            warnings.append(environment.strings(
                "tank.incompatible", names[incompatibility.product] ?? incompatibility.product,
                names[incompatibility.other] ?? incompatibility.other, incompatibility.reason))
        }
        // The same substance twice in one tank adds up: worth saying.
        var seen: [EntityID: String] = [:]
        for product in products {
            for ingredient in product.ingredients {
                if let other = seen[ingredient.substance.id], other != product.name {
                    warnings.append(environment.strings("tank.sameSubstance", ingredient.substance.name, other, product.name))
                }
                seen[ingredient.substance.id] = product.name
            }
        }
        switch environment.format {
        case .json:
            try environment.printJSON(Document(plan: plan, warnings: warnings))
        case .csv:
            environment.output.write(CSV.line(["product", "unit", "per_full_load", "last_load", "total"]) + "\n")
            for amounts in plan.products {
                environment.output.write(CSV.line([
                    amounts.name, amounts.unit, Self.number(amounts.perFullLoad), Self.number(amounts.lastLoad), Self.number(amounts.total),
                ]) + "\n")
            }
        case .table:
            environment.print(Self.lines(plan, warnings: warnings, environment: environment))
        }
    }

    /// Rounded for reading: three decimals at most.
    static func number(_ value: Double) -> String { ((value * 1000).rounded() / 1000).plainText }

    static func lines(_ plan: TankPlan, warnings: [String], environment: Environment) -> [String] {
        let s = environment.strings
        // Rounded as `number` rounds, written as the interface language writes numbers and units.
        let n = { (value: Double) in s.number((value * 1000).rounded() / 1000) }
        let symbol = { (unit: String) -> String in
            let key = "unit." + unit, text = s(key)
            return text == key ? unit : text
        }
        var lines = [
            environment.bold(s("tank.title", n(plan.area), n(plan.water), n(plan.tank))), "",
            "  " + s("tank.totalWater", n(plan.totalWater)),
            "  " + (plan.lastLoadWater > 0
                ? s("tank.loadsPartial", plan.loads, plan.fullLoads, n(plan.tank), n(plan.lastLoadWater))
                : s("tank.loadsFull", plan.loads, n(plan.tank))),
            "  " + s("tank.areaPerLoad", n(plan.areaPerFullLoad)), "",
        ]
        let rows = plan.products.map { amounts in
            [amounts.name, "\(n(amounts.perFullLoad)) \(symbol(amounts.unit))",
             plan.lastLoadWater > 0 ? "\(n(amounts.lastLoad)) \(symbol(amounts.unit))" : "—", "\(n(amounts.total)) \(symbol(amounts.unit))"]
        }
        lines += TextTable(
            headers: [s("column.product"), s("tank.perLoad"), s("tank.lastLoad"), s("tank.total")], rows: rows
        ).render(width: environment.tableWidth - 2).map { "  " + $0 }
        let substances = plan.products.flatMap(\.substances)
        if !substances.isEmpty {
            lines += ["", environment.bold(s("tank.substances"))]
            lines += substances.map { "  • \($0.name): " + ($0.grams.map { "\(n($0)) \(symbol("g"))" } ?? s("tank.unknownGrams")) }
        }
        if !warnings.isEmpty {
            lines += ["", environment.bold(s("tank.warnings"))]
            lines += warnings.flatMap { DisplayWidth.wrap("! " + $0, width: environment.output.size.columns, indent: "  ", hanging: "  ") }
        }
        return lines
    }
}
