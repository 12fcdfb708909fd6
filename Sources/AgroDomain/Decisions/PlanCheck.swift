import Foundation

/// The rules a season plan is checked against.
public enum PlanRule: String, Sendable, Codable, CaseIterable, Hashable {
    /// The product is registered on the culture against a named pest, and valid on the date.
    case registration
    /// The dose lies within the registered range.
    case dose
    /// The BBCH stage lies within the use's window.
    case stage
    /// Applications of a product, and of an active substance, per season.
    case applications
    /// Days between two applications of the same product.
    case interval
    /// Days between the last application and the expected harvest.
    case preHarvestInterval = "pre_harvest_interval"
    /// Mode-of-action groups: consecutive use, share of the season, group limits, unknown groups.
    case resistance
    /// Active substance per hectare over the season.
    case substanceTotal = "substance_total"
}

/// How much a finding weighs: errors are violations (the plan fails), warnings are advice,
/// infos are facts (season totals, what could not be checked).
public enum FindingSeverity: String, Sendable, Codable, CaseIterable, Hashable {
    /// `error`: a violation; `warning`: advice; `info`: a fact.
    case error, warning, info
}

/// One result of a plan check, for one application (1-based, in the plan's order) or for the
/// whole plan (`application` nil).
public struct PlanFinding: Sendable, Hashable, Codable {
    /// The application's number (1-based, in the plan's order); nil for the whole plan.
    public var application: Int?
    /// The rule that produced the finding.
    public var rule: PlanRule
    /// Whether the finding fails the plan.
    public var severity: FindingSeverity
    /// What was found, in one line, in English (an interface words `kind` in its language).
    public var message: String
    /// What was found, with its values typed; nil for a finding made from a message alone
    /// (or decoded from JSON).
    public var kind: PlanFindingKind? = nil
    /// Where the limit comes from, typed; nil as `kind` is.
    public var origin: PlanFindingSource? = nil
    /// Where the rule's limit comes from: the use and registration, or the guidance.
    public var source: String

    /// Creates a finding.
    public init(application: Int?, rule: PlanRule, severity: FindingSeverity, message: String, source: String) {
        self.application = application
        self.rule = rule
        self.severity = severity
        self.message = message
        self.source = source
    }

    /// Creates a finding whose message is `kind`'s English wording.
    public init(application: Int?, rule: PlanRule, severity: FindingSeverity, kind: PlanFindingKind, source: PlanFindingSource) {
        self.init(application: application, rule: rule, severity: severity, message: kind.message, source: source.text)
        self.kind = kind
        self.origin = source
    }

    enum CodingKeys: String, CodingKey { case application, rule, severity, message, source }

    /// `application` is always present (null for the whole plan).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(application, forKey: .application)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encode(message, forKey: .message)
        try c.encode(source, forKey: .source)
    }
}

/// Grams of one active substance per hectare over the season.
public struct SubstanceTotal: Sendable, Hashable, Codable {
    /// The active substance.
    public var substanceID: EntityID
    /// The substance's name.
    public var name: String
    /// nil when a dose or concentration could not be converted.
    public var gramsPerHectare: Double?
    /// Per-hectare applications counted in the total.
    public var applications: Int
    /// Seed treatments (dosed per tonne of seed), left out of the total.
    public var seedTreatments: Int

    /// Creates a total.
    public init(substanceID: EntityID, name: String, gramsPerHectare: Double?, applications: Int, seedTreatments: Int = 0) {
        self.substanceID = substanceID
        self.name = name
        self.gramsPerHectare = gramsPerHectare
        self.applications = applications
        self.seedTreatments = seedTreatments
    }

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case substanceID = "substanceId"
        case name, gramsPerHectare, applications, seedTreatments
    }
}

/// The outcome of a plan check.
public struct PlanReport: Sendable, Hashable, Encodable {
    /// Findings, per application in the plan's order, then for the whole plan.
    public var findings: [PlanFinding]
    /// Active substance per hectare over the season, by substance.
    public var totals: [SubstanceTotal]
    /// The number of errors.
    public var violations: Int { findings.filter { $0.severity == .error }.count }
    /// Whether the plan has no errors.
    public var passed: Bool { violations == 0 }

    /// Creates a report.
    public init(findings: [PlanFinding], totals: [SubstanceTotal]) {
        self.findings = findings
        self.totals = totals
    }

    enum CodingKeys: String, CodingKey { case findings, totals, violations, passed }

    /// Encodes the findings and totals with `violations` and `passed`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(findings, forKey: .findings)
        try c.encode(totals, forKey: .totals)
        try c.encode(violations, forKey: .violations)
        try c.encode(passed, forKey: .passed)
    }
}

/// One product applied in a plan, with ids resolved: an application's main product or one of
/// its tank partners (same application number).
public struct PlanLine: Sendable, Hashable {
    /// The application's number, 1-based, in the plan's order.
    public var application: Int
    /// The product.
    public var product: EntityID
    /// The dose, in `unit`.
    public var dose: Double
    /// The dose's unit as the plan writes it.
    public var unit: String
    /// The pests the line is aimed at; empty when the plan names none.
    public var pests: [EntityID]
    /// The application's date, if the plan gives one.
    public var date: PlanDate?
    /// The application's growth stage, if the plan gives one.
    public var bbch: Int?

    /// Creates a line.
    public init(application: Int, product: EntityID, dose: Double, unit: String, pests: [EntityID], date: PlanDate?, bbch: Int?) {
        self.application = application
        self.product = product
        self.dose = dose
        self.unit = unit
        self.pests = pests
        self.date = date
        self.bbch = bbch
    }
}

/// What the catalog says about a plan's products on its culture.
public struct PlanFacts: Sendable {
    /// The plan's culture.
    public var culture: EntityRef
    /// The expected harvest, for the pre-harvest intervals.
    public var harvest: PlanDate?
    /// Product cards (ingredients with their groups, registration).
    public var products: [EntityID: Product]
    /// Each product's uses on the culture or a group it belongs to.
    public var uses: [EntityID: [Use]]
    /// Group limits that apply to the culture.
    public var limits: [GroupLimit]
    /// Names of the pests the plan names, for messages.
    public var pestNames: [EntityID: String]

    /// Creates the facts.
    public init(
        culture: EntityRef, harvest: PlanDate?, products: [EntityID: Product], uses: [EntityID: [Use]],
        limits: [GroupLimit], pestNames: [EntityID: String] = [:]
    ) {
        self.culture = culture
        self.harvest = harvest
        self.products = products
        self.uses = uses
        self.limits = limits
        self.pestNames = pestNames
    }
}

/// The season-plan rules, as plain functions of the plan and the catalog's facts.
public enum PlanCheck {
    /// Where the general resistance advice comes from.
    public static let resistanceGuidance =
        "FRAC, IRAC and HRAC resistance-management guidance: alternate or mix modes of action (frac.info, irac-online.org, hracglobal.com)"

    /// Checks `lines` (every product of every application) against `facts`.
    public static func check(_ lines: [PlanLine], facts: PlanFacts) -> PlanReport {
        var findings: [PlanFinding] = []
        // Applications in time order when every one has a date, else as the plan lists them.
        let timed = lines.allSatisfy { $0.date != nil }
        let ordered = lines.enumerated().sorted { a, b in
            if timed, let da = a.element.date, let db = b.element.date, da != db { return da < db }
            return a.offset < b.offset
        }.map(\.element)
        var applicable: [Int: [Use]] = [:]  // by index in `ordered`
        for (index, line) in ordered.enumerated() {
            let (uses, lineFindings) = registration(line, facts: facts)
            applicable[index] = uses
            findings += lineFindings
            guard !uses.isEmpty else { continue }
            findings += dose(line, uses: uses, facts: facts)
            findings += stage(line, uses: uses, facts: facts)
            findings += preHarvest(line, uses: uses, facts: facts)
        }
        findings += counts(ordered, applicable: applicable, facts: facts)
        findings += resistance(ordered, facts: facts)
        let totals = substanceTotals(ordered, facts: facts)
        for total in totals {
            let kind = PlanFindingKind.substanceTotal(
                substance: total.name, gramsPerHectare: total.gramsPerHectare, applications: total.applications,
                seedTreatments: total.seedTreatments)
            findings.append(
                PlanFinding(
                    application: nil, rule: .substanceTotal, severity: .info, kind: kind,
                    source: .label))
        }
        let order: (PlanFinding) -> Int = { $0.application ?? Int.max }
        findings = findings.enumerated().sorted { a, b in
            order(a.element) != order(b.element) ? order(a.element) < order(b.element) : a.offset < b.offset
        }.map(\.element)
        return PlanReport(findings: findings, totals: totals)
    }

    private static func name(_ product: EntityID, _ facts: PlanFacts) -> String { facts.products[product]?.name ?? product }

    static func useSource(_ use: Use, _ facts: PlanFacts) -> PlanUseSource {
        PlanUseSource(use: use.id, product: use.product.name, registration: facts.products[use.product.id]?.registrationNumber)
    }

    /// The uses that cover this line (culture through its groups, a named pest), and the
    /// registration findings.
    static func registration(_ line: PlanLine, facts: PlanFacts) -> ([Use], [PlanFinding]) {
        var findings: [PlanFinding] = []
        let product = facts.products[line.product]
        let productName = name(line.product, facts)
        if let expiry = product?.registrationExpiry, let expires = PlanDate(expiry), let date = line.date, date > expires {
            findings.append(
                PlanFinding(
                    application: line.application, rule: .registration, severity: .error,
                    kind: .registrationExpired(product: productName, expiry: expiry, date: date),
                    source: .registration(product?.registrationNumber ?? line.product)))
        }
        let onCulture = facts.uses[line.product] ?? []
        guard !onCulture.isEmpty else {
            findings.append(
                PlanFinding(
                    application: line.application, rule: .registration, severity: .error,
                    kind: .notRegisteredOnCulture(product: productName, culture: facts.culture.name),
                    source: .catalogUses(product: productName)))
            return ([], findings)
        }
        guard !line.pests.isEmpty else {
            findings.append(
                PlanFinding(
                    application: line.application, rule: .registration, severity: .info,
                    kind: .noPestNamed(product: productName, culture: facts.culture.name),
                    source: .catalogUses(product: productName)))
            return (onCulture, findings)
        }
        let wanted = Set(line.pests)
        let covering = onCulture.filter { use in use.pests.contains { wanted.contains($0.pest.id) } }
        if covering.isEmpty {
            let pests = line.pests.map { facts.pestNames[$0] ?? $0 }
            findings.append(
                PlanFinding(
                    application: line.application, rule: .registration, severity: .error,
                    kind: .notRegisteredAgainstPests(product: productName, culture: facts.culture.name, pests: pests),
                    source: .uses(onCulture.map { useSource($0, facts) })))
        }
        return (covering, findings)
    }

    /// Whether `value` in `unit` lies in the use's dose range; nil when the units do not convert.
    public static func doseFits(_ value: Double, unit: String, use: Use) -> Bool? {
        // "Up to" (no minimum) starts at zero; a single number is both ends.
        guard let high = use.dose.to ?? use.dose.from else { return true }
        let low = use.dose.from ?? 0
        let registeredUnit = use.dose.unit ?? ""
        var converted: Double?
        if let from = DoseUnit(unit), let to = DoseUnit(registeredUnit) {
            converted = from.convert(value, to: to)
        } else if unit.lowercased().filter({ !$0.isWhitespace }) == registeredUnit.lowercased().filter({ !$0.isWhitespace }) {
            converted = value
        }
        guard let converted else { return nil }
        // Relative tolerance for decimal conversions (0.3 l/ha = 300 ml/ha).
        let tolerance = 1e-9 * max(1, abs(high))
        return converted >= low - tolerance && converted <= high + tolerance
    }

    static func dose(_ line: PlanLine, uses: [Use], facts: PlanFacts) -> [PlanFinding] {
        let results = uses.map { doseFits(line.dose, unit: line.unit, use: $0) }
        if results.contains(true) { return [] }
        let given = Dose(from: line.dose, to: nil, unit: line.unit)
        if results.allSatisfy({ $0 == nil }) {
            let units = Set(uses.compactMap(\.dose.unit)).sorted()
            return [
                PlanFinding(
                    application: line.application, rule: .dose, severity: .warning,
                    kind: .doseNotComparable(product: name(line.product, facts), dose: given, registeredUnits: units),
                    source: .uses(uses.map { useSource($0, facts) }))
            ]
        }
        let comparable = uses.enumerated().filter { results[$0.offset] == false }.map(\.element)
        return [
            PlanFinding(
                application: line.application, rule: .dose, severity: .error,
                kind: .doseOutsideRange(product: name(line.product, facts), dose: given, registered: comparable.map(\.dose)),
                source: .uses(comparable.map { useSource($0, facts) }))
        ]
    }

    static func stage(_ line: PlanLine, uses: [Use], facts: PlanFacts) -> [PlanFinding] {
        guard let bbch = line.bbch else { return [] }
        if uses.contains(where: { $0.bbch?.contains(bbch) ?? true }) { return [] }
        let windows = uses.compactMap(\.bbch)
        return [
            PlanFinding(
                application: line.application, rule: .stage, severity: .error,
                kind: .stageOutsideWindow(product: name(line.product, facts), bbch: bbch, windows: windows),
                source: .uses(uses.map { useSource($0, facts) }))
        ]
    }

    static func preHarvest(_ line: PlanLine, uses: [Use], facts: PlanFacts) -> [PlanFinding] {
        guard let harvest = facts.harvest, let date = line.date else { return [] }
        // The most lenient covering use decides; a use without a PHI sets none.
        let phis = uses.map(\.phiDays)
        guard !phis.contains(where: { $0 == nil }), let phi = phis.compactMap({ $0 }).min() else { return [] }
        let days = harvest.day - date.day
        guard days < phi else { return [] }
        let use = uses.first { $0.phiDays == phi } ?? uses[0]
        return [
            PlanFinding(
                application: line.application, rule: .preHarvestInterval, severity: .error,
                kind: .preHarvestInterval(product: name(line.product, facts), days: days, harvest: harvest, required: phi),
                source: .uses([useSource(use, facts)]))
        ]
    }

    /// Applications per product and per substance, and the interval between applications.
    static func counts(_ lines: [PlanLine], applicable: [Int: [Use]], facts: PlanFacts) -> [PlanFinding] {
        var findings: [PlanFinding] = []
        // The season allowance of a line: the most any covering use allows; nil = no limit.
        func allowance(_ index: Int) -> (Int, Use)? {
            let uses = applicable[index] ?? []
            guard !uses.isEmpty, !uses.contains(where: { $0.maxApplications == nil }) else { return nil }
            return uses.compactMap { use in use.maxApplications.map { ($0, use) } }.max { $0.0 < $1.0 }
        }
        // Per product: how many lines so far and the last one (an array copied per line made
        // the check quadratic: 25,000 applications took 10 s).
        var seen: [EntityID: (count: Int, last: Int)] = [:]
        for (index, line) in lines.enumerated() {
            let previous = seen[line.product]
            seen[line.product] = ((previous?.count ?? 0) + 1, index)
            let count = (previous?.count ?? 0) + 1
            if let (limit, use) = allowance(index), count > limit {
                findings.append(
                    PlanFinding(
                        application: line.application, rule: .applications, severity: .error,
                        kind: .productApplications(product: name(line.product, facts), count: count, limit: limit),
                        source: .uses([useSource(use, facts)])))
            }
            if let last = previous?.last, let before = lines[last].date, let date = line.date {
                let uses = applicable[index] ?? []
                let intervals = uses.map(\.intervalDays)
                if !uses.isEmpty, !intervals.contains(where: { $0 == nil }), let minimum = intervals.compactMap({ $0 }).min(),
                    date.day - before.day < minimum
                {
                    let use = uses.first { $0.intervalDays == minimum } ?? uses[0]
                    findings.append(
                        PlanFinding(
                            application: line.application, rule: .interval, severity: .error,
                            kind: .interval(
                                product: name(line.product, facts), days: date.day - before.day,
                                previous: lines[last].application,
                                required: minimum),
                            source: .uses([useSource(use, facts)])))
                }
            }
        }
        // Per substance: no more applications than the most permissive label containing it allows.
        var bySubstance: [EntityID: [Int]] = [:], names: [EntityID: String] = [:]
        for (index, line) in lines.enumerated() where !isSeedTreatment(line) {
            for ingredient in facts.products[line.product]?.ingredients ?? [] {
                bySubstance[ingredient.substance.id, default: []].append(index)
                names[ingredient.substance.id] = ingredient.substance.name
            }
        }
        for (substance, indices) in bySubstance.sorted(by: { $0.key < $1.key }) {
            let allowances = indices.map(allowance)
            guard !allowances.contains(where: { $0 == nil }),
                let (limit, use) = allowances.compactMap({ $0 }).max(by: { $0.0 < $1.0 }),
                indices.count > limit,
                // One product alone is already counted by its own allowance above.
                Set(indices.map { lines[$0].product }).count > 1
            else { continue }
            // Counted once per line; a product already over its own allowance is reported above.
            let line = lines[indices[limit]]
            findings.append(
                PlanFinding(
                    application: line.application, rule: .applications, severity: .error,
                    kind: .substanceApplications(substance: names[substance] ?? substance, count: limit + 1, limit: limit),
                    source: .uses([useSource(use, facts)])))
        }
        return findings
    }

    /// A dose per tonne of seed.
    static func isSeedTreatment(_ line: PlanLine) -> Bool { DoseUnit(line.unit)?.basis == .tonne }

    /// Mode-of-action rules over the sequence of applications (tank partners together).
    static func resistance(_ lines: [PlanLine], facts: PlanFacts) -> [PlanFinding] {
        var findings: [PlanFinding] = []
        // Applications in order, each with the groups of all its products.
        var sequence: [(application: Int, groups: Set<ModeOfAction>)] = []
        var unknown: [String: String] = [:]  // substance id -> name
        // Seed treatments are counted apart from the sprays, as FRAC's guidance counts them.
        for line in lines where !isSeedTreatment(line) {
            let ingredients = facts.products[line.product]?.ingredients ?? []
            var groups = Set<ModeOfAction>()
            for ingredient in ingredients {
                if let moa = ingredient.modeOfAction {
                    groups.insert(moa)
                } else {
                    unknown[ingredient.substance.id] = ingredient.substance.name
                }
            }
            if let last = sequence.last, last.application == line.application {
                sequence[sequence.count - 1].groups.formUnion(groups)
            } else {
                sequence.append((line.application, groups))
            }
        }
        let allGroups = Set(sequence.flatMap(\.groups)).sorted { $0.label < $1.label }
        for group in allGroups {
            let same = { (a: String, b: String) in a.uppercased() == b.uppercased() }
            let limits = facts.limits.filter { same($0.scheme, group.scheme) && same($0.group, group.group) }
            // The strictest of the limits that apply, with its source.
            func strictest<T: Comparable>(_ value: (GroupLimit) -> T?) -> (T, String)? {
                limits.compactMap { limit in value(limit).map { ($0, limit.source) } }.min { $0.0 < $1.0 }
            }
            // Applications are counted among those of the same scheme: a herbicide between two
            // fungicide sprays does not break a run of the same fungicide group.
            let ofScheme = sequence.filter { $0.groups.contains { same($0.scheme, group.scheme) } }
            let positions = ofScheme.indices.filter { ofScheme[$0].groups.contains(group) }
            let maxConsecutive = strictest(\.maxConsecutive)
            var run: [Int] = []
            func closeRun() {
                defer { run = [] }
                guard run.count >= 2 else { return }
                let numbers = run.map { ofScheme[$0].application }
                if let (limit, source) = maxConsecutive {
                    guard run.count > limit else { return }
                    findings.append(
                        PlanFinding(
                            application: ofScheme[run[limit]].application, rule: .resistance, severity: .error,
                            kind: .consecutiveOverLimit(group: group, applications: numbers, limit: limit),
                            source: .content(source)))
                } else {
                    findings.append(
                        PlanFinding(
                            application: ofScheme[run[1]].application, rule: .resistance, severity: .warning,
                            kind: .consecutive(group: group, applications: numbers),
                            source: .guidance))
                }
            }
            for position in ofScheme.indices {
                if ofScheme[position].groups.contains(group) { run.append(position) } else { closeRun() }
            }
            closeRun()
            if let (maxApplications, source) = strictest(\.maxApplications), positions.count > maxApplications {
                findings.append(
                    PlanFinding(
                        application: ofScheme[positions[maxApplications]].application, rule: .resistance, severity: .error,
                        kind: .groupApplications(group: group, count: maxApplications + 1, limit: maxApplications),
                        source: .content(source)))
            }
            let share = Double(positions.count) / Double(max(ofScheme.count, 1))
            let percent = Int((share * 100).rounded())
            if let (maxShare, source) = strictest(\.maxShare) {
                if share > maxShare + 1e-9 {
                    findings.append(
                        PlanFinding(
                            application: nil, rule: .resistance, severity: .error,
                            kind: .groupShareOverLimit(
                                group: group, count: positions.count, total: ofScheme.count, percent: percent,
                                // A catalog opened with --catalog may hold any number here.
                                limitPercent: Int((min(max(maxShare, 0), 1) * 100).rounded())),
                            source: .content(source)))
                }
            } else if ofScheme.count >= 3, share > 0.5 {
                findings.append(
                    PlanFinding(
                        application: nil, rule: .resistance, severity: .warning,
                        kind: .groupShareHigh(group: group, count: positions.count, total: ofScheme.count, percent: percent),
                        source: .guidance))
            }
        }
        for (id, substance) in unknown.sorted(by: { $0.key < $1.key }) {
            findings.append(
                PlanFinding(
                    application: nil, rule: .resistance, severity: .info,
                    kind: .unknownGroup(substance: substance, id: id),
                    source: .catalogSubstance(id)))
        }
        return findings
    }

    /// Grams of each substance per hectare over the season.
    static func substanceTotals(_ lines: [PlanLine], facts: PlanFacts) -> [SubstanceTotal] {
        var totals: [EntityID: SubstanceTotal] = [:], order: [EntityID] = []
        for line in lines {
            let unit = DoseUnit(line.unit)
            for ingredient in facts.products[line.product]?.ingredients ?? [] {
                let id = ingredient.substance.id
                if totals[id] == nil {
                    order.append(id)
                    totals[id] = SubstanceTotal(
                        substanceID: id, name: ingredient.substance.name, gramsPerHectare: 0, applications: 0)
                }
                // A seed treatment (per tonne) would need the seeding rate: left out and counted.
                if let unit, unit.basis == .tonne {
                    totals[id]?.seedTreatments += 1
                    continue
                }
                totals[id]?.applications += 1
                guard let unit,
                    let grams = gramsPerBaseUnit(
                        concentration: ingredient.concentration, unit: ingredient.unit, amount: unit.amount)
                else {
                    totals[id]?.gramsPerHectare = nil
                    continue
                }
                totals[id]?.gramsPerHectare? += line.dose * unit.factor * grams
            }
        }
        return order.compactMap { totals[$0] }
    }
}
