import AgroTerminal

/// What separates a text fragment from the one before it.
enum Sep: UInt8 {
    /// Nothing: the fragments are parts of one word.
    case none
    /// A break opportunity that shows nothing (`<wbr>`, U+200B).
    case zeroBreak
    /// A soft hyphen: invisible, or "-" when the line breaks there.
    case softHyphen
    /// Collapsed white space: one space, or a line break.
    case space
    /// `<br>`: the fragment is empty and forces a new line.
    case lineBreak
}

/// A run of text bytes with one style.
struct Fragment {
    var start: Int32
    var end: Int32
    var width: Int32
    var style: UInt8
    var sep: Sep
}

/// The inline content of one block, as fragments over a byte buffer, waiting to be wrapped.
struct Paragraph {
    var bytes: [UInt8] = []
    var frags: [Fragment] = []
    var pending: Sep = .none

    var isEmpty: Bool { frags.isEmpty }

    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        frags.removeAll(keepingCapacity: true)
        pending = .none
    }

    /// Records white space; it only counts between two pieces of text.
    @inline(__always)
    mutating func space() {
        if frags.isEmpty || frags[frags.count - 1].sep == .lineBreak && frags[frags.count - 1].start == frags[frags.count - 1].end
        {
            return
        }
        pending = .space
    }

    mutating func breakOpportunity(_ sep: Sep) {
        if pending == .none && !frags.isEmpty { pending = sep }
    }

    mutating func lineBreak() {
        let at = Int32(bytes.count)
        frags.append(Fragment(start: at, end: at, width: 0, style: 0, sep: .lineBreak))
        pending = .none
    }

    @inline(__always)
    mutating func append(_ p: UnsafePointer<UInt8>, count: Int, width: Int, style: UInt8) {
        let n = frags.count
        if pending == .none && n > 0 && frags[n - 1].style == style
            && !(frags[n - 1].sep == .lineBreak && frags[n - 1].start == frags[n - 1].end)
        {
            frags[n - 1].end += Int32(count)
            frags[n - 1].width += Int32(width)
        } else {
            let at = Int32(bytes.count)
            let sep: Sep = (n == 0) ? .none : pending
            frags.append(Fragment(start: at, end: at + Int32(count), width: Int32(width), style: style, sep: sep))
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: count))
        pending = .none
    }

    mutating func append(_ text: [UInt8], width: Int, style: UInt8) {
        text.withUnsafeBufferPointer { buffer in
            // An empty buffer may have no address at all.
            guard let base = buffer.baseAddress else { return }
            append(base, count: buffer.count, width: width, style: style)
        }
    }

    /// Appends text glued to what precedes it, keeping pending white space for what follows.
    mutating func appendGlued(_ text: [UInt8], width: Int, style: UInt8) {
        let saved = pending
        pending = .none
        append(text, width: width, style: style)
        pending = saved
    }
}

extension RenderEngine {
    /// Wraps the paragraph into the sink at the available width, then empties it.
    mutating func flushParagraph() {
        if para.frags.isEmpty { return }
        // A single trailing <br> ends the block without adding an empty line, as in browsers.
        if let last = para.frags.last, last.sep == .lineBreak, last.start == last.end { para.frags.removeLast() }
        let avail = max(1, width - sink.prefixWidth)
        var lineW = sink.lineOpen ? sink.lineWidth - sink.contentStartWidth : 0
        let frags = para.frags
        let n = frags.count
        var i = 0
        para.bytes.withUnsafeBufferPointer { buf in
            while i < n {
                if frags[i].sep == .lineBreak && frags[i].start == frags[i].end {
                    sink.endLine(force: !sink.lineOpen)
                    lineW = 0
                    i += 1
                    continue
                }
                // A word runs until the next space or line break.
                var j = i + 1
                var wordW = Int(frags[i].width)
                var pieceW = wordW
                var widestPiece = 0
                while j < n && frags[j].sep.rawValue < Sep.space.rawValue {
                    if frags[j].sep != .none {
                        widestPiece = max(widestPiece, pieceW)
                        pieceW = 0
                    }
                    wordW += Int(frags[j].width)
                    pieceW += Int(frags[j].width)
                    j += 1
                }
                widestPiece = max(widestPiece, pieceW)
                if widestPiece > widestWord { widestWord = widestPiece }
                var needSpace = lineW > 0 && frags[i].sep == .space
                if lineW + (needSpace ? 1 : 0) + wordW <= avail {
                    if needSpace { sink.writeSpace(style: frags[i].style & frags[i - 1].style) }
                    for k in i..<j { writeFrag(frags[k], buf) }
                    lineW += (needSpace ? 1 : 0) + wordW
                    i = j
                    continue
                }
                // The word does not fit: fill the line up to a break opportunity inside the
                // word, else move to a new line, else cut the word by columns.
                var k = i
                while k < j {
                    let room = avail - lineW - (needSpace ? 1 : 0)
                    var best = -1
                    var acc = 0
                    var m = k
                    var firstPieceEnd = -1
                    while m < j {
                        var pe = m + 1
                        var pw = Int(frags[m].width)
                        while pe < j && frags[pe].sep == .none {
                            pw += Int(frags[pe].width)
                            pe += 1
                        }
                        if firstPieceEnd < 0 { firstPieceEnd = pe }
                        acc += pw
                        let hyphen = (pe < j && frags[pe].sep == .softHyphen) ? 1 : 0
                        if acc + hyphen <= room { best = pe } else { break }
                        m = pe
                    }
                    if best > k {
                        if needSpace { sink.writeSpace(style: 0) }
                        var w = 0
                        for f in k..<best {
                            writeFrag(frags[f], buf)
                            w += Int(frags[f].width)
                        }
                        if best == j {
                            lineW += (needSpace ? 1 : 0) + w
                            k = j
                            break
                        }
                        if frags[best].sep == .softHyphen { sink.write([0x2D], width: 1, style: frags[best - 1].style) }
                        sink.endLine()
                        lineW = 0
                        needSpace = false
                        k = best
                        continue
                    }
                    if lineW > 0 {
                        sink.endLine()
                        lineW = 0
                        needSpace = false
                        continue
                    }
                    // Alone on a line and still too wide: cut between characters.
                    for f in k..<firstPieceEnd {
                        lineW = writeCutting(frags[f], buf, lineW: lineW, avail: avail)
                    }
                    k = firstPieceEnd
                    needSpace = false
                }
                i = j
            }
        }
        para.clear()
    }

    @inline(__always)
    mutating func writeFrag(_ f: Fragment, _ buf: UnsafeBufferPointer<UInt8>) {
        if f.end > f.start {
            sink.write(UnsafeBufferPointer(rebasing: buf[Int(f.start)..<Int(f.end)]), width: Int(f.width), style: f.style)
        }
    }

    /// Writes a fragment character by character, breaking lines at `avail` columns; never
    /// separates a character from the zero-width marks that follow it.
    mutating func writeCutting(_ f: Fragment, _ buf: UnsafeBufferPointer<UInt8>, lineW: Int, avail: Int) -> Int {
        var lineW = lineW
        var p = Int(f.start)
        let end = Int(f.end)
        while p < end {
            let (v, len) = decodeUTF8(buf, p, end)
            let w = TerminalWidth.width(ofValue: v)
            if w > 0 && lineW + w > avail && lineW > 0 {
                sink.endLine()
                lineW = 0
            }
            sink.write(UnsafeBufferPointer(rebasing: buf[p..<(p + len)]), width: w, style: f.style)
            lineW += w
            p += len
        }
        return lineW
    }
}

/// Decodes the UTF-8 scalar at `p`; invalid bytes decode as U+FFFD of length 1.
@inline(__always)
func decodeUTF8(_ buf: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> (UInt32, Int) {
    let b0 = UInt32(buf[p])
    if b0 < 0x80 { return (b0, 1) }
    if b0 >= 0xC2 && b0 < 0xE0 && p + 1 < end {
        let b1 = UInt32(buf[p + 1])
        if b1 & 0xC0 == 0x80 { return ((b0 & 0x1F) << 6 | (b1 & 0x3F), 2) }
    } else if b0 >= 0xE0 && b0 < 0xF0 && p + 2 < end {
        let b1 = UInt32(buf[p + 1]), b2 = UInt32(buf[p + 2])
        if b1 & 0xC0 == 0x80 && b2 & 0xC0 == 0x80 {
            let v = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
            if v >= 0x800 && !(v >= 0xD800 && v <= 0xDFFF) { return (v, 3) }
        }
    } else if b0 >= 0xF0 && b0 < 0xF5 && p + 3 < end {
        let b1 = UInt32(buf[p + 1]), b2 = UInt32(buf[p + 2]), b3 = UInt32(buf[p + 3])
        if b1 & 0xC0 == 0x80 && b2 & 0xC0 == 0x80 && b3 & 0xC0 == 0x80 {
            let v = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
            if v >= 0x10000 && v <= 0x10FFFF { return (v, 4) }
        }
    }
    return (0xFFFD, 1)
}
