import Foundation

/// A dose unit the rules can convert: an amount of product (volume or mass) per hectare or
/// per tonne of seed. "l/ha", "ml/ha", "kg/ha", "g/ha", "l/t", "ml/t", "kg/t", "g/t".
public struct DoseUnit: Sendable, Hashable {
    /// What is measured: a liquid product's volume or a solid's mass.
    public enum Amount: String, Sendable, Hashable {
        /// Litres (or millilitres).
        case volume
        /// Kilograms (or grams).
        case mass
    }

    /// What the amount is per: a hectare sprayed or a tonne of seed treated.
    public enum Basis: String, Sendable, Hashable {
        /// Per hectare.
        case hectare
        /// Per tonne of seed.
        case tonne
    }

    /// Volume or mass.
    public var amount: Amount
    /// Per hectare or per tonne of seed.
    public var basis: Basis
    /// Litres or kilograms per unit of the amount (ml: 0.001).
    public var factor: Double
    /// The unit as written ("l/ha").
    public var symbol: String

    /// Parses a unit as labels and plans write it, case-insensitive ("L/ha", "ml/ha");
    /// nil for anything else ("%", "g/hl"), which the rules compare only when written alike.
    public init?(_ text: String) {
        let compact = text.lowercased().filter { !$0.isWhitespace }
        let parts = compact.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        switch parts[1] {
        case "ha": basis = .hectare
        case "t": basis = .tonne
        default: return nil
        }
        switch parts[0] {
        case "l": (amount, factor) = (.volume, 1)
        case "ml": (amount, factor) = (.volume, 0.001)
        case "kg": (amount, factor) = (.mass, 1)
        case "g": (amount, factor) = (.mass, 0.001)
        default: return nil
        }
        symbol = "\(parts[0])/\(parts[1])"
    }

    /// `value` in this unit expressed in `other`; nil when they measure different things
    /// (litres against kilograms: the density is unknown; per hectare against per tonne).
    public func convert(_ value: Double, to other: DoseUnit) -> Double? {
        guard amount == other.amount, basis == other.basis else { return nil }
        return value * factor / other.factor
    }

    /// The amount's base unit ("l" or "kg") and its smaller one ("ml" or "g").
    public var baseSymbol: String { amount == .volume ? "l" : "kg" }
}

/// Grams of active substance in one litre or one kilogram of product, from a label's
/// concentration ("250 g/l", "750 g/kg", "5 %"); nil when the units do not fit the product's
/// amount (g/l of a product dosed in kg) or are unknown.
public func gramsPerBaseUnit(concentration: Double?, unit: String?, amount: DoseUnit.Amount) -> Double? {
    guard let concentration, let unit else { return nil }
    switch (unit.lowercased().filter { !$0.isWhitespace }, amount) {
    case ("g/l", .volume), ("g/kg", .mass): return concentration
    case ("mg/l", .volume), ("mg/kg", .mass): return concentration / 1000
    // A percentage is per weight of a solid and, for liquids, per volume: 1 % = 10 g per kg or l.
    case ("%", _): return concentration * 10
    default: return nil
    }
}
