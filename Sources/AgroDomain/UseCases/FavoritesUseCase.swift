import Foundation

/// A favorite entity, by kind and stable id.
public struct Favorite: Sendable, Hashable, Codable {
    /// The kind of entity.
    public var kind: EntityKind
    /// Its stable id, valid across catalog updates.
    public var id: EntityID
    /// When it was added.
    public var addedAt: Date

    /// A favorite of `kind` and `id`, added at `addedAt`.
    public init(kind: EntityKind, id: EntityID, addedAt: Date) {
        self.kind = kind
        self.id = id
        self.addedAt = addedAt
    }
}

/// What the user keeps between runs: favorites, by stable id, so they survive every catalog
/// update. Kept apart from the catalog.
public protocol FavoritesUseCase: Sendable {
    /// Adds a favorite at `date`; adding it twice keeps the first date. Returns whether it was new.
    @discardableResult
    func addFavorite(kind: EntityKind, id: EntityID, at date: Date) throws -> Bool

    /// Removes a favorite. Returns whether there was one.
    @discardableResult
    func removeFavorite(kind: EntityKind, id: EntityID) throws -> Bool

    /// Favorites, most recently added first.
    func favorites() throws -> [Favorite]
}
