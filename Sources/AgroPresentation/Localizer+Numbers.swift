import AgroDomain
import Foundation

/// CLDR plural categories (https://cldr.unicode.org, "Language Plural Rules") for whole
/// numbers in the interface languages.
package enum PluralCategory: String, CaseIterable, Sendable {
    case one, few, many, other

    /// The category of the whole number `count` in `locale`: Russian (and Ukrainian,
    /// Belarusian) one/few/many, Kazakh one/other (n = 1), English and the others
    /// one/other (i = 1).
    package init(_ count: Int, locale: String) {
        let base = locale.split(separator: "-").first.map(String.init) ?? locale
        let n = count.magnitude
        switch base {
        case "ru", "uk", "be":
            let mod10 = n % 10, mod100 = n % 100
            if mod10 == 1 && mod100 != 11 {
                self = .one
            } else if (2...4).contains(mod10) && !(12...14).contains(mod100) {
                self = .few
            } else {
                self = .many
            }
        default:
            // kk: one is n = 1; en, de, fr, it: one is i = 1 with no fraction digits.
            self = n == 1 ? .one : .other
        }
    }
}

extension Localizer {
    /// `value` as the interface language writes numbers for a person: no trailing zeros
    /// ("250", "0.75"), the decimal separator from the strings file (`number.decimal`: "," in
    /// Russian and Kazakh, "." otherwise) and thousands grouped with `number.group` ("24 000"
    /// with a no-break space in Russian and Kazakh, "24,000" in English). Machine output (JSON,
    /// CSV) never comes through here.
    package func number(_ value: Double) -> String {
        grouped(decimal(value.plainText))
    }

    /// `text` (digits, then maybe a decimal separator and a fraction) with its whole part in
    /// groups of three from five digits on ("24 000", "3000"): four-digit numbers stay whole,
    /// as SI (ISO 80000-1) allows and Russian typography prints them, so a tank of "3000 л"
    /// reads as the label prints it. (CLDR, as Foundation's NumberFormatter writes ru, kk and
    /// en, would group "3 000" too: minimum grouping digits 1.) A language without
    /// `number.group` is left ungrouped.
    private func grouped(_ text: String) -> String {
        let separator = self("number.group")
        guard separator != "number.group", !separator.isEmpty else { return text }
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let whole = unsigned.prefix { $0.isASCII && $0.isNumber }
        guard whole.count >= 5 else { return text }
        var groups: [Substring] = []
        var end = whole.endIndex
        while end > whole.startIndex {
            let start = whole.index(end, offsetBy: -3, limitedBy: whole.startIndex) ?? whole.startIndex
            groups.insert(whole[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: separator) + unsigned.dropFirst(whole.count)
    }

    /// A number already written with a decimal point ("12.5", from `String(format:)`), with
    /// the interface language's decimal separator instead.
    package func decimal(_ text: String) -> String {
        let separator = self("number.decimal")
        guard separator != "number.decimal", separator != "." else { return text }
        return text.replacingOccurrences(of: ".", with: separator)
    }

    /// A dose or concentration as labels print it: its numbers and range as `range` writes
    /// them, its unit translated when Localizable has it ("0,75–1 л/га", "0.75-1 l/ha").
    package func label(_ dose: Dose) -> String {
        let amount = range(dose.from, dose.to)
        guard !amount.isEmpty else { return "" }
        guard let unit = dose.unit, !unit.isEmpty else { return amount }
        let key = "unit.\(unit)"
        let localized = self(key)
        return amount + " " + (localized == key ? unit : localized)
    }

    /// A BBCH window as labels print it, with the language's range sign: "BBCH 21–29"
    /// (Russian, Kazakh), "BBCH 21-29" (English), "BBCH 30" for a single stage.
    package func label(_ bbch: BBCHRange) -> String {
        "BBCH " + stages(bbch)
    }

    /// The stage numbers of a BBCH window alone: "21–29" or "30".
    package func stages(_ bbch: BBCHRange) -> String {
        bbch.from == bbch.to ? String(bbch.from) : range(Double(bbch.from), Double(bbch.to))
    }

    /// A range "0,75–1" (Russian) or "0.75-1" (English): the separator is `number.range`.
    package func range(_ from: Double?, _ to: Double?) -> String {
        switch (from, to) {
        case let (f?, t?) where f != t:
            let separator = self("number.range")
            return number(f) + (separator == "number.range" ? "-" : separator) + number(t)
        case let (f?, _): return number(f)
        case let (nil, t?): return number(t)
        default: return ""
        }
    }
}
