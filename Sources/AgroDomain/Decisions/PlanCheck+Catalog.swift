import Foundation

/// A plan with its names resolved to catalog ids, ready to check.
public struct ResolvedPlan: Sendable {
    /// The plan's culture, with its name in the requested locale.
    public var culture: EntityRef
    /// The plan as written.
    public var plan: SeasonPlan
    /// One line per product of every application, ids resolved.
    public var lines: [PlanLine]
    /// Names of the pests the plan names, for messages.
    public var pestNames: [EntityID: String]
}

extension PlanCheck {
    /// Resolves the plan's culture, products and pests (ids or names in any catalog language).
    ///
    /// - Throws: `CatalogError` for a name that matches nothing or several entities.
    public static func resolve(
        _ plan: SeasonPlan, in catalog: some LookupUseCase & CulturesUseCase, locale: String
    ) throws -> ResolvedPlan {
        let cultureID = try catalog.resolve(plan.culture, kind: .culture, locale: locale).id
        let cultureName = try catalog.culture(id: cultureID, locale: locale)?.name ?? cultureID
        var lines: [PlanLine] = [], pestNames: [EntityID: String] = [:]
        var products: [String: EntityID] = [:], pests: [String: EntityRef] = [:]
        func product(_ text: String) throws -> EntityID {
            if let id = products[text] { return id }
            let id = try catalog.resolve(text, kind: .product, locale: locale).id
            products[text] = id
            return id
        }
        func pestIDs(_ texts: [String]) throws -> [EntityID] {
            try texts.map { text in
                let match = try pests[text] ?? catalog.resolve(text, kind: .pest, locale: locale)
                pests[text] = match
                pestNames[match.id] = match.name
                return match.id
            }
        }
        for (index, application) in plan.applications.enumerated() {
            lines.append(
                PlanLine(
                    application: index + 1, product: try product(application.product), dose: application.dose,
                    unit: application.unit, pests: try pestIDs(application.pests), date: application.date, bbch: application.bbch)
            )
            for partner in application.partners {
                lines.append(
                    PlanLine(
                        application: index + 1, product: try product(partner.product), dose: partner.dose, unit: partner.unit,
                        pests: try pestIDs(partner.pests), date: application.date, bbch: application.bbch))
            }
        }
        return ResolvedPlan(culture: EntityRef(id: cultureID, name: cultureName), plan: plan, lines: lines, pestNames: pestNames)
    }

    /// Reads from the catalog what the rules need about a resolved plan.
    public static func facts(
        for resolved: ResolvedPlan, in catalog: some SeasonPlanUseCase & CulturesUseCase & ResistanceUseCase, locale: String
    ) throws -> PlanFacts {
        let ids = Set(resolved.lines.map(\.product)).sorted()
        let (products, uses) = try catalog.planFacts(products: ids, culture: resolved.culture.id, locale: locale)
        let ancestry = Set(try catalog.cultureAncestry(id: resolved.culture.id))
        // A limit for the culture's own group goes before a general one of the same group.
        let limits = try catalog.groupLimits().filter { limit in limit.culture.map(ancestry.contains) ?? true }
            .sorted { ($0.culture == nil ? 1 : 0) < ($1.culture == nil ? 1 : 0) }
        return PlanFacts(
            culture: resolved.culture, harvest: resolved.plan.harvest, products: products, uses: uses,
            limits: limits, pestNames: resolved.pestNames)
    }

    /// Resolves, reads and checks a plan against `catalog`.
    public static func run(_ plan: SeasonPlan, in catalog: some Catalog, locale: String) throws -> (ResolvedPlan, PlanReport) {
        let resolved = try resolve(plan, in: catalog, locale: locale)
        return (resolved, check(resolved.lines, facts: try facts(for: resolved, in: catalog, locale: locale)))
    }
}
