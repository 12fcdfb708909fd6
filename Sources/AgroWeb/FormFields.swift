import AgroDomain
import AgroPresentation
import Foundation

/// A number typed into a page's form, read as the page's language writes numbers: Russian and
/// Kazakh with a decimal comma (a point is taken too) and thousands grouped by a space, a
/// no-break space or a narrow one ("2 000", "12 500,5"); English with a decimal point and
/// thousands grouped by commas or a space ("2,000", "1,234.5"), a lone comma read as a
/// decimal one ("0,75"). nil for anything else, infinities and NaN included.
enum TypedNumber {
    /// The spaces a thousands group may be written with.
    static let groupSpaces: Set<Character> = [" ", "\u{00A0}", "\u{202F}", "\u{2009}"]

    static func parse(_ raw: String, decimalComma: Bool) -> Double? {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 64 else { return nil }
        var sign = ""
        if let first = text.first, first == "-" || first == "\u{2212}" || first == "+" {
            sign = first == "+" ? "" : "-"
            text.removeFirst()
        }
        if text.contains(where: groupSpaces.contains) {
            guard isGrouped(text, separators: groupSpaces, decimal: decimalComma ? [",", "."] : ["."]) else { return nil }
            text.removeAll(where: groupSpaces.contains)
        }
        if !decimalComma, text.contains(","), isGrouped(text, separators: [","], decimal: ["."]) {
            text.removeAll { $0 == "," }
        }
        text = text.replacingOccurrences(of: ",", with: ".")
        guard let first = text.first, first.isASCII, first.isNumber || first == ".",
            text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
            let value = Double(sign + text), value.isFinite
        else { return nil }
        return value
    }

    /// Whether the whole part of `text` (before a `decimal` sign) is 1 to 3 digits and then
    /// groups of exactly 3 digits, each after one of `separators`, with at least one group.
    private static func isGrouped(_ text: String, separators: Set<Character>, decimal: Set<Character>) -> Bool {
        let whole = text.prefix { !decimal.contains($0) }
        let groups = whole.split(omittingEmptySubsequences: false, whereSeparator: separators.contains)
        guard groups.count > 1, let head = groups.first, (1...3).contains(head.count) else { return false }
        guard groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        guard groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return false }
        let fraction = text.dropFirst(whole.count).dropFirst()
        return fraction.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// What is wrong with the fields of a form a page shows again: one message per field, worded
/// in the page's language with the label the person sees, shown next to the field, with
/// choices as links where a name fits several entries. Never a command-line flag or a
/// query parameter's name.
struct FieldProblems {
    struct Problem {
        /// The field's element id (`f-dose2`), for the summary's links.
        var field: String
        /// What the summary says before the message: the row's legend, or "".
        var place: String
        var message: String
        var choices: [(name: String, href: String)]
    }

    private(set) var list: [Problem] = []
    var isEmpty: Bool { list.isEmpty }

    /// A problem with field `field`; the first stays when a field has several.
    mutating func add(_ field: String, _ message: String, place: String = "", choices: [(name: String, href: String)] = []) {
        guard !list.contains(where: { $0.field == field }) else { return }
        list.append(Problem(field: field, place: place, message: message, choices: choices))
    }

    /// The template values of field `field`'s problem, nil when it has none: `message`,
    /// `id` (its element id, for `aria-describedby`) and `choices` (`name`, `href`).
    func value(_ field: String) -> [String: Any]? {
        guard let problem = list.first(where: { $0.field == field }) else { return nil }
        return [
            "id": problem.field + "-error", "message": problem.message,
            "choices": problem.choices.map { ["name": $0.name, "href": $0.href] }, "hasChoices": !problem.choices.isEmpty,
        ]
    }

    /// The list above the form: each problem linked to its field.
    var summary: [[String: String]] {
        list.map { problem in
            // "choose one:" leads to the choices beside the field, not to the next line.
            let message = problem.message.hasSuffix(":") ? String(problem.message.dropLast()) : problem.message
            return ["href": "#" + problem.field, "text": (problem.place.isEmpty ? "" : problem.place + " · ") + message]
        }
    }
}

extension Pages {
    /// The words of a form's problems, in the page's language: `label` is what the person sees
    /// beside the field.
    struct FormWords {
        let page: PageContext

        var decimalComma: Bool { page.t("number.decimal") == "," }

        func needed(_ label: String) -> String { page.t("web.form.needed", label) }
        func notANumber(_ label: String, _ text: String) -> String { page.t("web.form.notANumber", label, text) }
        func notPositive(_ label: String, _ text: String) -> String { page.t("web.form.notPositive", label, text) }

        /// The positive number `text` in `field`, or nil with its problem added.
        func positive(
            _ text: String?, field: String, label: String, place: String = "", into problems: inout FieldProblems
        ) -> Double? {
            guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                problems.add(field, needed(label), place: place)
                return nil
            }
            guard let value = TypedNumber.parse(text, decimalComma: decimalComma) else {
                problems.add(field, notANumber(label, text), place: place)
                return nil
            }
            guard value > 0 else {
                problems.add(field, notPositive(label, text), place: place)
                return nil
            }
            return value
        }

        /// The BBCH growth stage (0-99) typed in `field`; nil when none is typed, or with its
        /// problem added.
        func stage(_ text: String?, field: String, place: String = "", into problems: inout FieldProblems) -> Int? {
            guard let text else { return nil }
            if let stage = Int(text.trimmingCharacters(in: .whitespaces)), (0...99).contains(stage) { return stage }
            problems.add(field, page.t("web.form.stage", "BBCH", text), place: place)
            return nil
        }

        /// The product and the dose of row `index` of a form (fields `productN` and `doseN`),
        /// each nil with its problem added; `link` makes the href that puts a product's id in
        /// the row.
        func productAndDose(
            _ index: Int, product text: String, dose: String?, place: String, into problems: inout FieldProblems,
            link: (EntityID) -> String
        ) throws -> (product: EntityID?, dose: Double?) {
            let product = try resolve(
                text, .product, field: "f-product\(index)", label: page.t("web.product"), place: place, into: &problems,
                link: link)
            let dose = positive(dose, field: "f-dose\(index)", label: page.t("web.dose"), place: place, into: &problems)
            return (product, dose)
        }

        /// Pests typed in one field, separated by ";" as the plan CSV separates them, each
        /// resolved alone; a name that fits several is offered as links that replace it alone
        /// (`link` makes the href from the field's new text).
        func pests(
            _ text: String?, field: String, place: String, into problems: inout FieldProblems,
            link: (String) -> String
        ) throws -> [EntityID] {
            let texts = (text ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            var pests: [EntityID] = []
            for (position, pest) in texts.enumerated() {
                let id = try resolve(pest, .pest, field: field, label: page.t("web.pest"), place: place, into: &problems) {
                    id in
                    var chosen = texts
                    chosen[position] = id
                    return link(chosen.joined(separator: "; "))
                }
                if let id { pests.append(id) }
            }
            return pests
        }

        /// The id of the `kind` named `text`, or nil with the field's problem added: the
        /// entries it fits (or the nearest names) offered as links, `link` making each one's
        /// href from its id.
        func resolve(
            _ text: String, _ kind: EntityKind, field: String, label: String, place: String = "",
            into problems: inout FieldProblems, link: (EntityID) -> String
        ) throws -> EntityID? {
            do {
                return try page.catalog.resolve(text, kind: kind, locale: page.locale).id
            } catch let CatalogError.ambiguous(_, typed, candidates) {
                problems.add(
                    field, page.t("web.form.ambiguous", label, typed), place: place,
                    choices: candidates.map { ($0.name, link($0.id)) })
            } catch let CatalogError.unknownName(_, typed, suggestions) {
                problems.add(
                    field,
                    suggestions.isEmpty
                        ? page.t("web.form.unknown", label, typed) : page.t("web.form.unknownClosest", label, typed),
                    place: place, choices: suggestions.map { ($0.name, link($0.id)) })
            } catch CatalogError.notFound {
                problems.add(field, page.t("web.form.unknown", label, text), place: place)
            }
            return nil
        }
    }

    /// A query of `pairs`, each encoded, for a link that fills a form again.
    static func formQuery(_ pairs: [(String, String)]) -> String {
        pairs.map { WebRequest.encoded($0.0) + "=" + WebRequest.encoded($0.1) }.joined(separator: "&")
    }
}
