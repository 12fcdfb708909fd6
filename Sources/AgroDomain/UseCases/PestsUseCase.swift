import Foundation

/// Weeds, diseases, insects and other harmful organisms.
public protocol PestsUseCase: Sendable {
    /// Pests matching `filter`, ordered by name in `locale`.
    func pests(_ filter: PestFilter, page: PageRequest, locale: String) throws -> Page<Pest>
    /// One pest; nil when no pest has this id.
    func pest(id: EntityID, locale: String) throws -> Pest?
}
