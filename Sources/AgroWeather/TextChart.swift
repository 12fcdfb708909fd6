import AgroTerminal
import Foundation

/// Text charts on a character grid.
enum TextChart {
    enum Style { case line, bars }

    /// How many plot columns each value gets: one value spread over `k` columns, or several
    /// values folded into one column when they do not fit. Returns, per column, the value
    /// indices it shows.
    static func columns(count: Int, width: Int) -> [[Int]] {
        guard count > 0, width > 0 else { return [] }
        if count <= width {
            let each = max(1, width / count)
            return (0..<count).flatMap { index in Array(repeating: [index], count: each) }
        }
        return (0..<width).map { column in
            let from = column * count / width
            let to = max(from + 1, (column + 1) * count / width)
            return Array(from..<to)
        }
    }

    static func render(
        title: String, values: [Double?], extra: [Double?]? = nil, columns: [[Int]], height: Int, labelWidth: Int,
        style: Style, floor: Double? = nil, wording w: WeatherWording = .english
    ) -> String {
        // A folded column shows the mean for lines and the maximum for bars (peaks matter for rain).
        func folded(_ series: [Double?], _ indices: [Int]) -> Double? {
            let present = indices.compactMap { series[$0] }
            guard !present.isEmpty else { return nil }
            return style == .bars ? present.max() : present.reduce(0, +) / Double(present.count)
        }
        let main = columns.map { folded(values, $0) }
        let second = extra.map { series in columns.map { folded(series, $0) } }
        let all = (main + (second ?? [])).compactMap { $0 }
        guard var low = all.min(), var high = all.max() else { return w("chart.noData", "{0}: no data", title) }
        if let floor { low = min(low, floor) }
        if high - low < 1e-9 { high = low + 1 }
        let rows = max(2, height)
        func row(_ value: Double) -> Int { Int(saturating: ((value - low) / (high - low) * Double(rows - 1)).rounded()) }
        var grid = Array(repeating: Array(repeating: Character(" "), count: columns.count), count: rows)
        for (column, value) in main.enumerated() {
            guard let value else { continue }
            let r = row(value)
            switch style {
            case .line:
                grid[r][column] = "*"
            case .bars:
                if value > 0 { for level in 0...max(0, r) { grid[level][column] = "#" } }
            }
        }
        if let second {
            for (column, value) in second.enumerated() {
                guard let value else { continue }
                let r = row(value)
                if grid[r][column] == " " { grid[r][column] = "+" }
            }
        }
        var lines = [title]
        for r in stride(from: rows - 1, through: 0, by: -1) {
            let label: String
            if r == rows - 1 {
                label = w.number(WeatherText.one(high))
            } else if r == 0 {
                label = w.number(WeatherText.one(low))
            } else {
                label = ""
            }
            lines.append(TerminalWidth.paddedLeft(label, to: labelWidth) + " |" + String(grid[r]).trimmingTrailingSpaces())
        }
        return lines.joined(separator: "\n")
    }

    /// A ruler with "|" where a new day begins and the day's name after it when it fits.
    static func timeAxis(times: [Date], columns: [[Int]], labelWidth: Int, day: (Date) -> String) -> String {
        var ruler = Array(repeating: Character("-"), count: columns.count)
        var labels = Array(repeating: Character(" "), count: columns.count + 12)
        var previous: String?
        var nextFree = 0
        for (column, indices) in columns.enumerated() {
            guard let first = indices.first else { continue }
            let name = day(times[first])
            if name != previous {
                if previous != nil { ruler[column] = "|" }
                if column >= nextFree {
                    for (offset, character) in name.enumerated() where column + offset < labels.count {
                        labels[column + offset] = character
                    }
                    nextFree = column + name.count + 1
                }
                previous = name
            }
        }
        let pad = String(repeating: " ", count: labelWidth)
        return pad + " +" + String(ruler) + "\n" + pad + "  " + String(labels).trimmingTrailingSpaces()
    }
}
