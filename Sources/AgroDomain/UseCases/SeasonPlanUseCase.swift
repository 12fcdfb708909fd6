import Foundation

/// What a season-plan check reads about its products, in one go.
public protocol SeasonPlanUseCase: Sendable {
    /// The products with their registration and ingredients (with mode of action; no hazards,
    /// links or texts), and each product's uses on `culture` or a group above it (without
    /// obligations or notes; their cultures and pests named by id). Unknown ids are left out.
    func planFacts(products: [EntityID], culture: EntityID, locale: String) throws -> (
        products: [EntityID: Product], uses: [EntityID: [Use]]
    )
}
