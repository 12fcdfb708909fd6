import AgroDomain
import XCTest

/// The tank arithmetic, worked out by hand.
final class TankTests: XCTestCase {
    private let tebu = [
        ActiveIngredient(
            substance: EntityRef(id: "tebu", name: "Tebuconazole"), concentration: 250, unit: "g/l", modeOfAction: nil)
    ]

    func testWholeLoads() throws {
        // 120 ha × 200 l/ha = 24,000 l = 8 loads of 3,000 l; one load covers 15 ha, so
        // 15 × 0.75 = 11.25 l of product; 90 l in all; 90 l × 250 g/l = 22,500 g.
        let plan = try TankPlan.compute(
            area: 120, water: 200, tank: 3000,
            products: [
                TankProduct(product: "p", name: "P", dose: 0.75, unit: "l/ha", ingredients: tebu)
            ])
        XCTAssertEqual(plan.totalWater, 24000, accuracy: 1e-9)
        XCTAssertEqual(plan.loads, 8)
        XCTAssertEqual(plan.fullLoads, 8)
        XCTAssertEqual(plan.lastLoadWater, 0)
        XCTAssertEqual(plan.areaPerFullLoad, 15, accuracy: 1e-9)
        XCTAssertEqual(plan.products[0].perFullLoad, 11.25, accuracy: 1e-9)
        XCTAssertEqual(plan.products[0].total, 90, accuracy: 1e-9)
        XCTAssertEqual(plan.products[0].unit, "l")
        XCTAssertEqual(try XCTUnwrap(plan.products[0].substances[0].grams), 22500, accuracy: 1e-6)
    }

    func testLastPartialLoadAndAMix() throws {
        // 100 ha × 200 l/ha = 20,000 l: 6 full loads (18,000 l) and 2,000 l (10 ha) last.
        // Product 1: 0.75 l/ha → 11.25 l per load, 7.5 l last, 75 l in all.
        // Product 2: 20 g/ha of 750 g/kg → 300 g per load, 200 g last, 2,000 g = 2 kg → 1,500 g a.s.
        let wg = [
            ActiveIngredient(
                substance: EntityRef(id: "tri", name: "Tribenuron"), concentration: 750, unit: "g/kg", modeOfAction: nil)
        ]
        let plan = try TankPlan.compute(
            area: 100, water: 200, tank: 3000,
            products: [
                TankProduct(product: "p", name: "P", dose: 0.75, unit: "l/ha", ingredients: tebu),
                TankProduct(product: "q", name: "Q", dose: 20, unit: "g/ha", ingredients: wg),
            ])
        XCTAssertEqual(plan.loads, 7)
        XCTAssertEqual(plan.fullLoads, 6)
        XCTAssertEqual(plan.lastLoadWater, 2000, accuracy: 1e-9)
        XCTAssertEqual(plan.products[0].lastLoad, 7.5, accuracy: 1e-9)
        XCTAssertEqual(plan.products[0].total, 75, accuracy: 1e-9)
        XCTAssertEqual(plan.products[1].unit, "g")
        XCTAssertEqual(plan.products[1].perFullLoad, 300, accuracy: 1e-9)
        XCTAssertEqual(plan.products[1].lastLoad, 200, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(plan.products[1].substances[0].grams), 1500, accuracy: 1e-6)
    }

    func testBadNumbersAreRefused() {
        let product = TankProduct(product: "p", name: "P", dose: 0.75, unit: "l/ha", ingredients: tebu)
        // The last two: an infinite number of loads (1e300 × 1e300 l) and 1,000,000,001 loads of 1 l.
        for (area, water, tank) in [
            (0.0, 200.0, 3000.0), (120, -5, 3000), (120, 200, 0), (.nan, 200, 3000), (120, 200, .infinity),
            (1e300, 1e300, 1), (5_000_000.005, 200, 1),
        ] {
            XCTAssertThrowsError(try TankPlan.compute(area: area, water: water, tank: tank, products: [product])) { error in
                XCTAssertNotNil(error as? TankError, "\(error)")
            }
        }
        var seed = product
        seed.unit = "l/t"
        XCTAssertThrowsError(try TankPlan.compute(area: 1, water: 200, tank: 3000, products: [seed]))
        var negative = product
        negative.dose = -1
        XCTAssertThrowsError(try TankPlan.compute(area: 1, water: 200, tank: 3000, products: [negative]))
    }

    func testConcentrationsThatDoNotFitTheDoseGiveNoGrams() throws {
        // g/l in a product dosed in kg: the density is unknown.
        let plan = try TankPlan.compute(
            area: 10, water: 200, tank: 3000,
            products: [
                TankProduct(product: "p", name: "P", dose: 1, unit: "kg/ha", ingredients: tebu)
            ])
        XCTAssertNil(plan.products[0].substances[0].grams)
    }
}
