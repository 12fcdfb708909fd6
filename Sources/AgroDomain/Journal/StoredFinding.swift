import Foundation

/// A finding as the journal keeps it: the English message and source an auditor reads, and the
/// typed kind and origin an interface words in its reader's language.
public struct StoredFinding: Sendable, Hashable, Codable {
    /// The application it concerns (its place in the season); nil for the season.
    public var application: Int?
    /// The rule's code.
    public var rule: PlanRule
    /// Error, warning or note.
    public var severity: FindingSeverity
    /// The message in English.
    public var message: String
    /// Where the rule comes from (the label, a resistance group).
    public var source: String
    /// What was found, typed, for an interface to word.
    public var kind: PlanFindingKind?
    /// Where it comes from, typed.
    public var origin: PlanFindingSource?

    /// The finding as kept.
    public init(_ finding: PlanFinding) {
        (application, rule, severity, message, source) = (
            finding.application, finding.rule, finding.severity, finding.message, finding.source
        )
        (kind, origin) = (finding.kind, finding.origin)
    }

    /// The finding again.
    public var finding: PlanFinding {
        var finding = PlanFinding(application: application, rule: rule, severity: severity, message: message, source: source)
        (finding.kind, finding.origin) = (kind, origin)
        return finding
    }
}
