import Foundation

/// Registered uses side by side: what can be used against a pest on a culture.
public protocol UseComparisonUseCase: Sendable {
    /// One row per product × use matching `query`, ordered by `query.sort`.
    func compareUses(_ query: UseQuery, page: PageRequest, locale: String) throws -> Page<UseRow>
}
