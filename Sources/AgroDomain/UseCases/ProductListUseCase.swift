import Foundation

/// The list of products a filter finds: what a one-shot query of the command line asks, and
/// all a catalog read without the rest of the use cases (`DirectCatalog`) answers of products.
public protocol ProductListUseCase: Sendable {
    /// Products matching `filter`, ordered by name in `locale`.
    func products(_ filter: ProductFilter, page: PageRequest, locale: String) throws -> Page<ProductSummary>
}
