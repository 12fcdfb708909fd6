import AgroDomain
import AgroPresentation

/// HTML appended piece by piece: markup as it is, text escaped as the templates escape a
/// `{{value}}` (`HTMLEscaping`), so that what a page writes directly reads as its template would.
struct HTMLWriter {
    private(set) var html = ""

    init(capacity: Int) { html.reserveCapacity(capacity) }

    /// Markup, written as it is.
    mutating func markup(_ text: String) { html += text }

    /// Markup, written as it is (a part of a kept text, not copied first).
    mutating func markup(_ text: Substring) { html += text }

    /// A value, escaped.
    mutating func text(_ value: String) { html += HTMLEscaping.escape(value) }
}

extension Pages {
    /// The uses page's rows, one `<li>` each, written directly rather than through Mustache:
    /// Mustache finds every value by name up its context stack with a dynamic cast per level
    /// (`getChild`), and 20 rows of a dozen values and their ingredients were about a quarter
    /// of a uses page's time. The markup is what `uses.mustache`'s `{{#rows}}` section wrote,
    /// byte for byte (an empty value leaves its fact out, as the section did for the values
    /// `pruned` removed); the template inserts this where the section was.
    ///
    /// Where the rows include uses registered on members of the asked culture (`UseRow.member`),
    /// each group of rows (the culture's own, then each member's) starts with the name of the
    /// culture it is registered on, as a heading between lists.
    ///
    /// - Parameters:
    ///   - labels: the interface strings the templates see as `t`.
    ///   - culture: the asked culture's name, heading its own rows when members follow.
    static func useRowsHTML(_ rows: [UseRow], _ page: PageContext, labels: [String: String], culture: String? = nil) -> String {
        let s = page.environment.strings
        // About a kilobyte a row on the Swiss register: one allocation for most pages.
        var out = HTMLWriter(capacity: rows.count * 1_536)
        // A page's rows repeat their labels (a product's several uses, the same intervals, the
        // same ingredients): each is worded once per page. Doses are told apart by their bits,
        // so that no two numbers equal as values (0 and -0) share a label.
        struct DoseKey: Hashable {
            let from: UInt64?, to: UInt64?, unit: String?
        }
        var doseLabels: [DoseKey: String] = [:], dayLabels: [Int: String] = [:], atMostLabels: [Int: String] = [:]
        func worded<Key: Hashable>(_ key: Key, in labels: inout [Key: String], _ word: () -> String) -> String {
            if let kept = labels[key] { return kept }
            let made = word()
            labels[key] = made
            return made
        }
        func label(_ dose: Dose) -> String {
            let key = DoseKey(from: dose.from?.bitPattern, to: dose.to?.bitPattern, unit: dose.unit)
            return worded(key, in: &doseLabels) { s.label(dose) }
        }
        func days(_ count: Int) -> String { worded(count, in: &dayLabels) { s.plural("use.days", count) } }
        func atMost(_ count: Int) -> String { worded(count, in: &atMostLabels) { s("web.atMost", count) } }
        func fact(_ label: String, _ value: String, keep: Bool) {
            if !value.isEmpty {
                out.markup("<div><dt>")
                out.text(labels[label] ?? "")
                out.markup(keep ? "</dt><dd class=\"keep\">" : "</dt><dd>")
                out.text(value)
                out.markup("</dd></div>")
            }
            out.markup("\n")
        }
        let grouped = rows.contains { $0.member != nil }
        var group: EntityID?? = .none
        for row in rows {
            if grouped, group != .some(row.member?.id) {
                group = .some(row.member?.id)
                out.markup("</ol>\n<h2 class=\"member\">")
                out.text(row.member?.name ?? culture ?? "")
                out.markup("</h2>\n<ol class=\"use-rows\">\n")
            }
            let expired = row.expired ? expiredMark(row.registrationExpiry, page).nonEmpty ?? page.t("mark.expired") : ""
            let outsideStage = row.outsideStage ? page.t("mark.outsideStage") : ""
            out.markup(expired.isEmpty ? "<li class=\"use-row\">\n" : "<li class=\"use-row is-expired\">\n")
            out.markup("<p class=\"targets\"><a href=\"")
            out.text(href(.product, row.productID))
            out.markup("\">")
            out.text(row.name)
            out.markup("</a> <span class=\"reg\">")
            out.text(row.registrationNumber ?? "")
            out.markup("</span>")
            if !expired.isEmpty {
                out.markup(" <span class=\"expired\">")
                out.text(expired)
                out.markup("</span>")
            }
            if !outsideStage.isEmpty {
                out.markup(" <span class=\"mark\">")
                out.text(outsideStage)
                out.markup("</span>")
            }
            out.markup("</p>\n<p class=\"small\">")
            for ingredient in row.ingredients {
                let amount = label(Dose(from: ingredient.concentration, to: nil, unit: ingredient.unit))
                out.markup("<a href=\"")
                out.text(href(.substance, ingredient.substanceID))
                out.markup("\">")
                out.text(amount.isEmpty ? ingredient.name : "\(ingredient.name) \(amount)")
                out.markup("</a> <span class=\"group\">")
                out.text(ingredient.group ?? "?")
                out.markup("</span> ")
            }
            out.markup("</p>\n<dl class=\"use-facts\">\n")
            fact("dose", label(row.dose), keep: true)
            fact("water", row.water.map(label) ?? "", keep: true)
            fact("phi", row.phiDays.map(days) ?? "", keep: true)
            fact("applications", row.maxApplications.map(atMost) ?? "", keep: false)
            fact("interval", row.intervalDays.map(days) ?? "", keep: true)
            fact("bbch", row.bbch.map { stages($0, s) } ?? "", keep: true)
            fact("area", row.applicationArea ?? "", keep: false)
            out.markup("</dl>\n</li>\n")
        }
        return out.html
    }
}

/// The uses page's body (`uses.mustache`) written directly rather than through Mustache: the
/// form's pickers are the choices kept per catalog and locale with the selected one spliced
/// in, the rest a few values. Mustache looked every value up its context stack and ran the
/// pickers through section lambdas, about a tenth of a page's time. The markup is what the
/// template writes with the same values, byte for byte (`UsesPageTests` renders both); the
/// template stays the reference for it.
struct UsesBody {
    /// A picker's choices, rendered once per catalog and locale, and its selected choice.
    struct Picker {
        let choices: RenderedChoices
        let selected: EntityID?
    }

    /// The page's heading; the interface's "compare" when nil or empty.
    var heading: String?
    var cultures: Picker
    /// The pests offered first: with a culture, those registered on it (`pestsOn` names them).
    var pests: Picker
    /// With a culture, the label of the pests registered on it, and every other pest after them.
    var pestsOn: String?
    var otherPests: RenderedChoices?
    /// Whether a question was asked: the form is then folded, the answer first.
    var asked = false
    /// The sentence saying that the culture's members' uses are listed too, if it has members.
    var members: String?
    /// The mode-of-action groups offered, in order, the filter's own marked.
    var groups: [(code: String, selected: Bool)] = []
    var stage: String
    var sorts: [(code: String, name: String, selected: Bool)]
    /// The rows' HTML (`Pages.useRowsHTML`), as it is.
    var rows = ""
    var empty = false
    /// The pagination's links (`Pages.pageLinks`); none without a comparison.
    var pages: Pages.PageLinks?

    /// The section of `uses.mustache` each picker's choice is rendered with (the key of the
    /// choices kept rendered: the same text as the template's, so the plan page shares them).
    static let optionTemplate = "<option value=\"{{id}}\"{{#selected}} selected{{/selected}}>{{name}}</option>"

    /// The body, with `t`'s interface strings as the template reads them.
    func html(_ t: [String: String]) -> String {
        var out = HTMLWriter(capacity: cultures.choices.html.utf8.count + pests.choices.html.utf8.count + rows.utf8.count + 4_096)
        func label(_ key: String) { out.text(t[key] ?? "") }
        func option(_ value: String, _ name: String, selected: Bool) {
            out.markup("<option value=\"")
            out.text(value)
            out.markup(selected ? "\" selected>" : "\">")
            out.text(name)
            out.markup("</option>")
        }
        out.markup("<h1 id=\"results\">")
        if let heading, !heading.isEmpty { out.text(heading) } else { label("compare") }
        out.markup("</h1>\n<details class=\"ask\"")
        if !asked { out.markup(" open") }
        out.markup("><summary>")
        label("question")
        out.markup("</summary>\n<form class=\"filters\" action=\"/uses#results\" method=\"get\">\n<label>")
        label("culture")
        out.markup(" <select name=\"culture\"><option value=\"\">")
        label("anyCulture")
        out.markup("</option>")
        cultures.choices.write(selecting: cultures.selected, into: &out)
        out.markup("</select></label>\n<label>")
        label("pest")
        out.markup(" <select name=\"pest\"><option value=\"\">")
        label("anyPest")
        out.markup("</option>")
        if let pestsOn, let otherPests {
            out.markup("<optgroup label=\"")
            out.text(pestsOn)
            out.markup("\">")
            pests.choices.write(selecting: pests.selected, into: &out)
            out.markup("</optgroup><optgroup label=\"")
            label("otherPests")
            out.markup("\">")
            otherPests.write(selecting: pests.selected, into: &out)
            out.markup("</optgroup>")
        } else {
            pests.choices.write(selecting: pests.selected, into: &out)
        }
        out.markup("</select></label>\n<label>")
        label("group")
        out.markup(" <select name=\"group\"><option value=\"\">")
        label("all")
        out.markup("</option>")
        for group in groups { option(group.code, group.code, selected: group.selected) }
        out.markup("</select></label>\n<label>")
        label("stage")
        out.markup(" <input name=\"stage\" value=\"")
        out.text(stage)
        out.markup("\" inputmode=\"numeric\" size=\"3\" pattern=\"[0-9]{1,2}\"></label>\n<label>")
        label("sort")
        out.markup(" <select name=\"sort\">")
        for sort in sorts { option(sort.code, sort.name, selected: sort.selected) }
        out.markup("</select></label>\n<button type=\"submit\">")
        label("show")
        out.markup("</button>\n</form>\n</details>\n")
        if let members {
            out.markup("<p class=\"members\">")
            out.text(members)
            out.markup("</p>\n")
        }
        out.markup("<ol class=\"use-rows\">\n")
        out.markup(rows)
        out.markup("</ol>\n")
        if empty {
            out.markup("<p class=\"empty\">")
            label("noResults")
            out.markup("</p>")
        }
        out.markup("\n")
        if let pages {
            out.markup("<nav class=\"pages\">")
            if let previous = pages.previous {
                out.markup("<a rel=\"prev\" href=\"")
                out.text(previous)
                out.markup("\">← ")
                label("previous")
                out.markup("</a>")
            }
            out.markup(" <span>")
            out.text(pages.info)
            out.markup("</span> ")
            if let next = pages.next {
                out.markup("<a rel=\"next\" href=\"")
                out.text(next)
                out.markup("\">")
                label("next")
                out.markup(" →</a>")
            }
            out.markup("</nav>")
        }
        out.markup("\n")
        return out.html
    }
}
