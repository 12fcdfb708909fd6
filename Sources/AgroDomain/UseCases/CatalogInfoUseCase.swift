import Foundation

/// The catalog's own description: identity, version, languages.
public protocol CatalogInfoUseCase: Sendable {
    func catalogInfo() throws -> CatalogInfo
}
