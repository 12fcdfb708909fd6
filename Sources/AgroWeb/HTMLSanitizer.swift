import CLibXML2
import Foundation

/// Article HTML made safe to put into a page: parsed with libxml2's tolerant HTML parser and
/// written out again from an allowlist, so nothing that was not named here survives.
///
/// Kept: text, and the structural and inline elements an article uses (paragraphs, headings,
/// lists, tables, quotes, code, emphasis, links, images) with a few inert attributes. Dropped
/// with their content: script, style, template, iframe, object, embed, form controls, svg,
/// math. Dropped, content kept: every other element. Every attribute not listed goes, so
/// event handlers (`onclick`...) and `style` never pass; links and images keep only http,
/// https and mailto (links) URLs, relative ones resolved against the article's source, so
/// `javascript:` and `data:` URLs never pass. Text and attribute values are escaped again.
enum HTMLSanitizer {
    static let keptElements: Set<String> = [
        "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre",
        "code", "em", "strong", "b", "i", "u", "s", "sub", "sup", "small", "mark", "abbr", "cite", "q", "a", "img",
        "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "figure", "figcaption", "span", "div",
        "section", "article", "header", "footer", "time",
    ]
    static let droppedWithContent: Set<String> = [
        "script", "style", "template", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "input",
        "button", "select", "textarea", "option", "svg", "math", "noscript", "head", "title", "meta", "link", "base",
    ]
    static let voidElements: Set<String> = ["br", "hr", "img"]
    static let keptAttributes: [String: Set<String>] = [
        "a": ["href", "title"], "img": ["src", "alt", "title", "width", "height"], "ol": ["start", "reversed"],
        "td": ["colspan", "rowspan"], "th": ["colspan", "rowspan"], "abbr": ["title"], "time": ["datetime"],
    ]

    static func sanitize(_ html: String, base: URL?) -> String {
        xmlInitParser()
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        let flags =
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue
        let bytes = Array(html.utf8)
        guard !bytes.isEmpty else { return "" }
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlReadMemory($0.baseAddress, Int32(clamping: $0.count), nil, "UTF-8", Int32(bitPattern: flags))
            }
        }
        guard let document else { return HTMLEscaping.escape(html) }
        defer { xmlFreeDoc(document) }
        var output = ""
        var node = document.pointee.children
        while let current = node {
            write(current, base: base, into: &output)
            node = current.pointee.next
        }
        return output
    }

    private static func write(_ node: xmlNodePtr, base: URL?, into output: inout String) {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content { output += HTMLEscaping.escape(String(cString: content)) }
        case XML_ELEMENT_NODE:
            let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            if droppedWithContent.contains(name) { return }
            let kept = keptElements.contains(name)
            if kept {
                output += "<" + name
                for (attribute, value) in attributes(of: node, element: name, base: base) {
                    output += " \(attribute)=\"\(HTMLEscaping.escape(value))\""
                }
                // A table wider than a phone scrolls sideways (app.css) rather than breaking its
                // words; a scrolling region must take the keyboard's focus to be scrolled without a mouse.
                if name == "table" { output += " tabindex=\"0\"" }
                output += ">"
                if name == "a" { output = output.dropLast() + " rel=\"noopener noreferrer nofollow\">" }
            }
            var child = node.pointee.children
            while let current = child {
                write(current, base: base, into: &output)
                child = current.pointee.next
            }
            if kept && !voidElements.contains(name) { output += "</\(name)>" }
        default:
            // Comments, processing instructions, DTDs: nothing of them is shown.
            break
        }
    }

    private static func attributes(of node: xmlNodePtr, element: String, base: URL?) -> [(String, String)] {
        guard let allowed = keptAttributes[element] else { return [] }
        var result: [(String, String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            defer { attribute = current.pointee.next }
            guard let rawName = current.pointee.name else { continue }
            let name = String(cString: rawName).lowercased()
            guard allowed.contains(name) else { continue }
            // The value is the attribute's text children (entities already decoded).
            var value = ""
            var part = current.pointee.children
            while let text = part {
                if let content = text.pointee.content { value += String(cString: content) }
                part = text.pointee.next
            }
            if name == "href" || name == "src" {
                guard let safe = safeURL(value, base: base, allowMail: name == "href") else { continue }
                value = safe
            }
            result.append((name, value))
        }
        return result
    }

    /// `text` as an absolute http(s) (or mailto) URL, else nil. Control characters and
    /// whitespace inside the scheme cannot smuggle `java\tscript:` through: the scheme is
    /// read by Foundation after resolving, then compared.
    static func safeURL(_ text: String, base: URL?, allowMail: Bool) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }),
            let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased()
        else { return nil }
        if scheme == "http" || scheme == "https" { return url.absoluteString }
        if scheme == "mailto" && allowMail { return url.absoluteString }
        return nil
    }
}
