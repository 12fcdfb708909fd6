import Foundation

/// Columns of text, aligned for a terminal of a given width.
struct TextTable {
    var headers: [String]
    var rows: [[String]]
    /// Columns whose values are right-aligned (numbers).
    var rightAligned: Set<Int> = []

    /// The table as lines, fitted into `width` columns: when too wide, the widest columns are
    /// shortened and their cells end with "…".
    func render(width: Int) -> [String] {
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
                lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: String(repeating: " ", count: separator)))
            }
        }
        return lines
    }
}

/// Width of text in terminal columns: East Asian wide characters take two, combining marks
/// and other zero-width characters none.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) && v != 0x303F
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    /// `text` cut to at most `width` columns, ending with "…" when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            if used + w > width - 1 { break }
            result.append(scalar)
            used += w
        }
        return String(result) + "…"
    }

    /// Words of `text` re-flowed into lines of at most `width` columns, each line after
    /// `indent`, and lines that continue a paragraph after `hanging` too.
    static func wrap(_ text: String, width: Int, indent: String = "", hanging: String = "") -> [String] {
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
enum CSV {
    static func line(_ fields: [String]) -> String {
        fields.map { field in
            let clean = Terminal.sanitize(field)
            guard clean.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return clean }
            return "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }
}
