import AgroDomain
import XCTest

/// Rule edges checked on facts written by hand, without a catalog.
final class PlanRuleEdgeTests: XCTestCase {
    private func use(_ id: String, product: String, dose: Dose, max: Int? = nil) -> Use {
        Use(
            id: id, product: EntityRef(id: product, name: product), cultures: [EntityRef(id: "wheat", name: "Wheat")],
            pests: [UsePest(pest: EntityRef(id: "rust", name: "Rust"))], dose: dose, maxApplications: max)
    }

    func testUpToDosesStartAtZero() {
        // "up to 1.5 l/ha": 1 fits, 1.6 does not; a single number is exact.
        let upTo = use("u", product: "p", dose: Dose(from: nil, to: 1.5, unit: "l/ha"))
        XCTAssertEqual(PlanCheck.doseFits(1, unit: "l/ha", use: upTo), true)
        XCTAssertEqual(PlanCheck.doseFits(1.6, unit: "l/ha", use: upTo), false)
        let exact = use("u", product: "p", dose: Dose(from: 0.5, to: nil, unit: "l/ha"))
        XCTAssertEqual(PlanCheck.doseFits(0.5, unit: "l/ha", use: exact), true)
        XCTAssertEqual(PlanCheck.doseFits(0.6, unit: "l/ha", use: exact), false)
        // Units the rules cannot convert are compared only when written alike.
        let percent = use("u", product: "p", dose: Dose(from: 0.1, to: 0.2, unit: "%"))
        XCTAssertEqual(PlanCheck.doseFits(0.15, unit: "%", use: percent), true)
        XCTAssertNil(PlanCheck.doseFits(0.15, unit: "l/ha", use: percent))
    }

    func testSeedTreatmentsAreCountedApartFromSprays() {
        // Tebuconazole as a seed treatment (1 allowed) and once as a spray (1 allowed): two
        // applications of the substance, but the seed treatment is not a spray, so no finding;
        // FRAC 3 is not "consecutive" across seed and spray either.
        let frac3 = ModeOfAction(scheme: "FRAC", group: "3")
        let tebu = ActiveIngredient(
            substance: EntityRef(id: "tebu", name: "Tebuconazole"), concentration: 250, unit: "g/l", modeOfAction: frac3)
        let products = [
            "seed": Product(id: "seed", name: "Seed", category: .seedTreatment, ingredients: [tebu]),
            "spray": Product(id: "spray", name: "Spray", category: .fungicide, ingredients: [tebu]),
        ]
        let facts = PlanFacts(
            culture: EntityRef(id: "wheat", name: "Wheat"), harvest: nil, products: products,
            uses: [
                "seed": [use("u1", product: "seed", dose: Dose(from: 0.4, to: 0.5, unit: "l/t"), max: 1)],
                "spray": [use("u2", product: "spray", dose: Dose(from: 0.5, to: 1, unit: "l/ha"), max: 1)],
            ],
            limits: [GroupLimit(scheme: "FRAC", group: "3", maxApplications: 1, source: "test")])
        let report = PlanCheck.check(
            [
                PlanLine(
                    application: 1, product: "seed", dose: 0.5, unit: "l/t", pests: ["rust"], date: PlanDate("2025-09-01"),
                    bbch: 0),
                PlanLine(
                    application: 2, product: "spray", dose: 1, unit: "l/ha", pests: ["rust"], date: PlanDate("2026-05-01"),
                    bbch: 32),
            ], facts: facts)
        XCTAssertTrue(report.passed, "\(report.findings)")
        XCTAssertEqual(report.totals.first?.seedTreatments, 1)
        XCTAssertEqual(report.totals.first?.gramsPerHectare ?? 0, 250, accuracy: 1e-9)
    }
}
