import AgroTerminal

/// Style bits carried by text fragments.
struct Style {
    static let bold: UInt8 = 1
    static let italic: UInt8 = 2
    static let underline: UInt8 = 4
}

/// One part of a line prefix: a list marker, a blockquote mark or an indent. `first` goes on
/// the first line written inside the element, `rest` on the following ones (same width).
struct PrefixPart {
    var first: [UInt8]
    var rest: [UInt8]
    var width: Int
    var used = false
}

/// Collects output lines: writes prefixes, blank lines between blocks, SGR styles, and
/// records each line's extent and width (tables need them).
struct LineSink {
    let ansi: Bool
    var out: [UInt8] = []
    /// Start offset, end offset and width in columns of every finished line.
    var lines: [(start: Int, end: Int, width: Int)] = []
    var parts: [PrefixPart] = []
    var prefixWidth = 0
    var lineOpen = false
    var lineStart = 0
    var lineWidth = 0
    var contentStartWidth = 0
    var style: UInt8 = 0
    var pendingBlank = 0
    /// Widest line content (without prefix) since the last reset: heading rules use it.
    var widestContent = 0
    /// Empty lines just written. Runs of <br> and empty blocks collapse to one empty line,
    /// and none lead the output; `keepBlankLines` (inside <pre>) turns that off.
    var blankRun = 0
    var hasContent = false
    var keepBlankLines = false
    /// Where the current line's content starts, after its prefix.
    var contentByteStart = 0
    /// Whether the current line shows a list marker (then it is not empty).
    var lineHasMarker = false

    init(ansi: Bool) { self.ansi = ansi }

    /// Set when a prefix part was pushed and nothing written since: the element's own
    /// leading blank lines were already written outside it, so inner requests are dropped.
    var suppressBlank = false

    mutating func requestBlank(_ n: Int) {
        if suppressBlank { return }
        if n > pendingBlank { pendingBlank = n }
    }

    mutating func beginLine() {
        if lineOpen { return }
        if !lines.isEmpty {
            for _ in 0..<pendingBlank { writeBlankLine() }
        }
        pendingBlank = 0
        suppressBlank = false
        lineStart = out.count
        lineOpen = true
        lineWidth = 0
        lineHasMarker = false
        for i in parts.indices {
            if parts[i].used {
                out.append(contentsOf: parts[i].rest)
            } else {
                out.append(contentsOf: parts[i].first)
                parts[i].used = true
                if parts[i].first != parts[i].rest { lineHasMarker = true }
            }
            lineWidth += parts[i].width
        }
        contentStartWidth = lineWidth
        contentByteStart = out.count
    }

    private mutating func writeBlankLine() {
        if blankRun >= 1 || !hasContent { return }
        blankRun += 1
        let start = out.count
        for p in parts { out.append(contentsOf: p.rest) }
        while out.count > start && out[out.count - 1] == 0x20 { out.removeLast() }
        let width = out.count - start  // prefixes are ASCII or one-column marks trimmed of spaces
        lines.append((start, out.count, width))
        out.append(0x0A)
    }

    /// Appends bytes already checked for safety, taking `width` columns.
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, width: Int, style s: UInt8) {
        beginLine()
        if ansi && s != style { setStyle(s) }
        out.append(contentsOf: bytes)
        lineWidth += width
    }

    mutating func write(_ bytes: [UInt8], width: Int, style s: UInt8) {
        bytes.withUnsafeBufferPointer { write($0, width: width, style: s) }
    }

    mutating func writeSpace(style s: UInt8) {
        beginLine()
        if ansi && s != style { setStyle(s) }
        out.append(0x20)
        lineWidth += 1
    }

    mutating func setStyle(_ s: UInt8) {
        if style != 0 { out.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D]) }  // ESC [ 0 m
        if s != 0 {
            out.append(contentsOf: [0x1B, 0x5B])
            var first = true
            for (bit, code) in [
                (Style.bold, UInt8(ascii: "1")), (Style.italic, UInt8(ascii: "3")),
                (Style.underline, UInt8(ascii: "4")),
            ] where s & bit != 0 {
                if !first { out.append(UInt8(ascii: ";")) }
                out.append(code)
                first = false
            }
            out.append(UInt8(ascii: "m"))
        }
        style = s
    }

    /// Ends the current line; with `force`, writes an empty line when none is open.
    mutating func endLine(force: Bool = false) {
        if !lineOpen {
            if !force { return }
            beginLine()
        }
        if style != 0 { setStyle(0) }
        // Trailing spaces are noise (and would make tables ragged when measured).
        var trimmed = 0
        while out.count > lineStart && out[out.count - 1] == 0x20 {
            out.removeLast()
            trimmed += 1
        }
        lineWidth = max(0, lineWidth - trimmed)
        if out.count <= contentByteStart && !lineHasMarker {
            // An empty line (only its prefix, if that).
            if !keepBlankLines && (blankRun >= 1 || !hasContent) {
                out.removeSubrange(lineStart...)
                if style != 0 { style = 0 }
                lineOpen = false
                return
            }
            blankRun += 1
        } else {
            blankRun = 0
            hasContent = true
        }
        if lineWidth - contentStartWidth > widestContent { widestContent = lineWidth - contentStartWidth }
        lines.append((lineStart, out.count, lineWidth))
        out.append(0x0A)
        lineOpen = false
    }

    /// Pushes a prefix part unless prefixes already take half the width; returns whether pushed.
    mutating func pushPart(first: String, rest: String, limit: Int) -> Bool {
        let w = TerminalWidth.width(of: first)
        if prefixWidth + w > limit / 2 { return false }
        // Blank lines asked for before this element belong outside it, without its mark.
        if !lines.isEmpty {
            for _ in 0..<pendingBlank { writeBlankLine() }
        }
        pendingBlank = 0
        suppressBlank = true
        parts.append(PrefixPart(first: Array(first.utf8), rest: Array(rest.utf8), width: w))
        prefixWidth += w
        return true
    }

    mutating func popPart() {
        if let p = parts.popLast() { prefixWidth -= p.width }
    }
}
