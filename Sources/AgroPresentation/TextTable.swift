import AgroTerminal
import Foundation

/// Columns of text, aligned for a terminal of a given width.
package struct TextTable {
    package var headers: [String]
    package var rows: [[String]]
    /// Columns whose values are right-aligned (numbers).
    package var rightAligned: Set<Int> = []

    package init(headers: [String], rows: [[String]], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rows = rows
        self.rightAligned = rightAligned
    }

    /// The table as lines, fitted into `width` columns: when too wide, the widest columns are
    /// shortened and their cells end with "…".
    package func render(width: Int) -> [String] {
        let cells = ([headers] + rows).map { $0.map(Terminal.singleLine) }
        guard let columnCount = cells.map(\.count).max(), columnCount > 0 else { return [] }
        var widths = (0..<columnCount).map { column in
            cells.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
        }
        let separator = 2
        let available = max(width, columnCount * 4) - separator * (columnCount - 1)
        // The first column (the name) gives way last: it counts at half its width.
        let weight = { (column: Int) in column == 0 ? widths[column] / 2 : widths[column] }
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.max(by: { weight($0) < weight($1) }), widths[widest] > 4 else { break }
            widths[widest] -= 1
        }
        var lines: [String] = []
        for (index, row) in cells.enumerated() {
            let line = (0..<columnCount).map { column -> String in
                let cell = column < row.count ? row[column] : ""
                let fitted = DisplayWidth.truncate(cell, to: widths[column])
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(fitted))
                if column == columnCount - 1 && !rightAligned.contains(column) { return fitted }
                return rightAligned.contains(column) ? padding + fitted : fitted + padding
            }.joined(separator: String(repeating: " ", count: separator))
            lines.append(line)
            if index == 0 {
                lines.append(
                    widths.map { String(repeating: "─", count: $0) }.joined(separator: String(repeating: " ", count: separator)))
            }
        }
        return lines
    }
}

/// Width of text in terminal columns, as the HTML renderer measures it (East Asian wide
/// characters take two columns, combining marks none), and text cut or wrapped to a width.
package enum DisplayWidth {
    package static func of(_ text: String) -> Int { TerminalWidth.width(of: text) }

    /// `text` cut to at most `width` columns, ending with "…" when cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        TerminalWidth.truncated(text, to: width)
    }

    /// Words of `text` re-flowed into lines of at most `width` columns, each line after
    /// `indent`, and lines that continue a paragraph after `hanging` too.
    package static func wrap(_ text: String, width: Int, indent: String = "", hanging: String = "") -> [String] {
        var lines: [String] = []
        for paragraph in text.components(separatedBy: "\n") {
            var line = ""
            var lead = indent
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if !line.isEmpty && of(lead + candidate) > width {
                    lines.append(lead + line)
                    lead = indent + hanging
                    line = String(word)
                } else {
                    line = candidate
                }
            }
            lines.append(line.isEmpty ? "" : lead + line)
        }
        return lines
    }
}

/// Comma-separated values as RFC 4180 has them: fields with commas, quotes or line breaks
/// are quoted, quotes doubled.
package enum CSV {
    package static func line(_ fields: [String]) -> String {
        fields.map { field in
            let clean = Terminal.sanitize(field)
            guard clean.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return clean }
            return "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }
}
