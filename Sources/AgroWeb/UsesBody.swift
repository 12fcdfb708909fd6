import AgroDomain

/// The uses page's body, written directly: the one page not made from a Mustache template.
/// Mustache finds every value by name up its context stack with a dynamic cast per level and
/// runs the pickers through section lambdas; through `uses.mustache` the page took 1.24x the CPU
/// and 1.14x the p99 (Benchmarks/web/README.md), and its p99 goal is 20 ms. The pickers are the
/// choices kept per catalog and locale (`RenderedChoices`), the selected one spliced in; the
/// other pages' pickers are rendered with the same option markup, so they share them.
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

    /// The markup each picker's choice is rendered with: the templates' section text for a
    /// choice, so that the choices kept rendered are shared with the other pages' pickers.
    static let optionTemplate = "<option value=\"{{id}}\"{{#selected}} selected{{/selected}}>{{name}}</option>"

    /// The body, with `t`'s interface strings (`Pages.strings`, the templates' `t`).
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
