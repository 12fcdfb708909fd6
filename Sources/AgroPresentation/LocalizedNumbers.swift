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
    /// `value` as the interface language writes numbers: no trailing zeros ("250", "0.75"),
    /// the decimal separator from the strings file (`number.decimal`: "," in Russian and
    /// Kazakh, "." otherwise), no grouping, so ids and years read as written.
    package func number(_ value: Double) -> String {
        decimal(value.plainText)
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
