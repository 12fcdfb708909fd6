import Foundation

/// Everything the program asks of a catalog: one protocol per area, composed.
///
/// The SQLite store implements it; so does a hot-swappable handle that forwards to whichever
/// catalog file is current. Commands receive one `Catalog` and never reach for a global.
public typealias Catalog = CatalogInfoUseCase & ProductsUseCase & SubstancesUseCase & CulturesUseCase
    & PestsUseCase & SchemesUseCase & ContactsUseCase & NewsUseCase & SearchUseCase & LookupUseCase
    & UseComparisonUseCase & ResistanceUseCase & AlternativesUseCase & SeasonPlanUseCase
