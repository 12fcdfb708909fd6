import AgroHTML
import CLibXML2
import Foundation

/// Reads RSS 2.0 (and 0.9x), RSS 1.0 (RDF) and Atom documents with libxml2 in recovery
/// mode: a document cut off mid-way yields the entries before the cut, and white space
/// before the XML declaration is accepted. External entities and the network are never
/// used while parsing.
public enum FeedParser {
    static let contentNS = "http://purl.org/rss/1.0/modules/content/"

    /// Parses `data` fetched from `url`.
    /// - Throws: `FeedError.notAFeed` when the document is not RSS or Atom, `.malformed` when
    ///   nothing usable could be read.
    public static func parse(_ data: Data, url: URL) throws -> Feed {
        // Skip a BOM and white space before "<": libxml2 rejects an XML declaration that is
        // not at the very start, and many real feeds begin with a blank line.
        let start = data.firstIndex(where: { $0 == UInt8(ascii: "<") }) ?? data.endIndex
        let prefix = data[data.startIndex..<start]
        var body =
            prefix.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 >= 0xBB })
            ? data[start...] : data[...]
        guard !body.isEmpty else { throw FeedError.notAFeed(url: url.absoluteString) }
        // C0 controls other than tab and line breaks are not allowed in XML: one in a title put
        // libxml2's recovery in a state where every later entity of the item was dropped. They
        // carry no text, so they go before parsing (a byte under 0x20 is never part of a
        // multi-byte UTF-8 character).
        let isForbidden = { (byte: UInt8) in byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D }
        if body.contains(where: isForbidden) { body = Data(body.filter { !isForbidden($0) }) }
        xmlInitParser()
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        // No XML_PARSE_HUGE: it would lift libxml2's guards against entity expansion bombs, and
        // no feed needs a text node over 10 MB. No XML_PARSE_NOENT: entities are not substituted.
        let options =
            XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue
        var wellFormed = true
        let doc: xmlDocPtr? = Data(body).withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            guard let ctxt = xmlNewParserCtxt() else { return nil }
            defer { xmlFreeParserCtxt(ctxt) }
            let d = xmlCtxtReadMemory(
                ctxt, base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), url.absoluteString, nil,
                Int32(bitPattern: options))
            wellFormed = ctxt.pointee.wellFormed != 0
            return d
        }
        guard let doc else { throw FeedError.malformed(url: url.absoluteString, reason: "not XML") }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else {
            throw FeedError.malformed(url: url.absoluteString, reason: "no root element")
        }
        var reader = TreeReader(doc: doc, feedURL: url)
        let feed: Feed
        switch localName(root) {
        case "rss": feed = reader.rss(root, format: .rss2)
        case "RDF": feed = reader.rss(root, format: .rss1)
        case "feed": feed = reader.atom(root)
        default: throw FeedError.notAFeed(url: url.absoluteString)
        }
        if !wellFormed && feed.items.isEmpty {
            throw FeedError.malformed(url: url.absoluteString, reason: "no complete entry before the damage")
        }
        var result = feed
        result.isIncomplete = !wellFormed
        return result
    }
}

func localName(_ node: xmlNodePtr) -> String {
    node.pointee.name.map { String(cString: $0) } ?? ""
}

func namespace(_ node: xmlNodePtr) -> String? {
    node.pointee.ns?.pointee.href.map { String(cString: $0) }
}

func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
    var result: [xmlNodePtr] = []
    var c = node.pointee.children
    while let child = c {
        if child.pointee.type == XML_ELEMENT_NODE { result.append(child) }
        c = child.pointee.next
    }
    return result
}

func attributeValue(_ node: xmlNodePtr, _ name: String) -> String? {
    var a = node.pointee.properties
    while let attr = a {
        if let n = attr.pointee.name, String(cString: n) == name {
            var value = ""
            var c = attr.pointee.children
            while let child = c {
                if let content = child.pointee.content { value += String(cString: content) }
                c = child.pointee.next
            }
            return value
        }
        a = attr.pointee.next
    }
    return nil
}

/// The text of a node and its descendants, walked without recursion.
func textContent(_ node: xmlNodePtr) -> String {
    var bytes: [UInt8] = []
    var n: xmlNodePtr? = node.pointee.children
    while let current = n {
        let type = current.pointee.type
        if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE, let content = current.pointee.content {
            var p = content
            while p.pointee != 0 {
                bytes.append(p.pointee)
                p += 1
            }
        }
        if type == XML_ELEMENT_NODE, let child = current.pointee.children {
            n = child
            continue
        }
        var up: xmlNodePtr? = current
        n = nil
        while let u = up, u != node {
            if let next = u.pointee.next {
                n = next
                break
            }
            up = u.pointee.parent
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Plain text on one line, without control characters.
func plainText(_ text: String) -> String {
    let kept = text.unicodeScalars.map { $0.value < 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) ? " " : Character($0) }
    return String(kept).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// Text that is HTML (Atom type="html", titles with markup) as plain text.
func htmlToPlain(_ html: String) -> String {
    guard html.contains("<") || html.contains("&") else { return plainText(html) }
    return plainText(HTMLRenderer.render(html: html, options: HTMLRenderOptions(width: 100_000, listLinks: false)))
}

/// Plain text as HTML paragraphs.
func textToHTML(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    return escaped.components(separatedBy: "\n\n").map { "<p>\($0)</p>" }.joined()
}

struct TreeReader {
    let doc: xmlDocPtr
    let feedURL: URL

    func resolve(_ link: String?, against base: URL?) -> String? {
        guard let link = link.map(plainText), !link.isEmpty else { return nil }
        return URL(string: link, relativeTo: base ?? feedURL)?.absoluteString ?? link
    }

    func makeID(_ guid: String) -> String {
        "rss-" + hex(fnv1a(feedURL.absoluteString + "\n" + guid), digits: 10)
    }

    mutating func rss(_ root: xmlNodePtr, format: FeedFormat) -> Feed {
        var channel: xmlNodePtr?
        var itemNodes: [xmlNodePtr] = []
        for child in elementChildren(root) {
            switch localName(child) {
            case "channel":
                channel = child
                itemNodes += elementChildren(child).filter { localName($0) == "item" }
            case "item":
                itemNodes.append(child)  // RSS 1.0 puts items beside the channel
            default:
                break
            }
        }
        var title = ""
        var link: String?
        if let channel {
            for child in elementChildren(channel) where namespace(child) == nil || format == .rss1 {
                switch localName(child) {
                case "title": title = htmlToPlain(textContent(child))
                case "link" where link == nil: link = plainText(textContent(child))
                default: break
                }
            }
        }
        let base = link.flatMap { URL(string: $0, relativeTo: feedURL) }
        var items: [FeedItem] = []
        for node in itemNodes {
            var itemTitle = "", itemLink: String?, guid: String?, date: Date?, description: String?, encoded: String?
            for child in elementChildren(node) {
                let name = localName(child)
                let ns = namespace(child)
                switch name {
                case "title" where ns == nil || format == .rss1: itemTitle = htmlToPlain(textContent(child))
                case "link" where ns == nil || format == .rss1: itemLink = textContent(child)
                case "guid": guid = plainText(textContent(child))
                case "pubDate", "date", "published", "updated":
                    if date == nil { date = FeedDate.parse(textContent(child)) }
                case "description" where ns == nil || format == .rss1: description = textContent(child)
                case "encoded" where ns == FeedParser.contentNS: encoded = textContent(child)
                default: break
                }
            }
            if guid == nil { guid = attributeValue(node, "about") }
            let resolvedLink = resolve(itemLink, against: base)
            let key = guid ?? resolvedLink ?? itemTitle
            items.append(
                FeedItem(
                    id: makeID(key), guid: key, feedTitle: title, feedURL: feedURL.absoluteString, title: itemTitle,
                    link: resolvedLink, date: date, html: encoded ?? description ?? ""))
        }
        return Feed(format: format, title: title, link: link, items: items, isIncomplete: false)
    }

    mutating func atom(_ root: xmlNodePtr) -> Feed {
        var title = ""
        var link: String?
        var entries: [xmlNodePtr] = []
        for child in elementChildren(root) {
            switch localName(child) {
            case "title": title = atomText(child, asHTML: false)
            case "link": if link == nil { link = alternateLink(child) }
            case "entry": entries.append(child)
            default: break
            }
        }
        let base = link.flatMap { URL(string: $0, relativeTo: feedURL) }
        var items: [FeedItem] = []
        for entry in entries {
            var entryTitle = "", entryLink: String?, id: String?, published: Date?, updated: Date?
            var content: String?, summary: String?
            for child in elementChildren(entry) {
                switch localName(child) {
                case "title": entryTitle = atomText(child, asHTML: false)
                case "link": if entryLink == nil { entryLink = alternateLink(child) }
                case "id": id = plainText(textContent(child))
                case "published", "issued": published = FeedDate.parse(textContent(child))
                case "updated", "modified": updated = FeedDate.parse(textContent(child))
                case "content": content = atomText(child, asHTML: true)
                case "summary": summary = atomText(child, asHTML: true)
                case "group":  // media:group (YouTube) carries the description
                    if let d = elementChildren(child).first(where: { localName($0) == "description" }) {
                        summary = textToHTML(textContent(d))
                    }
                default: break
                }
            }
            let resolvedLink = resolve(entryLink, against: base)
            let key = id ?? resolvedLink ?? entryTitle
            items.append(
                FeedItem(
                    id: makeID(key), guid: key, feedTitle: title, feedURL: feedURL.absoluteString, title: entryTitle,
                    link: resolvedLink, date: published ?? updated, html: content ?? summary ?? ""))
        }
        return Feed(format: .atom, title: title, link: link, items: items, isIncomplete: false)
    }

    /// The address of an Atom link to the page itself (`rel` "alternate", the default); nil for
    /// other links (self, enclosure, ...).
    func alternateLink(_ node: xmlNodePtr) -> String? {
        (attributeValue(node, "rel") ?? "alternate") == "alternate" ? attributeValue(node, "href") : nil
    }

    /// An Atom text construct: type "text" (default), "html" (escaped markup) or "xhtml"
    /// (inline elements inside a div). As HTML for bodies, as plain text for titles.
    func atomText(_ node: xmlNodePtr, asHTML: Bool) -> String {
        let type = attributeValue(node, "type") ?? "text"
        let html: String
        switch type {
        case "html", "text/html":
            html = textContent(node)
        case "xhtml", "application/xhtml+xml":
            html = serializeChildren(node)
        default:
            let text = textContent(node)
            return asHTML ? textToHTML(text) : plainText(text)
        }
        return asHTML ? html : htmlToPlain(html)
    }

    /// The markup inside `node`, as libxml2 writes it.
    func serializeChildren(_ node: xmlNodePtr) -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        var c = node.pointee.children
        while let child = c {
            xmlNodeDump(buffer, doc, child, 0, 0)
            c = child.pointee.next
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }
}
