import Foundation

/// Crops and crop groups.
public protocol CulturesUseCase: Sendable {
    /// Every culture with its parents, ordered by name in `locale`.
    func cultures(locale: String) throws -> [CultureNode]
    /// One culture with its parents, children and growth stages; nil when unknown.
    func culture(id: EntityID, locale: String) throws -> Culture?
    /// The culture and every group above it, nearest first (the culture itself first).
    func cultureAncestry(id: EntityID) throws -> [EntityID]
}
