import Foundation

/// Everything the program asks of a catalog: one protocol per area, composed.
///
/// The SQLite store implements it; so does a hot-swappable handle that forwards to whichever
/// catalog file is current. Commands receive one `Catalog` and never reach for a global.
///
/// ```swift
/// func fungicides(for culture: String, in catalog: some Catalog) throws -> [ProductSummary] {
///     let id = try catalog.resolve(culture, kind: .culture, locale: "en").id
///     let filter = ProductFilter(culture: id, category: .fungicide)
///     return try catalog.products(filter, page: .all, locale: "en").items
/// }
/// ```
public typealias Catalog = CatalogInfoUseCase & ProductsUseCase & SubstancesUseCase & CulturesUseCase
    & PestsUseCase & SchemesUseCase & ContactsUseCase & NewsUseCase & SearchUseCase & LookupUseCase
    & UseComparisonUseCase & ResistanceUseCase & AlternativesUseCase & SeasonPlanUseCase
