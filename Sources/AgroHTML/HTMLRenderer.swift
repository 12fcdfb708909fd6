import AgroTerminal
import CLibXML2
import Foundation

/// Renders HTML as text for a terminal, in the manner of `w3m -dump` and `lynx -dump`.
///
/// Parsing uses libxml2's HTML parser, which accepts any markup, however broken. The result
/// contains no control characters other than "\n", and no escape sequences other than the
/// SGR styles the renderer writes itself when `HTMLRenderOptions.ansiStyles` is true: text,
/// attributes and URLs from the document cannot drive the terminal.
///
/// Layout: headings set apart (`=`/`-` rules under h1/h2, `###` before h3-h6); paragraphs
/// wrapped to the width with whitespace collapsed; lists with bullets or numbers (start,
/// reversed, value, type); definition lists; blockquotes marked `> `; `<pre>` verbatim;
/// inline code in backquotes; links numbered `text[1]` with the URLs listed at the end;
/// images as `[image: alt]` (images without alt text are left out); tables aligned with a rule under header rows. Very deep or very
/// wide structures degrade to simpler layouts so that time and memory stay bounded.
public enum HTMLRenderer {
    /// Renders an HTML document or fragment given as a string.
    public static func render(html: String, options: HTMLRenderOptions = HTMLRenderOptions()) -> String {
        var html = html
        return html.withUTF8 { buffer in
            render(bytes: UnsafeRawBufferPointer(buffer), encoding: "UTF-8", options: options)
        }
    }

    /// Renders an HTML document given as bytes. The encoding is the one a `<meta charset>`
    /// declares when that is not UTF-8; otherwise UTF-8, with invalid bytes shown as U+FFFD
    /// (libxml2 would stop at the first one); ISO-8859-1 for undeclared non-UTF-8 bytes.
    public static func render(html: Data, options: HTMLRenderOptions = HTMLRenderOptions()) -> String {
        let declared = html.withUnsafeBytes { declaredCharset($0) }
        if let declared, !["utf-8", "utf8", "unicode-1-1-utf-8"].contains(declared) {
            // The byte scan that drops scripts assumes an ASCII-compatible encoding.
            let ascii = !declared.hasPrefix("utf-16") && !declared.hasPrefix("utf-32")
            return html.withUnsafeBytes { render(bytes: $0, encoding: nil, options: options, strip: ascii) }
        }
        let isUTF8 = html.withUnsafeBytes { String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) != nil }
        if isUTF8 { return html.withUnsafeBytes { render(bytes: $0, encoding: "UTF-8", options: options) } }
        if declared != nil { return render(html: String(decoding: html, as: UTF8.self), options: options) }
        // ISO-8859-1 decodes every byte (libxml2 stops at a byte Windows-1252 leaves undefined).
        return html.withUnsafeBytes { render(bytes: $0, encoding: "ISO-8859-1", options: options) }
    }

    /// The charset named by a BOM or in the first 2 KB (`<meta charset=...>` or
    /// `content="...; charset=..."`), lower-cased.
    static func declaredCharset(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "utf-8" }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "utf-16" }
        let head = bytes.prefix(2048).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        let needle = Array("charset".utf8)
        var i = 0
        while i + needle.count < head.count {
            if head[i] == needle[0] && Array(head[i..<(i + needle.count)]) == needle {
                var j = i + needle.count
                while j < head.count && [0x20, 0x3D, 0x22, 0x27].contains(head[j]) { j += 1 }
                var k = j
                while k < head.count && head[k] > 0x20 && ![0x22, 0x27, 0x3B, 0x3E, 0x2F].contains(head[k]) { k += 1 }
                if k > j { return String(decoding: head[j..<k], as: UTF8.self) }
            }
            i += 1
        }
        return nil
    }

    /// `strip`: drop script/style content and comments before parsing (`RawTextStripper`).
    static func render(
        bytes: UnsafeRawBufferPointer, encoding: String?, options: HTMLRenderOptions, strip: Bool = true
    ) -> String {
        xmlInitParser()
        // Some errors (encoding, I/O) bypass HTML_PARSE_NOERROR and reach stderr through the
        // generic handler; a structured handler (per thread in libxml2) takes them instead.
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        var tree: DocTree
        if strip, let stripped = RawTextStripper.strip(bytes) {
            tree = stripped.withUnsafeBytes { DocTree.parse($0, encoding: encoding) }
        } else {
            tree = DocTree.parse(bytes, encoding: encoding)
        }
        var links = LinkTable(base: options.baseURL)
        if let base = tree.baseHref { links.setBase(base) }
        var out: [UInt8] = []
        if tree.text.isEmpty { tree.text.append(0) }  // a valid base pointer even without text
        let text = tree.text
        let nodes = tree.nodes
        text.withUnsafeBufferPointer { text in
            nodes.withUnsafeBufferPointer { nodes in
                var engine = RenderEngine(
                    tree: tree, textBase: text.baseAddress!, nodes: nodes.baseAddress!,
                    width: max(2, min(options.width, 100_000)), ansi: options.ansiStyles, listLinks: options.listLinks,
                    tableDepth: 0)
                engine.walk(children: 0, links: &links)
                engine.finish()
                out = engine.sink.out
            }
        }
        if options.listLinks && !links.urls.isEmpty {
            if !out.isEmpty { out.append(0x0A) }
            out.append(contentsOf: Array("References:\n".utf8))
            for (i, url) in links.urls.enumerated() {
                out.append(contentsOf: Array("[\(i + 1)] ".utf8))
                out.append(contentsOf: url)
                out.append(0x0A)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - Links

/// Link numbers in document order; one number per distinct URL.
struct LinkTable {
    var base: URL? {
        didSet { baseString = base?.absoluteString }
    }
    var baseString: String?
    var urls: [[UInt8]] = []
    var numbers: [String: Int] = [:]
    /// Numbers by href as written, to skip resolving repeated links.
    var byHref: [String: Int] = [:]

    init(base: URL?) {
        self.base = base
        self.baseString = base?.absoluteString
    }

    /// RFC 3986 reference resolution by libxml2 (much cheaper than Foundation's URL here).
    static func resolve(_ href: String, against base: String) -> String? {
        var h = Array(href.utf8)
        var b = Array(base.utf8)
        h.append(0)
        b.append(0)
        guard let result = xmlBuildURI(h, b) else { return nil }
        // libxml2 allocates with its default allocator, malloc (we never install another).
        defer { free(result) }
        return clean(String(cString: result))
    }

    /// The number for `href`, or nil for links that lead nowhere useful in a terminal
    /// (empty, same-page fragments, javascript:).
    mutating func number(for rawHref: String) -> Int? {
        let href = Self.clean(rawHref)
        if href.isEmpty || href.hasPrefix("#") { return nil }
        if Self.hasScheme(href, "javascript:") || Self.hasScheme(href, "data:") { return nil }
        if let n = byHref[href] { return n }
        let resolved = baseString.flatMap { Self.resolve(href, against: $0) } ?? href
        let n: Int
        if let known = numbers[resolved] {
            n = known
        } else {
            urls.append(Array(resolved.utf8))
            n = urls.count
            numbers[resolved] = n
        }
        byHref[href] = n
        return n
    }

    /// Whether `s` starts with `scheme` (lower-case ASCII), ignoring case.
    static func hasScheme(_ s: String, _ scheme: StaticString) -> Bool {
        var i = 0
        let p = scheme.utf8Start
        for byte in s.utf8 {
            if i == scheme.utf8CodeUnitCount { return true }
            if byte | 0x20 != p[i] | 0x20 { return false }
            i += 1
        }
        return i == scheme.utf8CodeUnitCount
    }

    /// Sets the base from `<base href>`, itself resolved against the document's address.
    mutating func setBase(_ href: String) {
        let href = Self.clean(href)
        if let url = URL(string: href, relativeTo: base), url.scheme != nil { base = url.absoluteURL }
    }

    /// URLs lose whitespace and every control or bidirectional-override character: the URL
    /// spec strips tabs and newlines, and nothing else of that kind may reach the terminal.
    static func clean(_ s: String) -> String {
        // Fast path: nothing to remove in the usual printable-ASCII URL.
        if s.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return s }
        var scalars = String.UnicodeScalarView()
        for u in s.unicodeScalars where !isUnsafeScalar(u.value) && u.value != 0x20 && u.value != 0xA0 {
            scalars.append(u)
        }
        return String(scalars)
    }
}

/// Characters never written to the terminal: the one list every output path uses.
@inline(__always)
func isUnsafeScalar(_ v: UInt32) -> Bool { TerminalText.isUnsafe(v) }

// MARK: - Tags

enum Tag: UInt8 {
    case other, drop, head, base
    case block, paragraph, h1, h2, h3, h4, h5, h6
    case ul, ol, li, dl, dt, dd, blockquote, pre, hr, br, wbr, img, a
    case bold, italic, underline, code, q
    case table, tr, td, th, caption, rowGroup, thead
    case text
}

/// Element names to tags (lower-case names; DocTree caches lookups per name pointer).
enum TagCache {
    static let table: [String: Tag] = {
        var t: [String: Tag] = [:]
        for n in [
            "script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "math", "canvas",
            "audio", "video", "select", "datalist", "textarea", "input", "option", "optgroup", "map", "title",
            "meta", "link", "param", "frame", "frameset", "applet", "button", "dialog",
        ] {
            t[n] = .drop
        }
        for n in [
            "div", "section", "article", "header", "footer", "nav", "aside", "main", "center", "address",
            "figure", "figcaption", "details", "summary", "form", "fieldset", "legend", "hgroup", "body",
            "html", "search", "noframes", "dir", "menuitem",
        ] {
            t[n] = .block
        }
        t["p"] = .paragraph
        t["h1"] = .h1; t["h2"] = .h2; t["h3"] = .h3; t["h4"] = .h4; t["h5"] = .h5; t["h6"] = .h6
        t["ul"] = .ul; t["menu"] = .ul; t["ol"] = .ol; t["li"] = .li
        t["dl"] = .dl; t["dt"] = .dt; t["dd"] = .dd
        t["blockquote"] = .blockquote
        for n in ["pre", "listing", "xmp", "plaintext"] { t[n] = .pre }
        t["hr"] = .hr; t["br"] = .br; t["wbr"] = .wbr; t["img"] = .img; t["a"] = .a
        t["b"] = .bold; t["strong"] = .bold
        for n in ["i", "em", "cite", "var", "dfn"] { t[n] = .italic }
        t["u"] = .underline; t["ins"] = .underline
        for n in ["code", "kbd", "samp", "tt"] { t[n] = .code }
        t["q"] = .q
        t["table"] = .table; t["tr"] = .tr; t["td"] = .td; t["th"] = .th; t["caption"] = .caption
        t["thead"] = .thead; t["tbody"] = .rowGroup; t["tfoot"] = .rowGroup
        t["head"] = .head; t["base"] = .base
        // HTML5 void elements libxml2 2.9 does not know: it makes the content after them their
        // children, so they must be walked through, not dropped.
        t["source"] = .other; t["track"] = .other
        return t
    }()
}

func asciiCaseEqual(_ a: UnsafePointer<xmlChar>, _ b: StaticString) -> Bool {
    let bp = b.utf8Start
    let n = b.utf8CodeUnitCount
    for i in 0..<n {
        let x = a[i]
        if x == 0 || (x | 0x20) != (bp[i] | 0x20) { return false }
    }
    return a[n] == 0
}
