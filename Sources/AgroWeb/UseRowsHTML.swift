import AgroDomain
import AgroPresentation

extension Pages {
    /// The uses page's rows, one `<li>` each, written directly rather than through Mustache:
    /// Mustache finds every value by name up its context stack with a dynamic cast per level
    /// (`getChild`), and 20 rows of a dozen values and their ingredients were about a quarter
    /// of a uses page's time (an empty value leaves its fact out). `UsesBody` writes them into
    /// the page.
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
