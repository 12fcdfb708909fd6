import Foundation

/// Label: value lines of a card.
package enum Card {
    package static func facts(_ facts: [(String, String)]) -> [String] {
        let width = facts.map { DisplayWidth.of($0.0) }.max() ?? 0
        return facts.map { label, value in
            "  " + label + String(repeating: " ", count: width - DisplayWidth.of(label)) + "  " + Terminal.singleLine(value)
        }
    }
}
