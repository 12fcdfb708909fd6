import CLibXML2

/// Attributes the renderer reads; all others are not kept.
enum AttrKey: UInt8 {
    case href, alt, width, height, start, reversed, type, value, colspan
}

/// One element or text node of `DocTree`.
struct DocNode {
    var tag: Tag
    var parent: Int32
    var next: Int32 = -1
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    /// Text nodes: byte range in `DocTree.text`. Elements: range in `DocTree.attrs`.
    var start: Int32 = 0
    var end: Int32 = 0
}

struct DocAttr {
    var key: AttrKey
    var start: Int32
    var end: Int32
}

/// The document as compact arrays, built from libxml2's SAX events.
///
/// libxml2's own tree costs a malloc per node and per string and was most of the run time;
/// here each node is 28 bytes in one array, all text shares one buffer, and only the
/// attributes the renderer uses are kept. Node 0 is the root; -1 means none. A struct, so
/// that reading it during the render needs no dynamic exclusivity checks.
struct DocTree {
    var nodes: [DocNode] = [DocNode(tag: .other, parent: -1)]
    var text: [UInt8] = []
    var attrBytes: [UInt8] = []
    var attrs: [DocAttr] = []
    /// `<base href>` from the head, if any.
    var baseHref: String?
    private var current: Int32 = 0
    /// Tags by name pointer, direct-mapped (names are interned, so few distinct pointers);
    /// collisions fall back to a dictionary.
    private var recentNames = [UnsafeRawPointer?](repeating: nil, count: 256)
    private var recentTags = [Tag](repeating: .other, count: 256)
    private var tagCache: [UnsafeRawPointer: Tag] = [:]
    /// Elements below script, style and the like: their content is not kept.
    private var dropDepth = 0
    private var headDepth = 0

    /// Parses `bytes` with libxml2's tolerant HTML parser (`encoding` nil: as the document
    /// declares).
    static func parse(_ bytes: UnsafeRawBufferPointer, encoding: String?) -> DocTree {
        let builder = Builder()
        guard let base = bytes.baseAddress, bytes.count > 0, let ctxt = htmlNewParserCtxt() else { return builder.tree }
        // Rough sizes of real pages: avoids most copying while the arrays grow.
        builder.tree.text.reserveCapacity(bytes.count / 3)
        builder.tree.nodes.reserveCapacity(bytes.count / 80)
        defer { htmlFreeParserCtxt(ctxt) }
        var handler = htmlSAXHandler()
        handler.startElement = { ctx, name, attributes in
            guard let ctx, let name else { return }
            DocTree.from(ctx).tree.startElement(name, attributes)
        }
        handler.endElement = { ctx, _ in
            guard let ctx else { return }
            DocTree.from(ctx).tree.endElement()
        }
        handler.characters = { ctx, chars, count in
            guard let ctx, let chars else { return }
            DocTree.from(ctx).tree.characters(chars, Int(count))
        }
        handler.ignorableWhitespace = handler.characters
        // Script and style content arrives here; it is never shown.
        handler.cdataBlock = { _, _, _ in }
        ctxt.pointee.sax.pointee = handler
        ctxt.pointee.userData = UnsafeMutableRawPointer(ctxt)
        ctxt.pointee._private = Unmanaged.passUnretained(builder).toOpaque()
        var flags =
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue
        // A known encoding must not be switched by a contradicting <meta charset>.
        if encoding != nil { flags |= HTML_PARSE_IGNORE_ENC.rawValue }
        let count = Int32(clamping: bytes.count)
        let doc = base.withMemoryRebound(to: CChar.self, capacity: Int(count)) { chars -> htmlDocPtr? in
            if let encoding {
                return encoding.withCString { htmlCtxtReadMemory(ctxt, chars, count, nil, $0, Int32(bitPattern: flags)) }
            }
            return htmlCtxtReadMemory(ctxt, chars, count, nil, nil, Int32(bitPattern: flags))
        }
        if let doc { xmlFreeDoc(doc) }
        return withExtendedLifetime(builder) { builder.tree }
    }

    /// Holds the tree while libxml2 calls back (one exclusivity check per event, not per
    /// array access).
    final class Builder {
        var tree = DocTree()
    }

    @inline(__always)
    static func from(_ ctx: UnsafeMutableRawPointer) -> Builder {
        let ctxt = ctx.assumingMemoryBound(to: htmlParserCtxt.self)
        return Unmanaged<Builder>.fromOpaque(ctxt.pointee._private!).takeUnretainedValue()
    }

    private mutating func tag(_ name: UnsafePointer<xmlChar>) -> Tag {
        let key = UnsafeRawPointer(name)
        let slot = Int(UInt(bitPattern: key) >> 3) & 255
        if recentNames[slot] == key { return recentTags[slot] }
        let t: Tag
        if let known = tagCache[key] {
            t = known
        } else {
            t = TagCache.table[String(cString: name).lowercased()] ?? .other
            tagCache[key] = t
        }
        recentNames[slot] = key
        recentTags[slot] = t
        return t
    }

    private mutating func append(_ node: DocNode) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(node)
        let p = Int(node.parent)
        if nodes[p].lastChild >= 0 {
            nodes[Int(nodes[p].lastChild)].next = index
        } else {
            nodes[p].firstChild = index
        }
        nodes[p].lastChild = index
        return index
    }

    mutating func startElement(_ name: UnsafePointer<xmlChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let t = tag(name)
        if dropDepth > 0 || t == .drop {
            dropDepth += 1
            return
        }
        if t == .head { headDepth += 1 }
        if headDepth > 0 && t == .base, baseHref == nil, let attributes {
            var i = 0
            while let n = attributes[i] {
                if asciiCaseEqual(n, "href"), let v = attributes[i + 1] { baseHref = String(cString: v) }
                i += 2
            }
        }
        let attrStart = Int32(attrs.count)
        if let attributes {
            var i = 0
            while let n = attributes[i] {
                if let key = Self.attrKey(n) {
                    let vs = Int32(attrBytes.count)
                    if var v = attributes[i + 1] {
                        while v.pointee != 0 {
                            attrBytes.append(v.pointee)
                            v += 1
                        }
                    }
                    attrs.append(DocAttr(key: key, start: vs, end: Int32(attrBytes.count)))
                }
                i += 2
            }
        }
        current = append(DocNode(tag: t, parent: current, start: attrStart, end: Int32(attrs.count)))
    }

    mutating func endElement() {
        if dropDepth > 0 {
            dropDepth -= 1
            return
        }
        if nodes[Int(current)].tag == .head { headDepth -= 1 }
        if current > 0 { current = nodes[Int(current)].parent }
    }

    mutating func characters(_ chars: UnsafePointer<xmlChar>, _ count: Int) {
        if dropDepth > 0 || headDepth > 0 || count <= 0 { return }
        let last = nodes[Int(current)].lastChild
        // Consecutive character events extend one text node: the buffer is contiguous.
        if last >= 0 && nodes[Int(last)].tag == .text && Int(nodes[Int(last)].end) == text.count {
            text.append(contentsOf: UnsafeBufferPointer(start: chars, count: count))
            nodes[Int(last)].end = Int32(text.count)
            return
        }
        let start = Int32(text.count)
        text.append(contentsOf: UnsafeBufferPointer(start: chars, count: count))
        _ = append(DocNode(tag: .text, parent: current, start: start, end: Int32(text.count)))
    }

    static func attrKey(_ n: UnsafePointer<xmlChar>) -> AttrKey? {
        switch n[0] | 0x20 {
        case UInt8(ascii: "h"):
            if asciiCaseEqual(n, "href") { return .href }
            if asciiCaseEqual(n, "height") { return .height }
        case UInt8(ascii: "a"): if asciiCaseEqual(n, "alt") { return .alt }
        case UInt8(ascii: "w"): if asciiCaseEqual(n, "width") { return .width }
        case UInt8(ascii: "s"): if asciiCaseEqual(n, "start") { return .start }
        case UInt8(ascii: "r"): if asciiCaseEqual(n, "reversed") { return .reversed }
        case UInt8(ascii: "t"): if asciiCaseEqual(n, "type") { return .type }
        case UInt8(ascii: "v"): if asciiCaseEqual(n, "value") { return .value }
        case UInt8(ascii: "c"): if asciiCaseEqual(n, "colspan") { return .colspan }
        default: break
        }
        return nil
    }

    // MARK: Reading

    @inline(__always) func tag(of n: Int32) -> Tag { nodes[Int(n)].tag }

    /// The attribute's value, or nil when the element does not have it.
    func attribute(_ n: Int32, _ key: AttrKey) -> String? {
        let node = nodes[Int(n)]
        if node.tag == .text { return nil }
        var i = Int(node.start)
        while i < Int(node.end) {
            let a = attrs[i]
            if a.key == key { return String(decoding: attrBytes[Int(a.start)..<Int(a.end)], as: UTF8.self) }
            i += 1
        }
        return nil
    }

    func hasAttribute(_ n: Int32, _ key: AttrKey) -> Bool {
        let node = nodes[Int(n)]
        if node.tag == .text { return false }
        return attrs[Int(node.start)..<Int(node.end)].contains { $0.key == key }
    }
}
