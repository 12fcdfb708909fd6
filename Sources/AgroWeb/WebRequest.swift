import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird

/// What a request asks for beyond its path: language, page, query parameters.
struct WebRequest: Sendable {
    let request: Request
    let app: WebApp
    /// The query's parameters in order, decoded as a browser's form encodes them: `+` is a
    /// space, then percent escapes (so `culture=winter+wheat` reads "winter wheat"). Decoded
    /// once: a route asks for ten or more of them.
    let parameters: [(name: String, value: String)]

    init(request: Request, app: WebApp) {
        self.request = request
        self.app = app
        parameters = Self.formDecoded(request.uri.query ?? "")
    }

    /// The value of query parameter `name`; an empty value counts as absent, as an empty
    /// form field does.
    func query(_ name: String) -> String? {
        guard let value = parameters.first(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// Every value of a repeatable parameter (`product=a&product=b`), empty ones included so
    /// that lists given side by side keep their positions.
    func queries(_ name: String) -> [String] {
        parameters.filter { $0.name == name }.map(\.value)
    }

    /// `application/x-www-form-urlencoded` pairs: GET queries and posted forms.
    static func formDecoded(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                // Most parts have nothing to decode; Foundation's calls bridge through NSString.
                if !part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(part) }
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The query again, without the parameters named in `leaving`, each pair encoded: for
    /// links that change one parameter and keep the others.
    func query(leaving names: Set<String>) -> [String] {
        parameters.filter { !names.contains($0.name) }.map { Self.encoded($0.name) + "=" + Self.encoded($0.value) }
    }

    /// A query component, percent-encoded (a space as %20, `+`, `&`, `=` escaped): what
    /// Foundation's `addingPercentEncoding` makes with `urlQueryAllowed` less `&=+?#`, byte by
    /// byte (a card links dozens of ids, and building the character set per call cost more
    /// than the page's reads).
    static func encoded(_ text: String) -> String {
        guard !text.utf8.allSatisfy(queryAllowed) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if queryAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ASCII letters and digits and `!$'()*,-./:;@_~`.
    private static func queryAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"),
            UInt8(ascii: "@"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// A true/false parameter: `1`, `true`, `yes`, `on` are true.
    func flag(_ name: String) -> Bool {
        guard let value = query(name)?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    /// An integer parameter, at least `minimum`; anything else is a bad request with the
    /// CLI's wording.
    func integer(_ name: String, minimum: Int, maximum: Int = PageRequest.limit) throws -> Int? {
        guard let text = query(name) else { return nil }
        guard let value = Int(text), value >= minimum, value <= maximum else {
            let parameter = Parameter(rawValue: name) ?? .page
            // Below the minimum of a page or a count (whose maximum is only the server's cap):
            // "1 or more"; anything else names the whole range ("or more" read wrong for
            // page=1000001).
            if maximum == PageRequest.limit || parameter == .page || parameter == .perPage, let number = Int(text),
                number < minimum
            {
                throw RequestError.belowMinimum(parameter, value: text, minimum: minimum)
            }
            throw RequestError.outOfRange(parameter, value: text, minimum: minimum, maximum: maximum)
        }
        return value
    }

    /// Items per page when none is asked for.
    static let defaultPerPage = 20

    /// `page` and `perPage` (`all=true` for everything), as the CLI's --page, --per-page, --all.
    /// `perPage` is at most `WebLimits.maxPerPage`; `all=true` (the CLI's `--all`) is bounded
    /// by the request's deadline for catalog work instead (`WebLimits.requestDeadline`).
    func page() throws -> PageRequest {
        let page = try integer("page", minimum: 1, maximum: WebLimits.maxPage)
        let perPage = try integer("perPage", minimum: 1, maximum: app.limits.maxPerPage)
        if flag("all") { return .all }
        return PageRequest(page: page ?? 1, perPage: perPage ?? Self.defaultPerPage)
    }

    /// The language: `lang=`, else (pages only) the `agro_lang` cookie the switch sets, else
    /// the first of `Accept-Language` that the interface or the catalog has, else English.
    func locale(cookies: Bool) -> String {
        let known = Set(app.locales)
        // Only a language the server offers: anything else would be written into headers and
        // pages and make cache entries and weather calls of its own.
        if let locale = query("lang"), let code = Self.offered(locale, known) { return code }
        if cookies, let cookie = request.cookies["agro_lang"]?.value, known.contains(LocaleChain.normalize(cookie)) {
            return LocaleChain.normalize(cookie)
        }
        if let header = request.headers[.acceptLanguage] {
            for tag in Self.acceptedLocales(header).prefix(16) {
                if let code = Self.offered(tag, known) { return code }
            }
        }
        return "en"
    }

    /// `tag` (or its language without region) if the server offers it.
    static func offered(_ tag: String, _ known: Set<String>) -> String? {
        guard tag.utf8.count <= 35 else { return nil }
        let code = LocaleChain.normalize(tag)
        if known.contains(code) { return code }
        if let dash = code.firstIndex(of: "-"), known.contains(String(code[..<dash])) { return String(code[..<dash]) }
        return nil
    }

    /// The tags of an Accept-Language header, most wanted first (RFC 9110 weights; a tag
    /// with q=0 is refused).
    static func acceptedLocales(_ header: String) -> [String] {
        var tags: [(tag: String, weight: Double, index: Int)] = []
        for (index, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*" else { continue }
            var weight = 1.0
            for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("q=") {
                weight = Double(piece.dropFirst(2)) ?? 0
            }
            if weight > 0 { tags.append((tag, weight, index)) }
        }
        return tags.sorted { ($0.weight, -$0.index) > ($1.weight, -$1.index) }.map(\.tag)
    }
}
