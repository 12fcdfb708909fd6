import AgroDomain
import AgroStore
import Foundation

/// Reads the fields of one JSON entry, recording a problem, with the file and entry named,
/// for every field that is missing or malformed.
struct SourceEntry {
    let fields: [String: Any]
    let file: String
    let label: String
    let locales: Set<String>
    let problems: ProblemLog

    func report(_ problem: String) {
        problems.add(ContentProblem(file: file, entry: label, problem: problem))
    }

    func has(_ key: String) -> Bool { fields[key] != nil && !(fields[key] is NSNull) }

    /// Whether the field is there; a missing required one is reported.
    func present(_ key: String, required: Bool) -> Bool {
        if has(key) { return true }
        if required { report("missing required field \"\(key)\"") }
        return false
    }

    func string(_ key: String, required: Bool = false) -> String? {
        guard present(key, required: required) else { return nil }
        guard let value = fields[key] as? String, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            report("field \"\(key)\" must be a non-empty string")
            return nil
        }
        return value
    }

    /// An EPPO code, written as EPPO writes it ("TRZAW"): a source holds the code itself, so a
    /// code in small letters or with blanks is reported rather than mended.
    func eppoCode(_ key: String) -> String? {
        guard let value = string(key) else { return nil }
        guard EPPOCode.normalized(value) == value else {
            report("field \"\(key)\" must be an EPPO code: 5 or 6 capital letters or digits, as \"TRZAW\"")
            return nil
        }
        return value
    }

    func number(_ key: String) -> Double? {
        guard has(key) else { return nil }
        guard let value = fields[key] as? NSNumber, !Self.isBoolean(value) else {
            report("field \"\(key)\" must be a number")
            return nil
        }
        return value.doubleValue
    }

    func integer(_ key: String, required: Bool = false) -> Int? {
        guard present(key, required: required), let value = number(key) else { return nil }
        // Int(value) traps beyond Int's range.
        guard value >= 0, value == value.rounded(), value < 1e15 else {
            report("field \"\(key)\" must be a whole number of at least 0")
            return nil
        }
        return Int(value)
    }

    func strings(_ key: String, required: Bool = false) -> [String] {
        guard present(key, required: required) else { return [] }
        guard let values = fields[key] as? [String] else {
            report("field \"\(key)\" must be a list of strings")
            return []
        }
        if required && values.isEmpty { report("field \"\(key)\" must not be empty") }
        return values
    }

    func objects(_ key: String, required: Bool = false) -> [[String: Any]] {
        guard present(key, required: required) else { return [] }
        guard let values = fields[key] as? [[String: Any]] else {
            report("field \"\(key)\" must be a list of objects")
            return []
        }
        return values
    }

    func object(_ key: String, required: Bool = false) -> [String: Any]? {
        guard present(key, required: required) else { return nil }
        guard let value = fields[key] as? [String: Any] else {
            report("field \"\(key)\" must be an object")
            return nil
        }
        return value
    }

    /// A localized text: an object keyed by catalog locale.
    func text(_ key: String, required: Bool = false) -> LocalizedText {
        guard present(key, required: required) else { return [:] }
        guard let object = fields[key] as? [String: Any] else {
            report("field \"\(key)\" must be an object keyed by locale")
            return [:]
        }
        var text: LocalizedText = [:]
        for (locale, value) in object {
            guard locales.contains(locale) else {
                report(
                    "unknown locale \"\(locale)\" in field \"\(key)\" (catalog locales: \(locales.sorted().joined(separator: ", ")))"
                )
                continue
            }
            guard let string = value as? String else {
                report("field \"\(key)\".\(locale) must be a string")
                continue
            }
            if !string.isEmpty { text[locale] = string }
        }
        if required && text.isEmpty { report("field \"\(key)\" has no text in any locale") }
        return text
    }

    /// A range: `[from, to]` or one number. `from` must not exceed `to`.
    func range(_ key: String, required: Bool = false) -> (from: Double, to: Double)? {
        guard present(key, required: required) else { return nil }
        let values: [Double]
        if let single = fields[key] as? NSNumber, !Self.isBoolean(single) {
            values = [single.doubleValue, single.doubleValue]
        } else if let pair = fields[key] as? [NSNumber], pair.count == 2, !pair.contains(where: Self.isBoolean) {
            values = pair.map(\.doubleValue)
        } else {
            report("field \"\(key)\" must be a number or a [from, to] pair")
            return nil
        }
        guard values[0] <= values[1] else {
            report("field \"\(key)\": from (\(values[0].plainText)) is greater than to (\(values[1].plainText))")
            return nil
        }
        return (values[0], values[1])
    }

    func bbch(_ key: String, required: Bool = false) -> BBCHRange? {
        guard let range = range(key, required: required) else { return nil }
        guard (0...99).contains(range.from), (0...99).contains(range.to),
            range.from == range.from.rounded(), range.to == range.to.rounded()
        else {
            report("field \"\(key)\" must be BBCH stages between 0 and 99")
            return nil
        }
        return BBCHRange(from: Int(range.from), to: Int(range.to))
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type, required: Bool = false) -> T?
    where T.RawValue == String {
        guard let raw = string(key, required: required) else { return nil }
        guard let value = T(rawValue: raw) else {
            report("field \"\(key)\" is \"\(raw)\"; expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return value
    }

    /// JSON true and false arrive as NSNumber too; on Linux `is Bool` also holds for 0 and 1,
    /// so the number's own type code tells them apart.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && type(of: number) != NSNumber.self
    }
}

/// Collects problems while the sources are read. Used from one thread only.
final class ProblemLog {
    private(set) var problems: [ContentProblem] = []
    func add(_ problem: ContentProblem) { problems.append(problem) }
}
