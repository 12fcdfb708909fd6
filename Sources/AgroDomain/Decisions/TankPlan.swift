import Foundation

/// A product going into the tank: its dose per hectare and what the label says about it.
public struct TankProduct: Sendable, Hashable {
    /// The product's id.
    public var product: EntityID
    /// The product's name, for messages.
    public var name: String
    /// The dose per hectare, in `unit`.
    public var dose: Double
    /// A dose unit per hectare ("l/ha", "ml/ha", "kg/ha", "g/ha").
    public var unit: String
    /// The label's active ingredients and concentrations.
    public var ingredients: [ActiveIngredient]

    /// Creates a tank product.
    public init(product: EntityID, name: String, dose: Double, unit: String, ingredients: [ActiveIngredient]) {
        self.product = product
        self.name = name
        self.dose = dose
        self.unit = unit
        self.ingredients = ingredients
    }
}

/// The arithmetic of filling a sprayer: how many loads, how much of each product in a full
/// load and in the last partial one, totals, and active substance.
public struct TankPlan: Sendable, Hashable, Codable {
    /// How much of one product goes into the tank.
    public struct ProductAmounts: Sendable, Hashable, Codable {
        /// The product's id.
        public var productID: EntityID
        /// The product's name.
        public var name: String
        /// The unit of the amounts below: the dose's unit without "/ha" ("l", "ml", "kg", "g").
        public var unit: String
        /// Product in one full load.
        public var perFullLoad: Double
        /// Product in the last, partial load; 0 when every load is full.
        public var lastLoad: Double
        /// Product for the whole area.
        public var total: Double
        /// Active substance applied over the whole area, per ingredient.
        public var substances: [SubstanceAmount]

        // The output contract (docs/json-keys.md): renaming a property leaves these alone.
        enum CodingKeys: String, CodingKey {
            case productID = "productId"
            case name, unit, perFullLoad, lastLoad, total, substances
        }
    }

    /// Grams of one active substance over the whole area.
    public struct SubstanceAmount: Sendable, Hashable, Codable {
        /// The active substance.
        public var substanceID: EntityID
        /// The substance's name.
        public var name: String
        /// nil when the concentration does not convert (g/l in a product dosed in kg).
        public var grams: Double?

        // The output contract (docs/json-keys.md): renaming a property leaves these alone.
        enum CodingKeys: String, CodingKey {
            case substanceID = "substanceId"
            case name, grams
        }
    }

    /// Hectares to treat.
    public var area: Double
    /// Spray volume, l/ha.
    public var water: Double
    /// The sprayer's tank, litres.
    public var tank: Double
    /// Litres of spray for the whole area.
    public var totalWater: Double
    /// Loads in all, the last one partial when `lastLoadWater` is below the tank.
    public var loads: Int
    /// Full tank loads.
    public var fullLoads: Int
    /// Litres of spray in the last, partial load; 0 when every load is full.
    public var lastLoadWater: Double
    /// Hectares one full load covers.
    public var areaPerFullLoad: Double
    /// Each product's amounts, in the order given.
    public var products: [ProductAmounts]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case area, water, tank, totalWater, loads, fullLoads, lastLoadWater, areaPerFullLoad, products
    }
}

/// A tank calculation that cannot be made with the numbers given.
public struct TankError: UserFacingError, Equatable {
    /// What can be wrong with a tank's numbers, with the values typed for an interface to word.
    public enum Kind: Sendable, Equatable {
        /// The area, spray volume, tank or a dose (`option`: "area", "water", "tank", "dose", as
        /// each front spells it) is not a positive finite number.
        case notPositive(option: String, value: Double)
        /// No `--product` given.
        case noProduct
        /// Area × water needs more than `TankPlan.maximumLoads` loads of the tank.
        case tooManyLoads(area: Double, water: Double, tank: Double)
        /// A product's dose is not a positive finite number.
        case doseNotPositive(product: String, dose: Double)
        /// The dose's unit is not per hectare.
        case notPerHectare(unit: String)
        /// The command line gives a number of `--dose` other than of `--product`.
        case doseCountMismatch
        /// The command line gives several `--unit`, not one per `--product`.
        case unitCountMismatch
        /// A dose outside every registered range it can be compared with.
        case doseOutsideRange(product: String, dose: Double, unit: String, registered: [Dose])
        /// Positive numbers whose loads or amounts are not finite (1e300 l tanks at 1e-300 l/ha).
        case notComputable(area: Double, water: Double, tank: Double)
    }

    /// What is wrong with the numbers.
    public var kind: Kind
    /// Creates the error.
    public init(_ kind: Kind) { self.kind = kind }

    /// What is wrong, in English.
    public var reason: String {
        switch kind {
        case let .notPositive(option, value): return "--\(option) must be a positive number, not \(value.plainText)"
        case .noProduct: return "give at least one --product"
        case let .tooManyLoads(area, water, tank):
            return
                "\(area.plainText) ha × \(water.plainText) l/ha needs more than \(TankPlan.maximumLoads.plainText) loads of a \(tank.plainText) l tank"
        case let .doseNotPositive(product, dose): return "the dose of \(product) must be a positive number, not \(dose.plainText)"
        case let .notPerHectare(unit): return "\(unit) is not a dose per hectare (l/ha, ml/ha, kg/ha, g/ha)"
        case .doseCountMismatch: return "give one --dose per --product"
        case .unitCountMismatch: return "give one --unit, or one per --product"
        case let .doseOutsideRange(product, dose, unit, registered):
            return
                "the dose \(dose.plainText) \(unit) of \(product) is outside the registered \(registered.map(\.label).joined(separator: " or "))"
        case .notComputable: return "these numbers cannot be worked out: check --area, --water and --tank"
        }
    }

    /// The reason, as the user reads it.
    public var message: String { reason }
}

extension TankPlan {
    /// More tank loads than this is a typing error, not a field.
    public static let maximumLoads: Double = 1_000_000_000

    /// Checks that area, spray volume and tank volume are positive finite numbers, the first
    /// thing `compute` does; callers use it to refuse bad numbers before any other work.
    ///
    /// - Throws: `TankError` naming the first option that is not.
    public static func checkSizes(area: Double, water: Double, tank: Double) throws {
        for (name, value) in [("area", area), ("water", water), ("tank", tank)] where !(value.isFinite && value > 0) {
            throw TankError(.notPositive(option: name, value: value))
        }
    }

    /// Computes the loads for `area` hectares at `water` l/ha with a `tank`-litre sprayer.
    ///
    /// - Throws: `TankError` for a number that is not positive and finite, or a dose that is
    ///   not per hectare.
    public static func compute(area: Double, water: Double, tank: Double, products: [TankProduct]) throws -> TankPlan {
        try checkSizes(area: area, water: water, tank: tank)
        guard !products.isEmpty else { throw TankError(.noProduct) }
        let totalWater = area * water
        // A few millilitres short of a full tank still count as a full load.
        let exactLoads = totalWater / tank
        // Far beyond any field, and Int() below would trap on an infinite count (1e300 × 1e300).
        guard exactLoads < Self.maximumLoads else {
            throw TankError(.tooManyLoads(area: area, water: water, tank: tank))
        }
        let fullLoads = Int((exactLoads + 1e-9).rounded(.down))
        var lastLoadWater = totalWater - Double(fullLoads) * tank
        if lastLoadWater < 1e-6 * tank { lastLoadWater = 0 }
        let areaPerFullLoad = tank / water
        let lastArea = lastLoadWater / water
        var amounts: [ProductAmounts] = []
        for product in products {
            guard product.dose.isFinite, product.dose > 0 else {
                throw TankError(.doseNotPositive(product: product.name, dose: product.dose))
            }
            guard let unit = DoseUnit(product.unit), unit.basis == .hectare else {
                throw TankError(.notPerHectare(unit: product.unit))
            }
            let totalBase = product.dose * area * unit.factor
            let substances = product.ingredients.map { ingredient in
                SubstanceAmount(
                    substanceID: ingredient.substance.id, name: ingredient.substance.name,
                    grams: gramsPerBaseUnit(concentration: ingredient.concentration, unit: ingredient.unit, amount: unit.amount)
                        .map { $0 * totalBase })
            }
            amounts.append(
                ProductAmounts(
                    productID: product.product, name: product.name, unit: String(unit.symbol.prefix { $0 != "/" }),
                    perFullLoad: product.dose * areaPerFullLoad, lastLoad: product.dose * lastArea,
                    total: product.dose * area, substances: substances))
        }
        // Each number is finite, but a quotient of two of them need not be (1e300 / 1e-300).
        let computed =
            [totalWater, areaPerFullLoad, lastArea]
            + amounts.flatMap { [$0.perFullLoad, $0.lastLoad, $0.total] + $0.substances.compactMap(\.grams) }
        guard computed.allSatisfy(\.isFinite) else {
            throw TankError(.notComputable(area: area, water: water, tank: tank))
        }
        return TankPlan(
            area: area, water: water, tank: tank, totalWater: totalWater, loads: fullLoads + (lastLoadWater > 0 ? 1 : 0),
            fullLoads: fullLoads, lastLoadWater: lastLoadWater, areaPerFullLoad: areaPerFullLoad, products: amounts)
    }
}
