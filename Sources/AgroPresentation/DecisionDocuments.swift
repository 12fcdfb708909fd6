import AgroDomain
import Foundation

/// The documents of the decision commands (`agro plan check`, `agro tank`), built in one
/// place: the commands print them and `agro web` answers with them, so the API's JSON is the
/// CLI's by construction.
package extension CatalogDocuments {
    /// The largest plan read: a season plan is a few kilobytes.
    static let maximumPlanBytes = 4 * 1_048_576

    /// `agro plan check FILE`: the plan in `data` (JSON, or CSV when `fileName` ends in .csv
    /// or the text does not start with `{`) checked against `catalog`, every finding and its
    /// source worded in the environment's language.
    static func planCheck(_ data: Data, fileName: String, catalog: some Catalog, environment: Environment) throws
        -> PlanCheckDocument
    {
        let plan = try SeasonPlan.parse(data, fileName: fileName)
        let (resolved, checked) = try PlanCheck.run(plan, in: catalog, locale: environment.locale)
        var report = checked
        let wording = FindingWording(strings: environment.strings)
        for index in report.findings.indices {
            report.findings[index].message = wording.text(report.findings[index])
            report.findings[index].source = wording.source(report.findings[index])
        }
        return PlanCheckDocument(resolved: resolved, report: report)
    }

    /// The numbers of `agro tank` that need no catalog, checked in the command's order.
    static func checkTank(products: Int, doses: [Double], units: Int, area: Double, water: Double, tank: Double) throws {
        if products == 0 { throw TankError(.noProduct) }
        if doses.count != products { throw TankError(.doseCountMismatch) }
        if units > 1 && units != products { throw TankError(.unitCountMismatch) }
        try TankPlan.checkSizes(area: area, water: water, tank: tank)
        for value in doses where !(value.isFinite && value > 0) { throw TankError(.notPositive(option: "dose", value: value)) }
    }

    /// `agro tank`: the loads for `products` at `doses` (units: one per product, one for all,
    /// or none for l/ha), with the warnings the command prints. Doses outside every registered
    /// range of a product (on `culture` when given) are refused.
    static func tank(
        products names: [String], doses: [Double], units: [String], area: Double, water: Double, tank: Double,
        culture: EntityID?, catalog: some Catalog, environment: Environment
    ) throws -> TankDocument {
        try checkTank(products: names.count, doses: doses, units: units.count, area: area, water: water, tank: tank)
        let locale = environment.locale
        var products: [TankProduct] = [], warnings: [String] = []
        for (index, text) in names.enumerated() {
            let id = try catalog.resolve(text, kind: .product, locale: locale).id
            guard let card = try catalog.product(id: id, locale: locale) else {
                throw CatalogError.notFound(kind: .product, id: id)
            }
            let doseUnit = units.count > 1 ? units[index] : (units.first ?? "l/ha")
            let uses = try catalog.uses(UseFilter(product: id, culture: culture), locale: locale)
            let fits = uses.map { PlanCheck.doseFits(doses[index], unit: doseUnit, use: $0) }
            if !fits.isEmpty, !fits.contains(true), fits.contains(false) {
                // One of each range, in the order of their labels.
                let ranges = Dictionary(
                    uses.enumerated().filter { fits[$0.offset] == false }.map { ($0.element.dose.label, $0.element.dose) },
                    uniquingKeysWith: { a, _ in a }
                ).sorted { $0.key < $1.key }.map(\.value)
                throw TankError(.doseOutsideRange(product: card.name, dose: doses[index], unit: doseUnit, registered: ranges))
            }
            if let expiry = card.registrationExpiry, expiry < environment.today {
                warnings.append(environment.strings("tank.expired", card.name, environment.strings.date(expiry)))
            }
            products.append(
                TankProduct(product: id, name: card.name, dose: doses[index], unit: doseUnit, ingredients: card.ingredients))
        }
        let plan = try TankPlan.compute(area: area, water: water, tank: tank, products: products)
        let productNames = Dictionary(products.map { ($0.product, $0.name) }, uniquingKeysWith: { a, _ in a })
        for incompatibility in try catalog.tankIncompatibilities(among: products.map(\.product), locale: locale) {
            warnings.append(
                environment.strings(
                    "tank.incompatible", productNames[incompatibility.product] ?? incompatibility.product,
                    productNames[incompatibility.other] ?? incompatibility.other, incompatibility.reason))
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
        return TankDocument(plan: plan, warnings: warnings)
    }
}

/// `agro plan check --format json`: the report's fields plus `culture`.
package struct PlanCheckDocument: Encodable, Sendable {
    /// The plan with its names resolved (not encoded: the text and the web app show it).
    package var resolved: ResolvedPlan
    package var report: PlanReport

    enum Keys: String, CodingKey { case culture }

    package func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(resolved.culture, forKey: .culture)
    }
}

/// `agro tank --format json`: the loads and the warnings.
package struct TankDocument: Encodable, Sendable {
    package var plan: TankPlan
    package var warnings: [String]
}

package extension SeasonPlan.Application {
    /// When the application is planned: its date and its BBCH stage, those the plan gives.
    func when(stagePrefix: String = "BBCH ") -> [String] {
        [date.map(\.description), bbch.map { stagePrefix + String($0) }].compactMap { $0 }
    }

    /// "tribenuron-750-wg 20 g/ha + fenoxaprop-69-ew 0.8 l/ha": the products of the tank with
    /// their doses, as `agro plan check` heads an application.
    func products(_ s: Localizer) -> String {
        ([(product, dose, unit)] + partners.map { ($0.product, $0.dose, $0.unit) })
            .map { "\($0.0) " + s.label(Dose(from: $0.1, to: nil, unit: $0.2)) }.joined(separator: " + ")
    }
}
