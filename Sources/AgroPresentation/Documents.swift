import AgroDomain
import Foundation

// The JSON documents the catalog commands print and `agro web` answers with (docs/json-keys.md);
// the commands and the routes build them through `CatalogDocuments`.

/// The JSON shape of every list: `{"page":..,"perPage":..,"total":..,"items":[..]}`.
package struct PageDocument<Item: Encodable & Sendable>: Encodable {
    package var page: Int
    package var perPage: Int
    package var total: Int
    package var items: [Item]

    package init(_ page: Page<Item>) {
        self.page = page.page
        perPage = page.perPage
        total = page.total
        items = page.items
    }

    // The list envelope every client reads (docs/cli.md, "Lists, pages and formats").
    enum CodingKeys: String, CodingKey { case page, perPage, total, items }
}

/// An entry of the alphabet index.
package struct IndexLetter: Encodable, Sendable {
    package var id: String
    package var name: String

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case id, name }
}

/// A product with its uses, as `agro product --format json` prints it: the product's fields
/// and a `uses` array.
package struct ProductDocument: Encodable, Sendable {
    package var product: Product
    package var uses: [Use]

    enum Keys: String, CodingKey { case uses }

    package func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(uses, forKey: .uses)
    }
}
