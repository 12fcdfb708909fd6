import Foundation

/// Active substances.
public protocol SubstancesUseCase: Sendable {
    /// All substances, ordered by name in `locale`.
    func substances(page: PageRequest, locale: String) throws -> Page<Substance>
    /// One substance; nil when no substance has this id.
    func substance(id: EntityID, locale: String) throws -> Substance?
}
