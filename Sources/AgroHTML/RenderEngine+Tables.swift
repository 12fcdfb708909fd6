import CLibXML2

extension RenderEngine {
    struct Cell {
        var node: Int32
        var span: Int
        var header: Bool
    }

    /// Lays out a table as aligned columns separated by " │ ", with a rule under header rows,
    /// cells wrapped inside their columns. Returns false (and writes nothing) when the table
    /// is better linearised: a single column (layout tables), or more columns than fit.
    mutating func renderTable(_ table: Int32, links: inout LinkTable) -> Bool {
        var rows: [[Cell]] = []
        var headerFlags: [Bool] = []
        var caption: Int32?
        let avail = max(1, width - sink.prefixWidth)
        // More columns than could ever fit are not worth collecting.
        let columnLimit = avail / 2 + 1

        let tree = self.tree
        let nodes = self.nodes
        func collectRow(_ tr: Int32, inHead: Bool) -> Bool {
            var cells: [Cell] = []
            var columns = 0
            var child = nodes[Int(tr)].firstChild
            while child >= 0 {
                let t = nodes[Int(child)].tag
                if t == .td || t == .th {
                    let span = min(max(1, tree.attribute(child, .colspan).flatMap { Int($0) } ?? 1), columnLimit)
                    cells.append(Cell(node: child, span: span, header: t == .th))
                    columns += span
                    if columns > columnLimit { return false }
                }
                child = nodes[Int(child)].next
            }
            if cells.isEmpty { return true }
            rows.append(cells)
            headerFlags.append(inHead || cells.allSatisfy { $0.header })
            return true
        }

        var child = nodes[Int(table)].firstChild
        while child >= 0 {
            switch nodes[Int(child)].tag {
            case .tr:
                if !collectRow(child, inHead: false) { return false }
            case .rowGroup, .thead:
                let inHead = nodes[Int(child)].tag == .thead
                var row = nodes[Int(child)].firstChild
                while row >= 0 {
                    if nodes[Int(row)].tag == .tr, !collectRow(row, inHead: inHead) { return false }
                    row = nodes[Int(row)].next
                }
            case .caption:
                caption = child
            default:
                break
            }
            child = nodes[Int(child)].next
        }
        let ncols = rows.map { $0.reduce(0) { $0 + $1.span } }.max() ?? 0
        if ncols <= 1 { return false }
        // More columns than characters: linearise without measuring.
        if ncols * 2 - 1 > avail { return false }

        // Measure: each column's widest word (minimum) and widest unwrapped line (maximum).
        var colMin = [Int](repeating: 1, count: ncols)
        var colMax = [Int](repeating: 1, count: ncols)
        var spanning: [(first: Int, span: Int, widest: Int, word: Int)] = []
        for row in rows {
            var col = 0
            for cell in row {
                let sub = renderCell(cell, width: 1_000_000, links: &links, measuring: true)
                let widest = sub.sink.lines.map(\.width).max() ?? 0
                if cell.span == 1 {
                    colMax[col] = max(colMax[col], widest)
                    colMin[col] = max(colMin[col], min(sub.widestWord, widest))
                } else {
                    spanning.append((col, min(cell.span, ncols - col), widest, min(sub.widestWord, widest)))
                }
                col += cell.span
            }
        }
        // Cells spanning columns widen them evenly when they need more than the columns give.
        for (first, span, widest, word) in spanning where span > 1 {
            let columns = first..<(first + span)
            let maxShort = widest - (colMax[columns].reduce(0, +) + (span - 1) * 3)
            if maxShort > 0 { for c in columns { colMax[c] += (maxShort + span - 1) / span } }
            let minShort = word - (colMin[columns].reduce(0, +) + (span - 1))
            if minShort > 0 { for c in columns { colMin[c] += (minShort + span - 1) / span } }
        }
        for c in 0..<ncols where colMin[c] > colMax[c] { colMax[c] = colMin[c] }
        let sumMax = colMax.reduce(0, +)
        let sumMin = colMin.reduce(0, +)
        // Even the narrowest layout would cut words: linearise instead.
        if sumMin + ncols - 1 > avail { return false }
        // Rules are " │ " when that costs no wrapping, else a bare "│" (narrow widths, nested
        // tables) rather than cutting words.
        var gap = 3
        if sumMax + (ncols - 1) * 3 > avail && (sumMin + (ncols - 1) * 3 > avail || sumMax + (ncols - 1) <= avail) {
            gap = 1
        }
        let separators = (ncols - 1) * gap
        let room = avail - separators
        var widths = colMax
        if sumMax > room {
            if sumMin <= room {
                // Everyone gets their longest word; the rest goes where text would wrap most.
                let extra = room - sumMin
                let flexible = zip(colMax, colMin).map { $0 - $1 }
                let totalFlex = max(1, flexible.reduce(0, +))
                widths = (0..<ncols).map { colMin[$0] + extra * flexible[$0] / totalFlex }
            } else {
                widths = colMin.map { max(2, room * $0 / max(1, sumMin)) }
            }
        }

        if let caption {
            let sub = renderCell(Cell(node: caption, span: 1, header: false), width: avail, links: &links)
            blockBreak(1)
            emitLines(of: sub)
        } else {
            blockBreak(1)
        }
        for (r, row) in rows.enumerated() {
            var blocks: [(engine: RenderEngine, width: Int)] = []
            var col = 0
            for cell in row {
                let w = widths[col..<min(ncols, col + cell.span)].reduce(0, +) + (cell.span - 1) * gap
                blocks.append((renderCell(cell, width: max(1, w), links: &links), w))
                col += cell.span
            }
            if col < ncols {
                // Missing cells: pad so the separators still line up.
                let w = widths[col..<ncols].reduce(0, +) + (ncols - col - 1) * gap
                blocks.append(
                    (
                        RenderEngine(
                            tree: tree, textBase: textBase, nodes: nodes, width: 1, ansi: ansi, listLinks: listLinks,
                            tableDepth: tableDepth + 1), w
                    ))
            }
            let height = blocks.map { $0.engine.sink.lines.count }.max() ?? 0
            for line in 0..<max(1, height) {
                var bytes: [UInt8] = []
                var lineWidth = 0
                for (b, block) in blocks.enumerated() {
                    if b > 0 {
                        if gap == 3 { bytes.append(0x20) }
                        bytes.append(contentsOf: [0xE2, 0x94, 0x82])  // "│"
                        if gap == 3 { bytes.append(0x20) }
                        lineWidth += gap
                    }
                    var used = 0
                    if line < block.engine.sink.lines.count {
                        let l = block.engine.sink.lines[line]
                        bytes.append(contentsOf: block.engine.sink.out[l.start..<l.end])
                        used = l.width
                    }
                    if used < block.width {
                        bytes.append(contentsOf: repeatElement(0x20, count: block.width - used))
                        used = block.width
                    }
                    lineWidth += used
                }
                sink.writeRaw(bytes, width: lineWidth)
                sink.endLine()
            }
            if headerFlags[r] && r + 1 < rows.count && !headerFlags[r + 1] {
                var rule: [UInt8] = []
                for (k, w) in widths.enumerated() {
                    if k > 0 {
                        // "─┼─", or "┼" with bare rules
                        if gap == 3 { rule.append(contentsOf: [0xE2, 0x94, 0x80]) }
                        rule.append(contentsOf: [0xE2, 0x94, 0xBC])
                        if gap == 3 { rule.append(contentsOf: [0xE2, 0x94, 0x80]) }
                    }
                    for _ in 0..<w { rule.append(contentsOf: [0xE2, 0x94, 0x80]) }
                }
                sink.writeRaw(rule, width: widths.reduce(0, +) + separators)
                sink.endLine()
            }
        }
        blockBreak(1)
        // A laid-out table cannot wrap: for an enclosing table it is one unbreakable word.
        widestWord = max(widestWord, sumMin + ncols - 1)
        return true
    }

    /// Renders a cell's content on its own at `width`.
    func renderCell(_ cell: Cell, width: Int, links: inout LinkTable, measuring: Bool = false) -> RenderEngine {
        var sub = RenderEngine(
            tree: tree, textBase: textBase, nodes: nodes, width: width, ansi: ansi, listLinks: listLinks,
            tableDepth: tableDepth + 1)
        sub.measuring = measuring || self.measuring
        if cell.header { sub.bold = 1 }
        sub.walk(children: cell.node, links: &links)
        sub.finish()
        return sub
    }

    mutating func emitLines(of sub: RenderEngine) {
        for l in sub.sink.lines {
            sink.writeRaw(Array(sub.sink.out[l.start..<l.end]), width: l.width)
            sink.endLine()
        }
    }
}

extension LineSink {
    /// Appends bytes that already carry their own styles and end with them reset.
    mutating func writeRaw(_ bytes: [UInt8], width: Int) {
        beginLine()
        out.append(contentsOf: bytes)
        lineWidth += width
    }
}
