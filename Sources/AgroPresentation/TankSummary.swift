import AgroDomain
import Foundation

/// The words over a tank calculation, the same for `agro tank` and the tank page: the title,
/// then the spray volume, the loads and the area one full load covers.
package struct TankSummary: Sendable, Equatable {
    /// "100 ha at 200 l/ha with a 3000 l tank".
    package var title: String
    /// One sentence each: spray volume, loads, area per full load.
    package var facts: [String]
}

extension Localizer {
    /// `value` rounded to three decimals at most, written as the interface language writes
    /// numbers: the amounts of a tank calculation.
    package func tankNumber(_ value: Double) -> String { number((value * 1000).rounded() / 1000) }

    /// The title and facts of `plan`, in this interface language.
    package func tankSummary(_ plan: TankPlan) -> TankSummary {
        let n = tankNumber
        return TankSummary(
            title: self("tank.title", n(plan.area), n(plan.water), n(plan.tank)),
            facts: [
                self("tank.totalWater", n(plan.totalWater)), tankLoads(plan), self("tank.areaPerLoad", n(plan.areaPerFullLoad)),
            ])
    }

    /// "1 load of 2000 l", "5 loads of 3000 l", "2 loads: 1 full of 3000 l and a last one of
    /// 1000 l": counted in the plural forms of the language (`tank.loads`, `tank.fullLoads`).
    /// One load is said apart, as "21 loads" is not: Russian puts 1 and 21 in one form.
    package func tankLoads(_ plan: TankPlan) -> String {
        guard plan.loads > 1 else {
            return self("tank.oneLoad", tankNumber(plan.lastLoadWater > 0 ? plan.lastLoadWater : plan.tank))
        }
        let loads = plural("tank.loads", plan.loads)
        guard plan.lastLoadWater > 0 else { return self("tank.loadsEach", loads, tankNumber(plan.tank)) }
        return self(
            "tank.loadsWithLast", loads, plural("tank.fullLoads", plan.fullLoads, tankNumber(plan.tank)),
            tankNumber(plan.lastLoadWater))
    }
}
