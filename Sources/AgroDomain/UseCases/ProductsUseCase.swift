import Foundation

/// Products and their registered uses.
public protocol ProductsUseCase: ProductListUseCase {
    /// The index letters that occur among the names of the products matching `filter`.
    func productLetters(_ filter: ProductFilter, locale: String) throws -> [String]
    /// One product's card; nil when no product has this id.
    func product(id: EntityID, locale: String) throws -> Product?
    /// Uses matching `filter`, ordered by product name, then culture.
    func uses(_ filter: UseFilter, locale: String) throws -> [Use]
}

/// Criteria for a list of uses; ids are resolved by the caller.
public struct UseFilter: Sendable, Hashable, Codable {
    /// Uses of this product.
    public var product: EntityID?
    /// Uses against this pest.
    public var pest: EntityID?
    /// Matches uses registered on this culture or on any group it belongs to.
    public var culture: EntityID?

    /// A filter; nil criteria match everything.
    public init(product: EntityID? = nil, pest: EntityID? = nil, culture: EntityID? = nil) {
        self.product = product
        self.pest = pest
        self.culture = culture
    }
}
