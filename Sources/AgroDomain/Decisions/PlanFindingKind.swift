import Foundation

/// What a plan finding says, with its values typed, so that an interface can word it in its
/// own language; `message` is the English wording library users get in `PlanFinding.message`.
public enum PlanFindingKind: Sendable, Hashable, Codable {
    /// The product's registration expired before the application's date.
    case registrationExpired(product: String, expiry: String, date: PlanDate)
    /// The product has no use on the culture or any group it belongs to.
    case notRegisteredOnCulture(product: String, culture: String)
    /// The line names no pest: checked against every use on the culture.
    case noPestNamed(product: String, culture: String)
    /// The product has uses on the culture, none against the pests the line names.
    case notRegisteredAgainstPests(product: String, culture: String, pests: [String])
    /// The plan's dose unit does not convert to the registered units.
    case doseNotComparable(product: String, dose: Dose, registeredUnits: [String])
    /// The dose lies outside every registered range it can be compared with.
    case doseOutsideRange(product: String, dose: Dose, registered: [Dose])
    /// The BBCH stage lies outside every registered window.
    case stageOutsideWindow(product: String, bbch: Int, windows: [BBCHRange])
    /// Applied fewer days before the expected harvest than the pre-harvest interval.
    case preHarvestInterval(product: String, days: Int, harvest: PlanDate, required: Int)
    /// The product's `count`-th application of the season, over the label's `limit`.
    case productApplications(product: String, count: Int, limit: Int)
    /// `days` after the product's previous application (number `previous`), fewer than `required`.
    case interval(product: String, days: Int, previous: Int, required: Int)
    /// The substance's `count`-th application of the season, over every label's `limit`.
    case substanceApplications(substance: String, count: Int, limit: Int)
    /// The group in `applications` (numbers) in a row, more than `limit` allows.
    case consecutiveOverLimit(group: ModeOfAction, applications: [Int], limit: Int)
    /// The group in `applications` (numbers) in a row, with no limit in the catalog: advice.
    case consecutive(group: ModeOfAction, applications: [Int])
    /// The group's `count`-th application of the season, over the catalog's `limit`.
    case groupApplications(group: ModeOfAction, count: Int, limit: Int)
    /// The group in `count` of `total` applications of its scheme, over `limitPercent`.
    case groupShareOverLimit(group: ModeOfAction, count: Int, total: Int, percent: Int, limitPercent: Int)
    /// The group in more than half of `total` applications of its scheme: advice.
    case groupShareHigh(group: ModeOfAction, count: Int, total: Int, percent: Int)
    /// A substance without a mode-of-action group, which the resistance rules cannot count.
    case unknownGroup(substance: String, id: EntityID)
    /// Grams of a substance per hectare over the season (nil: not computable).
    case substanceTotal(substance: String, gramsPerHectare: Double?, applications: Int, seedTreatments: Int)

    /// The finding in English, as `PlanFinding.message` carries it.
    public var message: String {
        func dose(_ dose: Dose) -> String { dose.label }
        switch self {
        case let .registrationExpired(product, expiry, date):
            return "\(product): registration expired on \(expiry), before \(date)"
        case let .notRegisteredOnCulture(product, culture):
            return "\(product) is not registered on \(culture) or a group it belongs to"
        case let .noPestNamed(product, culture):
            return "no pest named: \(product) checked against all its uses on \(culture)"
        case let .notRegisteredAgainstPests(product, culture, pests):
            return "\(product) is registered on \(culture) but not against \(pests.joined(separator: ", "))"
        case let .doseNotComparable(product, given, units):
            return "\(product): \(dose(given)) cannot be compared with the registered unit (\(units.joined(separator: ", ")))"
        case let .doseOutsideRange(product, given, registered):
            return "\(product): \(dose(given)) is outside the registered \(registered.map(dose).joined(separator: " or "))"
        case let .stageOutsideWindow(product, bbch, windows):
            return "\(product): BBCH \(bbch) is outside the registered window \(windows.map(\.label).joined(separator: " or "))"
        case let .preHarvestInterval(product, days, harvest, required):
            return
                "\(product): applied \(days) days before the expected harvest on \(harvest); the pre-harvest interval is \(required) days"
        case let .productApplications(product, count, limit):
            return "\(product): application \(count) of the season; the label allows \(limit)"
        case let .interval(product, days, previous, required):
            return "\(product): \(days) days after application \(previous); at least \(required) days are required"
        case let .substanceApplications(substance, count, limit):
            return
                "\(substance): application \(count) of the substance this season; no label of a product containing it allows more than \(limit)"
        case let .consecutiveOverLimit(group, applications, limit):
            let numbers = applications.map(String.init).joined(separator: ", ")
            return
                "\(group.label) in \(applications.count) consecutive \(group.scheme) applications (\(numbers)); at most \(limit) in a row"
        case let .consecutive(group, applications):
            let numbers = applications.map(String.init).joined(separator: ", ")
            return
                "\(group.label) in consecutive \(group.scheme) applications (\(numbers)): alternate with another mode of action"
        case let .groupApplications(group, count, limit):
            return "\(group.label): application \(count) of the group this season; at most \(limit)"
        case let .groupShareOverLimit(group, count, total, percent, limitPercent):
            return "\(group.label) in \(count) of \(total) \(group.scheme) applications (\(percent) %); at most \(limitPercent) %"
        case let .groupShareHigh(group, count, total, percent):
            return
                "\(group.label) in \(count) of \(total) \(group.scheme) applications (\(percent) %): no group should carry more than half of them"
        case let .unknownGroup(substance, id):
            return "\(substance) (\(id)) has no mode-of-action group in the catalog: the resistance rules cannot count it"
        case let .substanceTotal(substance, grams, applications, seedTreatments):
            let amount =
                grams.map { "\((($0 * 100).rounded() / 100).plainText) g/ha" }
                ?? "not computable (dose or concentration units do not convert)"
            var message = "\(substance): \(amount) over \(applications) application(s)"
            if seedTreatments > 0 { message += ", plus \(seedTreatments) seed treatment(s) per tonne of seed not counted" }
            return message
        }
    }
}

/// One use a finding's limit comes from.
public struct PlanUseSource: Sendable, Hashable, Codable {
    /// The use's id.
    public var use: EntityID
    /// The product's name.
    public var product: String
    /// The product's registration number, if the catalog has one.
    public var registration: String?

    /// Creates the reference.
    public init(use: EntityID, product: String, registration: String?) {
        self.use = use
        self.product = product
        self.registration = registration
    }
}

/// Where a finding's limit comes from, typed so that an interface can word it; `text` is the
/// English wording `PlanFinding.source` carries.
public enum PlanFindingSource: Sendable, Hashable, Codable {
    /// The registered uses (one or several).
    case uses([PlanUseSource])
    /// All the catalog's uses of a product (named).
    case catalogUses(product: String)
    /// A registration, by its number (or the product's id when it has none).
    case registration(String)
    /// Dose × concentration on the product's label.
    case label
    /// The general FRAC/IRAC/HRAC resistance-management guidance.
    case guidance
    /// A source the catalog's content states in its own words (group limits).
    case content(String)
    /// The catalog's entry for a substance.
    case catalogSubstance(EntityID)

    /// The source in English.
    public var text: String {
        switch self {
        case let .uses(uses):
            return uses.map { source in
                "use \(source.use) of \(source.product)" + (source.registration.map { ", registration \($0)" } ?? "")
            }.joined(separator: "; ")
        case let .catalogUses(product): return "catalog uses of \(product)"
        case let .registration(number): return "registration \(number)"
        case .label: return "dose × concentration on the product's label"
        case .guidance: return PlanCheck.resistanceGuidance
        case let .content(text): return text
        case let .catalogSubstance(id): return "catalog substance \(id)"
        }
    }
}
