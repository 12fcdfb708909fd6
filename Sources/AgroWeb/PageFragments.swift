import AgroCaching
import AgroDomain
import Foundation
import Mustache

/// What many pages repeat and what depends only on the catalog and the locale: the culture and
/// pest pickers (hundreds of names each, most of a uses page's time when rebuilt per page), the
/// product and pest lists of the tank and plan forms, the catalog's title in the layout.
///
/// Kept per catalog: entries belong to the catalog current when they were read (held
/// here, so a later catalog can never be taken for it), and the first request after a swap
/// (`agro db update`, `--watch-updates`) empties the cache; a request still reading the old
/// catalog gets its own values and keeps nothing. Bounded by bytes (`WebLimits.fragmentBytes`,
/// each entry's estimated memory): when full, the oldest entries go first.
final class PageFragments: Sendable {
    /// What an entry is: a list of choices, or the HTML of one rendered from a template.
    indirect enum Key: Hashable, Sendable {
        case cultures(locale: String)
        /// The pests with uses on `culture` (or its groups); all pests without one.
        case pests(locale: String, culture: EntityID?)
        /// The uses page's pest picker for `culture`: the pests with uses on it, its groups or
        /// its members (`registered`), or every other pest.
        case pestsOfMembers(locale: String, culture: EntityID, registered: Bool)
        /// Every product and every pest, in the catalog's order (the plan and tank forms' lists).
        case products(locale: String)
        case allPests(locale: String)
        case catalogTitle(locale: String)
        /// The layout in pieces around a page's own values (`PageLayout`).
        case layout(locale: String)
        /// The interface strings the templates see as `t` (they depend on the language alone;
        /// kept here for the bound, and made again after a swap at the cost of one page).
        case interfaceStrings(locale: String)
        /// `list`'s choices rendered with a section's template (`template` is its text).
        case html(of: Key, template: String)
    }

    private let kept: KeyedCache<Key, any Fragment>

    /// What one entry costs beyond its value: the key, the dictionary slot, the bookkeeping.
    static let entryOverhead = 256

    /// - Parameter limit: bytes kept (estimated); 0 keeps nothing.
    init(limit: Int) {
        kept = KeyedCache(maxBytes: max(0, limit), eviction: .oldestFirst, cost: { $1.cost + Self.entryOverhead })
    }

    /// Bytes held now (estimated) and the number of entries.
    var size: (bytes: Int, entries: Int) { (kept.bytes, kept.count) }

    /// The value of `key` on `source` (the catalog the caller reads), made by `make` unless
    /// kept; kept when `source` is still `current`.
    func value<Value: Fragment>(
        _ key: Key, source: any OpenCatalog, current: any OpenCatalog, make: () throws -> Value
    ) rethrows -> Value {
        // A request still reading a swapped-out catalog gets its own values and keeps nothing.
        guard source === current else { return try make() }
        let value = try kept.value(key, generation: current) { try make() }
        guard let value = value as? Value else {
            // Each case of `Key` holds one type of value; another type is a mistake in the caller.
            assertionFailure("PageFragments: \(key) holds a \(type(of: value)), not a \(Value.self)")
            return try make()
        }
        return value
    }

    /// The value of `key` on `live`'s current catalog, made by `make` from that catalog unless kept.
    func value<Value: Fragment>(
        _ key: Key, in live: any SwappableCatalog, make: (any OpenCatalog) throws -> Value
    ) throws -> Value {
        try live.readCurrent { catalog in
            try value(key, source: catalog, current: live.currentCatalog) { try make(catalog) }
        }
    }

    /// `list`'s choices (ids and names in the order shown), read by `read` unless kept, as a
    /// section of a template: `{{#cultures}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/cultures}}`
    /// renders as if `cultures` were the list of `{id, name, selected}` it replaces, `selected`
    /// true for `selected`'s choice. The section's template is rendered once per choice, catalog,
    /// locale and template text and kept; a page renders only its selected choice's part.
    /// The section's template sees `id`, `name`, `selected` and `strings` as `t`.
    func choices(
        _ list: Key, in live: any SwappableCatalog, selected: EntityID?, strings: @autoclosure @escaping () -> [String: String],
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> MustacheLambda {
        try choicesNamingSelected(list, in: live, selected: selected, strings: strings(), read: read).picker
    }

    /// `choices`, and the name of `selected` among them (nil when it is not one of them), so that
    /// a page names what it shows without reading it again.
    func choicesNamingSelected(
        _ list: Key, in live: any SwappableCatalog, selected: EntityID?, strings: @autoclosure @escaping () -> [String: String],
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> (picker: MustacheLambda, selectedName: String?) {
        let (choices, source) = try live.readCurrent { catalog in
            (try value(list, source: catalog, current: live.currentCatalog) { Choices(try read(catalog)) }, catalog)
        }
        let lambda = MustacheLambda { [self] text in
            let rendered = value(.html(of: list, template: text), source: source, current: live.currentCatalog) {
                RenderedChoices(choices, template: text, strings: strings())
            }
            return RawHTML(text: rendered.html(selecting: selected))
        }
        return (lambda, selected.flatMap { id in choices.ids.firstIndex(of: id).map { choices.names[$0] } })
    }

    /// `list`'s choices (read by `read` unless kept) rendered with `template` (a section's text,
    /// as `choices` renders it, seeing `id`, `name`, `selected` and `strings` as `t`), none
    /// selected: for a page that writes its picker directly (`RenderedChoices.write`).
    func renderedChoices(
        _ list: Key, in live: any SwappableCatalog, template: String, strings: @autoclosure () -> [String: String],
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> RenderedChoices {
        try live.readCurrent { catalog in
            let current = live.currentCatalog
            return try value(.html(of: list, template: template), source: catalog, current: current) {
                let choices = try value(list, source: catalog, current: current) { Choices(try read(catalog)) }
                return RenderedChoices(choices, template: template, strings: strings())
            }
        }
    }
}

/// A value `PageFragments` keeps, with an estimate of the bytes it holds.
protocol Fragment: Sendable {
    var cost: Int { get }
}

extension String: Fragment {
    var cost: Int { utf8.count + 16 }
}

extension Dictionary: Fragment where Key == String, Value == String {
    var cost: Int { reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 48 } }
}

/// Choices of a `<select>` or `<datalist>`, in the order shown.
struct Choices: Fragment {
    let ids: [EntityID]
    let names: [String]

    init(_ items: [(id: EntityID, name: String)]) {
        ids = items.map(\.id)
        names = items.map(\.name)
    }

    /// Bytes held, estimated: the texts and a string header each.
    var cost: Int { ids.reduce(0) { $0 + $1.utf8.count + 16 } + names.reduce(0) { $0 + $1.utf8.count + 16 } }
}

/// Choices rendered with a section's template, none selected, and where each choice's part is,
/// so that one choice can be rendered selected in its place.
struct RenderedChoices: Fragment {
    let html: String
    private let template: MustacheTemplate?
    private let strings: [String: String]
    private let parts: [EntityID: (range: Range<String.Index>, name: String)]

    init(_ choices: Choices, template text: String, strings: [String: String]) {
        // Escaped as the page around it is (the templates' pragma, `HTMLEscaping`).
        template = try? HTMLEscaping.template(text)
        self.strings = strings
        var html = "", offsets: [(id: EntityID, name: String, from: Int, to: Int)] = []
        offsets.reserveCapacity(choices.ids.count)
        for (id, name) in zip(choices.ids, choices.names) {
            let start = html.utf8.count
            html += template?.render(["id": id, "name": name, "selected": false, "t": strings]) ?? ""
            offsets.append((id, name, start, html.utf8.count))
        }
        var parts: [EntityID: (range: Range<String.Index>, name: String)] = [:]
        for part in offsets where parts[part.id] == nil {
            let from = html.utf8.index(html.startIndex, offsetBy: part.from)
            parts[part.id] = (from..<html.utf8.index(from, offsetBy: part.to - part.from), part.name)
        }
        self.html = html
        self.parts = parts
    }

    /// The HTML with `selected`'s part rendered selected (as it is when `selected` is not a choice).
    func html(selecting selected: EntityID?) -> String {
        guard let selected, let part = parts[selected], let template else { return html }
        let one = template.render(["id": selected, "name": part.name, "selected": true, "t": strings])
        var text = String()
        text.reserveCapacity(html.utf8.count + one.utf8.count)
        text += html[..<part.range.lowerBound]
        text += one
        text += html[part.range.upperBound...]
        return text
    }

    /// `html(selecting:)` written into `out` without making the whole text first.
    func write(selecting selected: EntityID?, into out: inout HTMLWriter) {
        guard let selected, let part = parts[selected], let template else { return out.markup(html) }
        out.markup(html[..<part.range.lowerBound])
        out.markup(template.render(["id": selected, "name": part.name, "selected": true, "t": strings]))
        out.markup(html[part.range.upperBound...])
    }

    /// The name of the choice `id` (its first, if it is listed twice), nil when it is not a choice.
    func name(of id: EntityID) -> String? { parts[id]?.name }

    /// Bytes held, estimated: the HTML and an entry per choice.
    var cost: Int { html.utf8.count + parts.reduce(0) { $0 + $1.key.utf8.count + $1.value.name.utf8.count + 64 } }
}

/// The layout (`layout.mustache`) rendered once per catalog and locale, in pieces around what
/// each page gives it: its title, the language switch's links (they keep the page's path and
/// query) and its body. Everything else in the layout (the strings, the language, the catalog's
/// title, each language's link but its href) is the same for every page of a catalog and
/// language, and looking up its forty values through Mustache's context stack was a fixed cost
/// of every page.
///
/// Made by rendering the layout with markers in place of the three page values (a NUL and a
/// letter, which no template text or escaping writes), then splitting at the markers; the
/// language switch's section likewise, once per language, around its href.
struct PageLayout: Fragment {
    private enum Piece {
        case text(String)
        case title, languages, body
    }

    private let pieces: [Piece]
    /// Each language's link, in the switch's order, in pieces around its href (nil where the
    /// link writes it).
    private let links: [[String?]]

    /// - Parameters:
    ///   - strings: the interface strings (`t`); `locale`: the page's language (`lang`);
    ///   - catalogTitle: the catalog's title in that language;
    ///   - languages: the switch's links as its section reads them (`code`, `name`, `selected`),
    ///     less their `href`, which each page gives (`html`);
    ///   - journal: whether the menu links the field journal (`agro web --journal`);
    ///   - farm: whether it links signing in and out (the farms' journal, `--farm-journal`).
    init(
        templates: MustacheLibrary, strings: [String: String], locale: String, catalogTitle: String,
        languages: [[String: Any]], journal: Bool = false, farm: Bool = false
    ) {
        // The section's text, as Mustache hands it to a lambda (written once, while rendering).
        final class Section { var text: String? }
        let section = Section()
        let values: [String: Any] = [
            "t": strings, "lang": locale, "catalogTitle": catalogTitle, "journal": journal, "farm": farm,
            "title": "\u{0}t", "body": RawHTML(text: "\u{0}b"),
            "languages": MustacheLambda { text in
                section.text = text
                return RawHTML(text: "\u{0}l")
            },
        ]
        let rendered = templates.render(values, withTemplate: "layout") ?? ""
        var pieces: [Piece] = []
        for (index, part) in rendered.split(separator: "\u{0}", omittingEmptySubsequences: false).enumerated() {
            var text = Substring(part)
            if index > 0, let slot = text.first {
                switch slot {
                case "t": pieces.append(.title)
                case "l": pieces.append(.languages)
                default: pieces.append(.body)
                }
                text = text.dropFirst()
            }
            if !text.isEmpty { pieces.append(.text(String(text))) }
        }
        self.pieces = pieces
        // The section escapes as the layout does (the templates' pragma, `HTMLEscaping`).
        let template = section.text.flatMap { try? HTMLEscaping.template($0) }
        links = languages.map { language in
            var values = language
            values["t"] = strings
            values["href"] = "\u{0}h"
            let rendered = template?.render(values) ?? ""
            var pieces: [String?] = []
            for (index, part) in rendered.split(separator: "\u{0}", omittingEmptySubsequences: false).enumerated() {
                var text = Substring(part)
                if index > 0 {
                    pieces.append(nil)
                    text = text.dropFirst()  // the marker's "h"
                }
                if !text.isEmpty { pieces.append(String(text)) }
            }
            return pieces
        }
    }

    /// The page: `title` escaped, `body` as it is, each language's link with its href from
    /// `hrefs` (in the order of the languages given at `init`).
    func html(title: String, body: String, hrefs: [String]) -> String {
        var out = HTMLWriter(capacity: body.utf8.count + 4_096)
        for piece in pieces {
            switch piece {
            case .text(let text): out.markup(text)
            case .title: out.text(title)
            case .body: out.markup(body)
            case .languages:
                for (link, href) in zip(links, hrefs) {
                    for part in link {
                        if let part { out.markup(part) } else { out.text(href) }
                    }
                }
            }
        }
        return out.html
    }

    /// Bytes held, estimated: the pieces of text.
    var cost: Int {
        pieces.reduce(0) {
            if case .text(let text) = $1 { return $0 + text.utf8.count + 32 }
            return $0 + 16
        } + links.joined().reduce(0) { $0 + ($1?.utf8.count ?? 0) + 16 } + 1_024
    }
}

/// Text a Mustache lambda inserts as it is (a `String` result would be parsed as a template).
struct RawHTML: CustomStringConvertible {
    let text: String
    var description: String { text }
}
