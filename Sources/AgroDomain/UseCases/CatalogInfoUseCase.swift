import Foundation

/// The catalog's own description: identity, version, languages.
public protocol CatalogInfoUseCase: Sendable {
    /// The catalog's identity, version, schema, build time, locales and attribution.
    func catalogInfo() throws -> CatalogInfo
}
