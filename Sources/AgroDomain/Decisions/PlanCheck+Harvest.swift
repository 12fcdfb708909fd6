import Foundation

/// The earliest day a field may be harvested because of one product: its last application
/// plus its pre-harvest interval.
public struct HarvestGate: Sendable, Hashable, Codable {
    /// The product.
    public var product: EntityRef
    /// Its last application on the field.
    public var lastApplication: PlanDate
    /// The pre-harvest interval of the most lenient use covering that application, in days.
    public var phiDays: Int
    /// `lastApplication` plus `phiDays`.
    public var earliest: PlanDate

    /// Creates a gate.
    public init(product: EntityRef, lastApplication: PlanDate, phiDays: Int, earliest: PlanDate) {
        self.product = product
        self.lastApplication = lastApplication
        self.phiDays = phiDays
        self.earliest = earliest
    }
}

extension PlanCheck {
    /// Per product, the earliest harvest its applications allow, latest first: the first gate
    /// is the field's. The interval is the one the pre-harvest rule uses (the most lenient use
    /// covering the application; none when a covering use sets none or none covers it).
    public static func harvestGates(_ lines: [PlanLine], facts: PlanFacts) -> [HarvestGate] {
        var gates: [EntityID: HarvestGate] = [:]
        for line in lines {
            guard let date = line.date else { continue }
            let uses = registration(line, facts: facts).0
            let phis = uses.map(\.phiDays)
            guard !phis.contains(where: { $0 == nil }), let phi = phis.compactMap({ $0 }).min() else { continue }
            let earliest = PlanDate(day: date.day + phi)
            if let known = gates[line.product], known.earliest >= earliest { continue }
            let product = EntityRef(id: line.product, name: facts.products[line.product]?.name ?? line.product)
            gates[line.product] = HarvestGate(product: product, lastApplication: date, phiDays: phi, earliest: earliest)
        }
        return gates.values.sorted { $0.earliest != $1.earliest ? $0.earliest > $1.earliest : $0.product.id < $1.product.id }
    }
}
