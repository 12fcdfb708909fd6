import Foundation

/// Label: value lines of a card.
package enum Card {
    /// A card's head: the name in bold, its facts, then its description wrapped to the
    /// terminal's width.
    package static func head(name: String, facts: [(String, String)], description: String?, environment: Environment) -> [String]
    {
        var lines = [environment.bold(name), ""] + Self.facts(facts)
        if let description {
            lines += [""] + DisplayWidth.wrap(description, width: environment.output.size.columns, indent: "  ")
        }
        return lines
    }

    package static func facts(_ facts: [(String, String)]) -> [String] {
        let width = facts.map { DisplayWidth.of($0.0) }.max() ?? 0
        return facts.map { label, value in
            "  " + label + String(repeating: " ", count: width - DisplayWidth.of(label)) + "  " + Terminal.singleLine(value)
        }
    }
}
