import AgroTerminal
import CLibXML2
import Foundation

/// What `enter` did for an element, so that `exit` can undo it. One per open element:
/// the walk is iterative, so 100,000 nested elements cost heap, not stack.
struct Frame {
    var tag: Tag
    var pushedPart = false
    var styleBits: UInt8 = 0
    var contentMark = 0
    var link = 0
    var list = false
}

struct ListState {
    var ordered: Bool
    var next: Int
    var step: Int
    var markerWidth: Int
    var bulletDepth: Int
    var kind: UInt8  // "1", "a", "A", "i", "I"
}

/// Lays out one flow of content (the document, or one table cell) at one width.
struct RenderEngine {
    let width: Int
    let ansi: Bool
    let listLinks: Bool
    let tableDepth: Int
    var sink: LineSink
    var para = Paragraph()
    var frames: [Frame] = []
    var lists: [ListState] = []
    var bold = 0, italic = 0, underline = 0
    var preDepth = 0
    var preFresh = false
    /// Bumped whenever text is added: tells whether a link or list item got any content.
    var contentCounter = 0
    /// The widest unbreakable piece of text seen: a table column's minimum width.
    var widestWord = 0
    /// Layout tables deeper than this are linearised: each level costs a measuring pass.
    static let maxTableDepth = 3

    let tree: DocTree
    /// Start of `tree.text`, valid for the whole render (the tree does not change).
    let textBase: UnsafePointer<UInt8>
    /// Cells seen so far in each open row of a linearised table.
    var rowCells: [Int] = []
    /// Open <dd> elements inside the innermost <dl>, and the counts of the enclosing lists.
    var openDD = 0
    var savedDD: [Int] = []

    /// A pass that only measures widths (see `renderTable`).
    var measuring = false

    /// Start of `tree.nodes`, valid for the whole render like `textBase` (reading through it
    /// spares a retain and release of the array per node).
    let nodes: UnsafePointer<DocNode>

    init(
        tree: DocTree, textBase: UnsafePointer<UInt8>, nodes: UnsafePointer<DocNode>, width: Int, ansi: Bool,
        listLinks: Bool, tableDepth: Int
    ) {
        self.tree = tree
        self.textBase = textBase
        self.nodes = nodes
        self.width = width
        self.ansi = ansi
        self.listLinks = listLinks
        self.tableDepth = tableDepth
        self.sink = LineSink(ansi: ansi)
    }

    var style: UInt8 {
        if !ansi { return 0 }
        return (bold > 0 ? Style.bold : 0) | (italic > 0 ? Style.italic : 0) | (underline > 0 ? Style.underline : 0)
    }

    // MARK: Walk

    /// Renders the children of `root`, depth first, without recursion.
    mutating func walk(children root: Int32, links: inout LinkTable) {
        var node = nodes[Int(root)].firstChild
        while node >= 0 {
            let n = node
            if enter(n, links: &links) {
                let child = nodes[Int(n)].firstChild
                if child >= 0 {
                    node = child
                    continue
                }
            }
            // Leave elements until one has a next sibling. `n` itself is done: either it was
            // skipped, or it had no children and `enter` closed it already.
            var current = n
            while true {
                let next = nodes[Int(current)].next
                if next >= 0 {
                    node = next
                    break
                }
                let parent = nodes[Int(current)].parent
                if parent < 0 || parent == root {
                    node = -1
                    break
                }
                exit(links: &links)
                current = parent
            }
        }
    }

    mutating func finish() {
        flushParagraph()
        sink.endLine()
    }

    /// Handles the start of a node; returns whether to descend into its children.
    mutating func enter(_ n: Int32, links: inout LinkTable) -> Bool {
        let node = nodes[Int(n)]
        let tag = node.tag
        if tag == .text {
            text(textBase + Int(node.start), Int(node.end - node.start))
            return false
        }
        var f = Frame(tag: tag)
        switch tag {
        case .drop:
            return false
        case .head, .text:
            return false
        case .base, .other, .rowGroup, .thead, .caption:
            break
        case .block:
            blockBreak(0)
        case .tr:
            blockBreak(0)
            rowCells.append(0)
        case .paragraph:
            blockBreak(1)
        case .h1, .h2, .h3, .h4, .h5, .h6:
            blockBreak(1)
            sink.widestContent = 0
            bold += 1
            f.styleBits = 1
            let level = Int(tag.rawValue - Tag.h1.rawValue) + 1
            if level >= 3 {
                para.append(Array(repeating: UInt8(ascii: "#"), count: level), width: level, style: style)
                para.space()
            }
        case .ul, .ol:
            blockBreak(lists.isEmpty ? 1 : 0)
            lists.append(listState(n, ordered: tag == .ol))
            f.list = true
        case .li:
            blockBreak(0)
            if lists.isEmpty {
                lists.append(ListState(ordered: false, next: 1, step: 1, markerWidth: 2, bulletDepth: 0, kind: 0)); f.list = true
            }
            let marker = nextMarker(n)
            f.pushedPart = sink.pushPart(
                first: marker, rest: String(repeating: " ", count: TerminalWidth.width(of: marker)), limit: width)
            if !f.pushedPart {
                // No room left to indent: the marker still shows, inline.
                literal(marker.trimmingCharacters(in: .whitespaces), glued: false)
                para.space()
            }
            f.contentMark = contentCounter
        case .dt:
            blockBreak(0)
            bold += 1
            f.styleBits = 1
        case .dd:
            blockBreak(0)
            // libxml2 2.9 does not close a <dd> at the next <dd>: a dd inside a dd is a sibling.
            if openDD == 0 { f.pushedPart = sink.pushPart(first: "    ", rest: "    ", limit: width) }
            openDD += 1
        case .dl:
            blockBreak(1)
            savedDD.append(openDD)
            openDD = 0
        case .blockquote:
            blockBreak(1)
            f.pushedPart = sink.pushPart(first: "> ", rest: "> ", limit: width)
        case .pre:
            blockBreak(1)
            preDepth += 1
            preFresh = true
            sink.keepBlankLines = true
        case .hr:
            blockBreak(0)
            let w = max(1, width - sink.prefixWidth)
            sink.write(Array(repeating: "─", count: w).joined().utf8.map { $0 }, width: w, style: 0)
            sink.endLine()
            return false
        case .br:
            if preDepth > 0 { sink.endLine(force: true) } else { para.lineBreak() }
            contentCounter += 1
            return false
        case .wbr:
            // Unknown to libxml2 2.9, so what follows may have become its children.
            para.breakOpportunity(.zeroBreak)
        case .img:
            image(n)
            return false
        case .a:
            if listLinks, let href = tree.attribute(n, .href) {
                f.contentMark = contentCounter
                f.link = pendingLinks.count + 1
                pendingLinks.append(href)
            }
        case .bold:
            bold += 1
            f.styleBits = 1
        case .italic:
            italic += 1
            f.styleBits = 2
        case .underline:
            underline += 1
            f.styleBits = 4
        case .code:
            if preDepth == 0 { literal("`", glued: false) }
        case .q:
            literal("“", glued: false)
        case .table:
            if tableDepth < Self.maxTableDepth && renderTable(n, links: &links) {
                return false
            }
            blockBreak(1)
        case .td, .th:
            // Linearised table: cells in a row run on, separated by a bar.
            if let count = rowCells.last, count > 0 {
                para.space()
                literal("│", glued: false)
                para.space()
            }
            if !rowCells.isEmpty { rowCells[rowCells.count - 1] += 1 }
            if tag == .th {
                bold += 1
                f.styleBits = 1
            }
        }
        frames.append(f)
        if node.firstChild < 0 { exit(links: &links) }
        return true
    }

    var pendingLinks: [String] = []

    /// Handles the end of the innermost open element.
    mutating func exit(links: inout LinkTable) {
        guard let f = frames.popLast() else { return }
        switch f.tag {
        case .block, .rowGroup, .thead:
            blockBreak(0)
        case .tr:
            blockBreak(0)
            _ = rowCells.popLast()
        case .paragraph, .table:
            blockBreak(1)
        case .dl:
            blockBreak(1)
            openDD = savedDD.popLast() ?? 0
        case .h1, .h2, .h3, .h4, .h5, .h6:
            flushParagraph()
            sink.endLine()
            if f.tag == .h1 || f.tag == .h2, sink.widestContent > 0 {
                let w = min(sink.widestContent, max(1, width - sink.prefixWidth))
                sink.write(Array(repeating: f.tag == .h1 ? UInt8(ascii: "=") : UInt8(ascii: "-"), count: w), width: w, style: 0)
                sink.endLine()
            }
            blockBreak(1)
        case .ul, .ol:
            blockBreak(lists.count == 1 ? 1 : 0)
        case .li:
            if contentCounter == f.contentMark && f.pushedPart {
                // An empty item still shows its marker.
                flushParagraph()
                sink.beginLine()
            }
            blockBreak(0)
        case .dt:
            blockBreak(0)
        case .dd:
            blockBreak(0)
            openDD -= 1
        case .blockquote:
            blockBreak(1)
        case .pre:
            sink.endLine()
            preDepth -= 1
            sink.keepBlankLines = preDepth > 0
            blockBreak(1)
        case .a:
            if f.link > 0 {
                let href = pendingLinks.removeLast()
                // Measuring passes (table columns) only need the label's width: they leave the
                // link table alone, which spares copying it per cell.
                if contentCounter != f.contentMark,
                    let number = measuring ? links.urls.count + 1 : links.number(for: href)
                {
                    var label: [UInt8] = [UInt8(ascii: "[")]
                    label += String(number).utf8
                    label.append(UInt8(ascii: "]"))
                    if preDepth > 0 {
                        sink.write(label, width: label.count, style: style)
                    } else {
                        para.appendGlued(label, width: label.count, style: style)
                    }
                }
            }
        case .code:
            if preDepth == 0 { literal("`", glued: true) }
        case .q:
            literal("”", glued: true)
        default:
            break
        }
        if f.pushedPart { sink.popPart() }
        if f.list { lists.removeLast() }
        switch f.styleBits {
        case 1: bold -= 1
        case 2: italic -= 1
        case 4: underline -= 1
        default: break
        }
    }

    /// Ends the current block: wraps pending text and asks for `blank` empty lines before
    /// whatever comes next (blank lines between blocks collapse, as CSS margins do).
    mutating func blockBreak(_ blank: Int) {
        flushParagraph()
        if preDepth == 0 { sink.endLine() }
        sink.requestBlank(blank)
    }

    // MARK: Inline content

    /// Adds a text node's content: white space collapsed (or kept in `<pre>`), unsafe
    /// characters dropped, widths measured on the UTF-8 bytes.
    mutating func text(_ content: UnsafePointer<UInt8>, _ n: Int) {
        if n == 0 { return }
        if preDepth > 0 {
            preText(content, n)
            return
        }
        contentCounter += 1
        let s = style
        var i = 0
        while i < n {
            let b = content[i]
            if b < 0x80 {
                if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C {
                    para.space()
                    i += 1
                    continue
                }
                if b < 0x20 || b == 0x7F {
                    i += 1
                    continue
                }
                var j = i + 1
                while j < n && content[j] > 0x20 && content[j] < 0x7F { j += 1 }
                para.append(content + i, count: j - i, width: j - i, style: s)
                i = j
                continue
            }
            // A run of non-ASCII (and printable ASCII) characters.
            var j = i
            var w = 0
            let runStart = i
            while j < n {
                let c = content[j]
                if c < 0x80 {
                    if c <= 0x20 || c == 0x7F { break }
                    w += 1
                    j += 1
                    continue
                }
                let (v, len) = decodeUTF8(UnsafeBufferPointer(start: content, count: n), j, n)
                if v == 0xFFFD && len == 1 || isUnsafeScalar(v) || v == 0xA0 || v == 0xAD || v == 0x200B
                    || v == 0x2028 || v == 0x2029
                {
                    break
                }
                w += TerminalWidth.width(ofValue: v)
                j += len
            }
            if j > runStart { para.append(content + runStart, count: j - runStart, width: w, style: s) }
            if j < n && content[j] >= 0x80 {
                let (v, len) = decodeUTF8(UnsafeBufferPointer(start: content, count: n), j, n)
                switch v {
                case 0xA0: para.append([0x20], width: 1, style: s)  // no-break space: a space that glues
                case 0xAD: para.breakOpportunity(.softHyphen)
                case 0x200B: para.breakOpportunity(.zeroBreak)
                case 0x2028, 0x2029: para.space()
                case 0xFFFD: para.append([0xEF, 0xBF, 0xBD], width: 1, style: s)
                case 0x80...0x9F:
                    // C1 controls: what browsers show for the references &#128;-&#159;
                    // (Windows-1252), which libxml2 hands over as C1 code points.
                    if let mapped = windows1252C1[Int(v - 0x80)] {
                        para.append(Array(String(mapped).utf8), width: 1, style: s)
                    }
                default: break  // unsafe: dropped
                }
                i = j + len
            } else {
                i = j
            }
        }
    }

    /// Preformatted text: kept line for line, tabs expanded to multiples of eight columns.
    mutating func preText(_ content: UnsafePointer<UInt8>, _ n: Int) {
        contentCounter += 1
        let s = style
        let buf = UnsafeBufferPointer(start: content, count: n)
        var i = 0
        if preFresh {
            preFresh = false
            if n > 0 && content[0] == 0x0A { i = 1 }  // a newline right after <pre> is not content
        }
        while i < n {
            let b = content[i]
            if b == 0x0A {
                sink.endLine(force: true)
                i += 1
                continue
            }
            if b == 0x09 {
                let col = sink.lineOpen ? sink.lineWidth - sink.contentStartWidth : 0
                let spaces = 8 - col % 8
                sink.write(Array(repeating: 0x20, count: spaces), width: spaces, style: s)
                i += 1
                continue
            }
            let (v, len) = decodeUTF8(buf, i, n)
            if isUnsafeScalar(v) || v == 0xAD {
                i += len
                continue
            }
            if v == 0xFFFD && len == 1 {
                sink.write([0xEF, 0xBF, 0xBD], width: 1, style: s)
            } else {
                sink.write(UnsafeBufferPointer(rebasing: buf[i..<(i + len)]), width: TerminalWidth.width(ofValue: v), style: s)
            }
            i += len
        }
    }

    /// Adds text the renderer makes up (markers, brackets); `glued` attaches it to the text
    /// before it.
    mutating func literal(_ s: String, glued: Bool) {
        let bytes = Array(s.utf8)
        let w = TerminalWidth.width(of: s)
        if preDepth > 0 {
            sink.write(bytes, width: w, style: style)
        } else if glued {
            para.appendGlued(bytes, width: w, style: style)
        } else {
            para.append(bytes, width: w, style: style)
        }
    }

    mutating func image(_ n: Int32) {
        // Without alt text an image says nothing in a terminal (and is usually decoration,
        // a tracking pixel or an advert); alt="" marks decoration explicitly.
        guard let alt = tree.attribute(n, .alt), !alt.allSatisfy({ $0.isWhitespace }) else { return }
        contentCounter += 1
        literal("[image:", glued: false)
        para.space()
        var altText = alt
        altText.withUTF8 { buffer in
            if let base = buffer.baseAddress { text(base, buffer.count) }
        }
        literal("]", glued: true)
    }

    // MARK: Lists

    func listState(_ n: Int32, ordered: Bool) -> ListState {
        // Bullets cycle with the number of enclosing bulleted lists (kept running: O(1)).
        let bulletDepth = lists.last.map { $0.bulletDepth + ($0.ordered ? 0 : 1) } ?? 0
        guard ordered else {
            return ListState(ordered: false, next: 1, step: 1, markerWidth: 2, bulletDepth: bulletDepth, kind: 0)
        }
        var count = 0
        var c = nodes[Int(n)].firstChild
        while c >= 0 {
            if nodes[Int(c)].tag == .li { count += 1 }
            c = nodes[Int(c)].next
        }
        let reversed = tree.hasAttribute(n, .reversed)
        let start = tree.attribute(n, .start).flatMap(Self.listNumber) ?? (reversed ? count : 1)
        let kindText = tree.attribute(n, .type) ?? "1"
        let kind = kindText.utf8.first.flatMap { "1aAiI".utf8.contains($0) ? $0 : nil } ?? UInt8(ascii: "1")
        let step = reversed ? -1 : 1
        var state = ListState(ordered: true, next: start, step: step, markerWidth: 0, bulletDepth: bulletDepth, kind: kind)
        // Right-align numbers: the marker column is as wide as the widest marker.
        var widest = 0
        let last = start + step * max(0, count - 1)
        let probes = count <= 200 ? Array(0..<max(count, 1)).map { start + step * $0 } : [start, last]
        for k in probes { widest = max(widest, Self.formatNumber(k, kind: kind).count) }
        state.markerWidth = widest + 2
        return state
    }

    mutating func nextMarker(_ n: Int32) -> String {
        var state = lists[lists.count - 1]
        defer { lists[lists.count - 1] = state }
        if !state.ordered {
            let bullets = ["• ", "◦ ", "▪ "]
            return bullets[state.bulletDepth % 3]
        }
        if let value = tree.attribute(n, .value).flatMap(Self.listNumber) { state.next = value }
        let label = Self.formatNumber(state.next, kind: state.kind) + ". "
        state.next += state.step
        let pad = max(0, state.markerWidth - label.count)
        return String(repeating: " ", count: pad) + label
    }

    /// A start or value attribute, kept within ±10⁹ so that counting on cannot overflow.
    static func listNumber(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces)).map { min(max($0, -1_000_000_000), 1_000_000_000) }
    }

    static func formatNumber(_ n: Int, kind: UInt8) -> String {
        switch kind {
        case UInt8(ascii: "a"), UInt8(ascii: "A"):
            guard n > 0 else { return String(n) }
            var k = n
            var s = ""
            while k > 0 {
                k -= 1
                s = String(UnicodeScalar(UInt8(97 + k % 26))) + s
                k /= 26
            }
            return kind == UInt8(ascii: "A") ? s.uppercased() : s
        case UInt8(ascii: "i"), UInt8(ascii: "I"):
            guard n > 0 && n < 4000 else { return String(n) }
            let table: [(Int, String)] = [
                (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
            ]
            var k = n
            var s = ""
            for (value, letters) in table {
                while k >= value {
                    s += letters
                    k -= value
                }
            }
            return kind == UInt8(ascii: "I") ? s.uppercased() : s
        default:
            return String(n)
        }
    }

}

/// Windows-1252's characters for 0x80-0x9F; nil where it has none.
let windows1252C1: [Unicode.Scalar?] = [
    "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
    "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
    nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
    "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
]
