import Foundation

/// Protection schemes: what to apply at each growth stage of a culture.
public protocol SchemesUseCase: Sendable {
    /// Schemes for the culture, or for the nearest group above it that has one.
    func schemes(cultureID: EntityID, locale: String) throws -> [ProtectionScheme]
    /// Cultures that have a scheme of their own.
    func culturesWithSchemes(locale: String) throws -> [EntityRef]
}
