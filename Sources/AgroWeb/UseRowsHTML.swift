import AgroDomain
import AgroPresentation

/// HTML appended piece by piece: markup as it is, text escaped as the templates escape a
/// `{{value}}` (`HTMLEscaping`), so that what a page writes directly reads as its template would.
struct HTMLWriter {
    private(set) var html = ""
    private let escaping = HTMLEscaping()

    init(capacity: Int) { html.reserveCapacity(capacity) }

    /// Markup, written as it is.
    mutating func markup(_ text: String) { html += text }

    /// A value, escaped.
    mutating func text(_ value: String) { html += escaping.escapeText(value) }
}

extension Pages {
    /// The uses page's rows, one `<li>` each, written directly rather than through Mustache:
    /// Mustache finds every value by name up its context stack with a dynamic cast per level
    /// (`getChild`), and 20 rows of a dozen values and their ingredients were about a quarter
    /// of a uses page's time. The markup is what `uses.mustache`'s `{{#rows}}` section wrote,
    /// byte for byte (an empty value leaves its fact out, as the section did for the values
    /// `pruned` removed); the template inserts this where the section was.
    ///
    /// - Parameter labels: the interface strings the templates see as `t`.
    static func useRowsHTML(_ rows: [UseRow], _ page: PageContext, labels: [String: String]) -> String {
        let s = page.environment.strings
        // About a kilobyte a row on the Swiss register: one allocation for most pages.
        var out = HTMLWriter(capacity: rows.count * 1_536)
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
        for row in rows {
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
                let amount = s.label(Dose(from: ingredient.concentration, to: nil, unit: ingredient.unit))
                out.markup("<a href=\"")
                out.text(href(.substance, ingredient.substanceID))
                out.markup("\">")
                out.text(amount.isEmpty ? ingredient.name : "\(ingredient.name) \(amount)")
                out.markup("</a> <span class=\"group\">")
                out.text(ingredient.group ?? "?")
                out.markup("</span> ")
            }
            out.markup("</p>\n<dl class=\"use-facts\">\n")
            fact("dose", s.label(row.dose), keep: true)
            fact("water", row.water.map { s.label($0) } ?? "", keep: true)
            fact("phi", row.phiDays.map { s.plural("use.days", $0) } ?? "", keep: true)
            fact("applications", row.maxApplications.map { s("web.atMost", $0) } ?? "", keep: false)
            fact("interval", row.intervalDays.map { s.plural("use.days", $0) } ?? "", keep: true)
            fact("bbch", row.bbch.map { stages($0, s) } ?? "", keep: true)
            fact("area", row.applicationArea ?? "", keep: false)
            out.markup("</dl>\n</li>\n")
        }
        return out.html
    }
}
