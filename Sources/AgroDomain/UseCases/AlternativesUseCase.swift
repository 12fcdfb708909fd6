import Foundation

/// Products that can replace a product for the same uses.
public protocol AlternativesUseCase: Sendable {
    /// Other products registered against the same pests on the same cultures as `product`
    /// (only those on `culture` and against `pest` when given), another mode of action first,
    /// then the same substance (generics), then the same mode of action.
    func alternatives(to product: EntityID, culture: EntityID?, pest: EntityID?, locale: String) throws -> [Alternative]
}
