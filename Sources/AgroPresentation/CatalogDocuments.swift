import AgroDomain
import Foundation

/// The documents the catalog commands print with `--format json`, and the filters their
/// options describe, built in one place: the commands print them and `agro web` answers with
/// them (through `Environment.json`), so the API's JSON is the CLI's by construction.
package enum CatalogDocuments {
    /// The product filter of `agro products`, every name resolved as the CLI resolves it.
    package static func productFilter(
        pest: String?, culture: String?, substance: String?, category: String?, company: String?, letter: String?,
        catalog: some LookupUseCase, environment: Environment
    ) throws -> ProductFilter {
        var filter = ProductFilter(
            pest: try environment.resolve(pest, .pest, in: catalog),
            culture: try environment.resolve(culture, .culture, in: catalog),
            substance: try environment.resolve(substance, .substance, in: catalog),
            category: try environment.category(category),
            company: try environment.resolve(company, .company, in: catalog))
        if let letter {
            try checkLetter(letter)
            filter.letter = letter
        }
        return filter
    }

    /// `--letter` (or `letter=`) is one letter or digit of the alphabet index.
    package static func checkLetter(_ letter: String) throws {
        guard TextFolding.indexLetter(of: letter) != nil, letter.count == 1 else {
            throw RequestError.notALetter(letter)
        }
    }

    /// The alphabet index (`agro products --letters`): the first letters of what `filter` finds.
    package static func letters(_ filter: ProductFilter, catalog: some Catalog, environment: Environment) throws -> [IndexLetter]
    {
        try catalog.productLetters(filter, locale: environment.locale).map { IndexLetter(id: $0, name: $0) }
    }

    /// The query of `agro uses`, names resolved and values checked as the command checks them.
    package static func useQuery(
        pest: String?, culture: String?, stage: Int?, substance: String?, group: String?, sort: String?,
        catalog: some Catalog, environment: Environment
    ) throws -> UseQuery {
        let (order, code) = try checkUseOptions(pest: pest, culture: culture, stage: stage, group: group, sort: sort)
        return UseQuery(
            pest: try environment.resolve(pest, .pest, in: catalog),
            culture: try environment.resolve(culture, .culture, in: catalog),
            stage: stage, substance: try environment.resolve(substance, .substance, in: catalog),
            group: code, sort: order, asOf: environment.today)
    }

    /// The values of `agro uses` that need no catalog, checked: the sort order and the group code.
    package static func checkUseOptions(
        pest: String?, culture: String?, stage: Int?, group: String?, sort: String?
    ) throws -> (UseSort, GroupCode?) {
        if pest == nil && culture == nil { throw RequestError.pestOrCultureNeeded }
        if let stage, !(0...99).contains(stage) { throw RequestError.stageOutOfRange(stage) }
        guard let order = UseSort(rawValue: sort ?? "name") else {
            throw RequestError.unknownValue(.sort, value: sort ?? "", valid: UseSort.allCases.map(\.rawValue))
        }
        let code = group.flatMap(GroupCode.init(parsing:))
        if group != nil && code == nil {
            throw RequestError.unknownGroup(group ?? "")
        }
        return (order, code)
    }

    /// `agro product ID`: the product with its uses.
    package static func product(id: EntityID, catalog: some Catalog, environment: Environment) throws -> ProductDocument {
        let locale = environment.locale
        guard let product = try catalog.product(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .product, id: id)
        }
        return ProductDocument(product: product, uses: try catalog.uses(UseFilter(product: id), locale: locale))
    }

    /// `agro substance ID`: the substance and the products that contain it.
    package static func substance(id: EntityID, catalog: some Catalog, environment: Environment) throws -> SubstanceDocument {
        let locale = environment.locale
        guard let substance = try catalog.substance(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .substance, id: id)
        }
        return SubstanceDocument(
            substance: substance, products: try catalog.products(ProductFilter(substance: id), page: .all, locale: locale).items)
    }

    /// `agro cultures` as JSON and CSV list it: every culture once, in the catalog's order.
    package static func cultureList(_ nodes: [CultureNode]) -> [CultureRow] {
        nodes.map { CultureRow(id: $0.id, name: $0.name, parentIDs: $0.parentIDs, depth: 0, prefix: "") }
    }

    /// `agro cultures` as a table: depth-first lines of the culture graph, roots first, children
    /// in name order. A culture with several parents appears under each of them.
    package static func cultureTree(_ nodes: [CultureNode]) -> [CultureRow] {
        var children: [EntityID: [CultureNode]] = [:]
        let known = Set(nodes.map(\.id))
        var roots: [CultureNode] = []
        for node in nodes {
            let parents = node.parentIDs.filter(known.contains)
            if parents.isEmpty { roots.append(node) }
            for parent in parents { children[parent, default: []].append(node) }
        }
        var rows: [CultureRow] = []
        func visit(_ node: CultureNode, depth: Int, lead: String, isLast: Bool, path: Set<EntityID>) {
            let branch = depth == 0 ? "" : lead + (isLast ? "└─ " : "├─ ")
            rows.append(CultureRow(id: node.id, name: node.name, parentIDs: node.parentIDs, depth: depth, prefix: branch))
            let next = children[node.id] ?? []
            let childLead = depth == 0 ? "" : lead + (isLast ? "   " : "│  ")
            for (index, child) in next.enumerated() where !path.contains(child.id) {
                visit(child, depth: depth + 1, lead: childLead, isLast: index == next.count - 1, path: path.union([child.id]))
            }
        }
        for root in roots { visit(root, depth: 0, lead: "", isLast: true, path: [root.id]) }
        return rows
    }

    /// `agro culture ID`: the culture with its products, pests and schemes.
    package static func culture(id: EntityID, catalog: some Catalog, environment: Environment) throws -> CultureDocument {
        let locale = environment.locale
        guard let culture = try catalog.culture(id: id, locale: locale) else {
            throw CatalogError.notFound(kind: .culture, id: id)
        }
        return CultureDocument(
            culture: culture,
            products: try catalog.products(ProductFilter(culture: id), page: .all, locale: locale).items,
            pests: try catalog.pests(PestFilter(culture: id), page: .all, locale: locale).items,
            schemes: try catalog.schemes(cultureID: id, locale: locale))
    }

    /// The pest filter of `agro pests`, names resolved.
    package static func pestFilter(culture: String?, kind: String?, catalog: some Catalog, environment: Environment) throws
        -> PestFilter
    {
        PestFilter(culture: try environment.resolve(culture, .culture, in: catalog), kind: try environment.pestKind(kind))
    }

    /// `agro pest ID [--culture X]`: the pest with its uses (on that culture and its groups).
    package static func pest(id: EntityID, cultureID: EntityID?, catalog: some Catalog, environment: Environment) throws
        -> PestDocument
    {
        let locale = environment.locale
        guard let pest = try catalog.pest(id: id, locale: locale) else { throw CatalogError.notFound(kind: .pest, id: id) }
        return PestDocument(pest: pest, uses: try catalog.uses(UseFilter(pest: id, culture: cultureID), locale: locale))
    }

    /// `agro scheme CULTURE [--stage N]`: the culture's schemes, cut to the stages holding `stage`.
    package static func schemes(culture: String, stage: Int?, catalog: some Catalog, environment: Environment) throws
        -> [ProtectionScheme]
    {
        let match = try catalog.resolve(culture, kind: .culture, locale: environment.locale)
        var schemes = try catalog.schemes(cultureID: match.id, locale: environment.locale)
        guard !schemes.isEmpty else {
            let available = try catalog.culturesWithSchemes(locale: environment.locale).map(\.name)
            throw SchemeError.none(culture: match.name, available: available)
        }
        if let stage {
            for index in schemes.indices {
                schemes[index].stages = schemes[index].stages.filter { $0.bbch.contains(stage) }
            }
        }
        return schemes
    }

    /// `agro contacts REGION`.
    package static func contacts(regionID: EntityID, catalog: some Catalog, environment: Environment) throws -> RegionContacts {
        guard let contacts = try catalog.contacts(regionID: regionID, locale: environment.locale) else {
            throw CatalogError.notFound(kind: .region, id: regionID)
        }
        return contacts
    }

    /// `agro contacts --near LAT,LON`: every representative with the distance, nearest first.
    package static func nearest(to point: Coordinates, catalog: some Catalog, environment: Environment) throws
        -> [RepresentativeDistance]
    {
        let regions = try catalog.regions(locale: environment.locale)
        return NearestPlaces.representatives(
            sortedByDistanceFrom: point, try catalog.representatives(locale: environment.locale), regions: regions)
    }
}

/// `agro culture --format json`.
package struct CultureDocument: Encodable, Sendable {
    package var culture: Culture
    package var products: [ProductSummary]
    package var pests: [Pest]
    package var schemes: [ProtectionScheme]

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case culture, products, pests, schemes }
}

/// `agro pest --format json`.
package struct PestDocument: Encodable, Sendable {
    package var pest: Pest
    package var uses: [Use]

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case pest, uses }
}

/// `agro substance --format json`.
package struct SubstanceDocument: Encodable, Sendable {
    package var substance: Substance
    package var products: [ProductSummary]

    // JSON keys (docs/json-keys.md), apart from the property names.
    enum CodingKeys: String, CodingKey { case substance, products }
}

/// One line of the culture tree. JSON has no `prefix` (the tree's drawing).
package struct CultureRow: Encodable, Sendable {
    package var id: EntityID
    package var name: String
    package var parentIDs: [EntityID]
    package var depth: Int
    package var prefix: String

    enum CodingKeys: String, CodingKey {
        // "Id" as in every other JSON key (productId, substanceId).
        case parentIDs = "parentIds"
        case id, name, depth
    }
}

/// `agro scheme` (and the API) for a culture that has no protection scheme.
package enum SchemeError: UserFacingError, Equatable {
    case none(culture: String, available: [String])

    package var message: String {
        switch self {
        case let .none(culture, available):
            return "no protection scheme for \(culture); schemes exist for: \(available.joined(separator: ", "))"
        }
    }
}
