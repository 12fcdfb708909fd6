import AgroDomain

/// Words plan findings in the interface language from their kind: keys `finding.<kind>` in
/// `Localizable/<lang>.json`, counts through `plural`, numbers and doses as the language writes
/// them. The English strings reproduce the library's `PlanFindingKind.message` word for word.
package struct FindingWording: Sendable {
    package let strings: Localizer

    package init(strings: Localizer) { self.strings = strings }

    /// `finding` in the interface language; a finding without a kind keeps the library's message.
    package func text(_ finding: PlanFinding) -> String {
        guard let kind = finding.kind else { return finding.message }
        return text(kind)
    }

    /// The short name of the rule a finding comes from ("PHI", "срок ожидания"): key
    /// `finding.rule.<code>`; JSON and CSV keep the code itself.
    package func rule(_ rule: PlanRule) -> String {
        strings("finding.rule.\(rule.rawValue)")
    }

    /// Where `finding`'s limit comes from, in the interface language; the catalog's own words
    /// (group limits) as the catalog gives them, a finding without a typed source as it is.
    package func source(_ finding: PlanFinding) -> String {
        guard let origin = finding.origin else { return finding.source }
        return source(origin)
    }

    /// The wording of one source.
    package func source(_ origin: PlanFindingSource) -> String {
        let s = strings
        switch origin {
        case let .uses(uses):
            return uses.map { use in
                if let registration = use.registration {
                    return s("finding.source.useRegistered", use.use, use.product, registration)
                }
                return s("finding.source.use", use.use, use.product)
            }.joined(separator: "; ")
        case let .catalogUses(product): return s("finding.source.catalogUses", product)
        case let .registration(number): return s("finding.source.registration", number)
        case .label: return s("finding.source.label")
        case .guidance: return s("finding.source.guidance")
        case let .content(text): return text
        case let .catalogSubstance(id): return s("finding.source.catalogSubstance", id)
        }
    }

    /// One exhaustive switch: a kind added to the library does not compile until it is worded here.
    package func text(_ kind: PlanFindingKind) -> String {
        let s = strings
        let or = " \(s("finding.or")) "
        func window(_ range: BBCHRange) -> String { s.label(range) }
        func numbers(_ applications: [Int]) -> String { applications.map(String.init).joined(separator: ", ") }
        switch kind {
        case let .registrationExpired(product, expiry, date):
            return s("finding.registrationExpired", product, s.date(expiry), s.date(date.description))
        case let .notRegisteredOnCulture(product, culture):
            return s("finding.notRegisteredOnCulture", product, culture)
        case let .noPestNamed(product, culture):
            return s("finding.noPestNamed", product, culture)
        case let .notRegisteredAgainstPests(product, culture, pests):
            return s("finding.notRegisteredAgainstPests", product, culture, pests.joined(separator: ", "))
        case let .doseNotComparable(product, dose, units):
            return s("finding.doseNotComparable", product, s.label(dose), units.joined(separator: ", "))
        case let .doseOutsideRange(product, dose, registered):
            return s("finding.doseOutsideRange", product, s.label(dose), registered.map(s.label).joined(separator: or))
        case let .stageOutsideWindow(product, bbch, windows):
            return s("finding.stageOutsideWindow", product, bbch, windows.map(window).joined(separator: or))
        case let .preHarvestInterval(product, days, harvest, required):
            return s(
                "finding.preHarvestInterval", product, s.plural("finding.days", days), s.date(harvest.description),
                s.plural("finding.days", required))
        case let .productApplications(product, count, limit):
            return s("finding.productApplications", product, count, limit)
        case let .interval(product, days, previous, required):
            return s(
                "finding.interval", product, s.plural("finding.days", days), previous,
                s.plural("finding.daysAtLeast", required))
        case let .substanceApplications(substance, count, limit):
            return s("finding.substanceApplications", substance, count, limit)
        case let .consecutiveOverLimit(group, applications, limit):
            return s.plural(
                "finding.consecutiveOverLimit", applications.count, group.label, group.scheme,
                numbers(applications), limit)
        case let .consecutive(group, applications):
            return s("finding.consecutive", group.label, group.scheme, numbers(applications))
        case let .groupApplications(group, count, limit):
            return s("finding.groupApplications", group.label, count, limit)
        case let .groupShareOverLimit(group, count, total, percent, limitPercent):
            return s.plural("finding.groupShareOverLimit", total, group.label, count, group.scheme, percent, limitPercent)
        case let .groupShareHigh(group, count, total, percent):
            return s.plural("finding.groupShareHigh", total, group.label, count, group.scheme, percent)
        case let .unknownGroup(substance, id):
            return s("finding.unknownGroup", substance, id)
        case let .substanceTotal(substance, grams, applications, seedTreatments):
            let amount =
                grams.map { s("finding.gramsPerHectare", s.number(($0 * 100).rounded() / 100)) }
                ?? s("finding.notComputable")
            var text = s.plural("finding.substanceTotal", applications, substance, amount)
            if seedTreatments > 0 { text += s.plural("finding.seedTreatments", seedTreatments) }
            return text
        }
    }
}
