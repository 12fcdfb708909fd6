import AgroDomain
import AgroPresentation
import ArgumentParser

struct SchemeCommand: AgroCommand {
    static let configuration = CatalogCommands.configuration(
        "scheme", abstract: "Show a culture's protection scheme by growth stage, as a timeline over the BBCH scale.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Culture id or name.") var culture: String
    @Option(help: "Only the stages that include this BBCH growth stage (0-99).") var stage: Int?

    func validate() throws {
        if let stage, !(0...99).contains(stage) { throw RequestError.stageOutOfRange(stage) }
    }

    func run() throws {
        let (environment, catalog) = try Environment.withCatalog(global)
        let schemes = try CatalogDocuments.schemes(culture: culture, stage: stage, catalog: catalog, environment: environment)
        try environment.print(schemes) {
            let rows = schemes.flatMap { scheme in
                scheme.stages.flatMap { stage in
                    stage.treatments.map { treatment -> [String] in
                        [
                            scheme.id, String(stage.bbch.from), String(stage.bbch.to), stage.name, treatment.product.name,
                            treatment.dose.label, treatment.pests.map(\.name).joined(separator: "; "),
                        ]
                    }
                }
            }
            return [["scheme", "bbch_from", "bbch_to", "stage", "product", "dose", "pests"]] + rows
        } table: {
            schemes.flatMap { Self.timeline($0, marker: stage, environment: environment) }
        }
    }

    /// The scheme drawn over the BBCH scale: an axis 0-99, one bar per stage, then what to
    /// apply at each stage.
    static func timeline(_ scheme: ProtectionScheme, marker: Int?, environment: Environment) -> [String] {
        let s = environment.strings
        let columns = environment.output.size.columns
        let scale = max(40, min(100, columns - 8))
        let position = { (bbch: Int) in min(scale - 1, bbch * scale / 100) }
        var lines = [environment.bold(environment.heading(of: scheme))]
        if let description = scheme.description { lines += DisplayWidth.wrap(description, width: columns) }
        lines.append("")
        var axis = Array(repeating: Character(" "), count: scale + 2)
        var ticks = Array(repeating: Character("─"), count: scale)
        for bbch in stride(from: 0, through: 90, by: 10) {
            let column = position(bbch)
            ticks[column] = "┼"
            for (offset, digit) in String(bbch).enumerated() where column + offset < axis.count { axis[column + offset] = digit }
        }
        if let marker { ticks[position(marker)] = "▼" }
        lines.append("      " + String(axis))
        lines.append("BBCH  " + String(ticks))
        for (index, stage) in scheme.stages.enumerated() {
            let from = position(stage.bbch.from), to = max(position(stage.bbch.to), from)
            let bar = String(repeating: " ", count: from) + String(repeating: "█", count: to - from + 1)
            let number = String(index + 1)
            lines.append(String(repeating: " ", count: max(0, 4 - number.count)) + number + "  " + bar)
        }
        lines.append("")
        for (index, stage) in scheme.stages.enumerated() {
            lines.append(environment.bold("\(index + 1). \(stage.name)") + " (\(s.label(stage.bbch)))")
            for treatment in stage.treatments {
                var line = "   • \(treatment.product.name)"
                if !treatment.dose.isEmpty { line += " — " + environment.label(treatment.dose) }
                if !treatment.pests.isEmpty {
                    line += "; " + s("scheme.against", treatment.pests.map(\.name).joined(separator: ", "))
                }
                lines += DisplayWidth.wrap(line, width: columns, indent: "", hanging: "     ")
                if let note = treatment.note { lines += DisplayWidth.wrap(note, width: columns, indent: "     ") }
            }
        }
        if scheme.stages.isEmpty { lines.append(s("scheme.noStage")) }
        lines.append("")
        return lines
    }
}
