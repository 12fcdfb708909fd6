import AgroDomain
import AgroPresentation
import ArgumentParser
import Foundation

/// The plan breaks at least one rule; its findings are already printed.
struct PlanViolations: CommandError {
    var count: Int
    /// "the plan has 4 violations", in the interface language.
    var message: String
    var exitStatus: ExitStatus { .planViolations }
}

/// A plan file that does not exist or cannot be read.
struct UnreadablePlan: CommandError {
    var path: String
    var message: String { "cannot read the plan file \(path)" }
    var exitStatus: ExitStatus { .ioError }
}

struct PlanCheckCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a season plan (JSON or CSV) against the registrations and resistance rules.",
        discussion: """
            Each application is checked for registration on the culture against a named pest and on the \
            date, dose range (units converted), BBCH window, applications and interval per season, \
            pre-harvest interval; the whole plan for mode-of-action groups in a row, their share and the \
            catalog's group limits, and the active substance per hectare. Exit status 0 when the plan \
            passes, 20 when it has violations. Examples: Database/examples/.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The plan file (.json or .csv); - reads standard input.") var file: String

    static var maximumPlanBytes: Int { CatalogDocuments.maximumPlanBytes }

    func run() throws {
        let environment = try Environment(global)
        let input = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file)
        // A season plan is a few kilobytes; a larger input is a mistake, not a plan to read whole.
        guard let input, let data = try? input.read(upToCount: Self.maximumPlanBytes + 1) ?? Data() else {
            throw UnreadablePlan(path: file)
        }
        guard data.count <= Self.maximumPlanBytes else {
            throw RequestError.fileTooLarge(path: file, mebibytes: Self.maximumPlanBytes / 1_048_576)
        }
        let catalog = try environment.openCatalogUntilExit()
        let document = try CatalogDocuments.planCheck(data, fileName: file, catalog: catalog, environment: environment)
        let (resolved, report) = (document.resolved, document.report)
        try environment.print(document) {
            [["application", "rule", "severity", "message", "source"]]
                + report.findings.map { finding in
                    [
                        finding.application.map(String.init) ?? "", finding.rule.rawValue, finding.severity.rawValue,
                        finding.message, finding.source,
                    ]
                }
        } table: {
            Self.lines(resolved, report: report, environment: environment)
        }
        if !report.passed {
            throw PlanViolations(
                count: report.violations, message: environment.strings.plural("plan.violations", report.violations))
        }
    }

    static func lines(_ resolved: ResolvedPlan, report: PlanReport, environment: Environment) -> [String] {
        let s = environment.strings
        let width = environment.output.size.columns
        let plan = resolved.plan
        var header = s("plan.title", resolved.culture.name)
        if let area = plan.area { header += " · " + s("plan.area", s.number(area)) }
        if let sowing = plan.sowing { header += " · " + s("plan.sowing", sowing) }
        if let harvest = plan.harvest { header += " · " + s("plan.harvest", harvest) }
        var lines = [environment.bold(header), ""]
        let mark: (FindingSeverity) -> String = { severity in
            switch severity {
            case .error: return "✗"
            case .warning: return "!"
            case .info: return "·"
            }
        }
        func findingLines(_ findings: [PlanFinding]) -> [String] {
            findings.flatMap { finding in
                DisplayWidth.wrap(
                    "\(mark(finding.severity)) [\(FindingWording(strings: s).rule(finding.rule))] \(finding.message)",
                    width: width, indent: "    ",
                    hanging: "  ")
                    + DisplayWidth.wrap(s("plan.source", finding.source), width: width, indent: "        ")
            }
        }
        // Findings by application, read once (a filter per application was quadratic).
        let byApplication = Dictionary(grouping: report.findings.filter { $0.application != nil }) { $0.application ?? 0 }
        for (index, application) in plan.applications.enumerated() {
            let number = index + 1
            let (when, products) = (application.when(), application.products(s))
            lines += DisplayWidth.wrap(
                "\(number). " + (when.isEmpty ? "" : when.joined(separator: " · ") + " — ") + products,
                width: width, indent: "  ", hanging: "   ")
            let findings = byApplication[number] ?? []
            lines += findings.isEmpty ? ["    ✓ " + s("plan.ok")] : findingLines(findings)
        }
        lines += ["", environment.bold(s("plan.season"))]
        lines += findingLines(report.findings.filter { $0.application == nil })
        let warnings = report.findings.filter { $0.severity == .warning }.count
        lines += [
            "", environment.bold(report.passed ? s("plan.passed", warnings) : s("plan.failed", report.violations, warnings)),
        ]
        return lines
    }
}
