import Foundation

/// Regions, their representatives and distributors.
public protocol ContactsUseCase: Sendable {
    /// All regions, ordered by name in `locale`.
    func regions(locale: String) throws -> [Region]
    /// Everyone to call in one region; nil when no region has this id.
    func contacts(regionID: EntityID, locale: String) throws -> RegionContacts?
    /// Every representative of every region.
    func representatives(locale: String) throws -> [Representative]
}
