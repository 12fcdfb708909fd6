import AgroDomain
import AgroPresentation
import Foundation

/// `agro product ID --alternatives`: what else is registered for the same uses.
enum ProductAlternatives {
    static func show(id: EntityID, culture: EntityID?, pest: EntityID?, catalog: some Catalog, environment: Environment) throws {
        let locale = environment.locale
        guard let product = try catalog.product(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .product, id: id)
        }
        let found = try catalog.alternatives(to: id, culture: culture, pest: pest, locale: locale)
        let document = AlternativesDocument(product: EntityRef(id: product.id, name: product.name), items: found)
        switch environment.format {
        case .json: try environment.printJSON(document)
        case .csv: environment.output.write(document.csvLines.map { $0 + "\n" }.joined())
        case .table: environment.print(document.lines(ingredients: product.ingredients, environment: environment))
        }
    }
}
