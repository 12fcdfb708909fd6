import Foundation

/// Resistance-management and mixing data of the catalog.
public protocol ResistanceUseCase: Sendable {
    /// Every group limit the catalog states; empty for a catalog without any.
    func groupLimits() throws -> [GroupLimit]
    /// The incompatibilities the catalog records between any two of `products`.
    func tankIncompatibilities(among products: [EntityID], locale: String) throws -> [TankIncompatibility]
}
