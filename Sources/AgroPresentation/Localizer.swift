import AgroCaching
import AgroDomain
import Foundation

/// Interface strings from `Localizable/<lang>.json`, with fallback key by key to the base
/// language, to the fallbacks `Localizable/fallbacks.json` names, then to English.
///
/// The files are read on the first string asked for: JSON output needs none, and reading
/// them is a good part of a query's start-up.
package final class Localizer: Sendable {
    /// The language the interface is shown in.
    package let locale: String
    /// The `Localizable/` folder's path (a string: see `Paths`).
    private let directory: String?
    // Read once, by the first caller; others asking meanwhile wait for it.
    private let loaded = KeyedCache<OneValue, Loaded>(computesOnce: true)

    /// The language chain and the strings file of each language that has one (`codes[i]` is
    /// the language of `tables[i]`).
    private struct Loaded: Sendable {
        var chain: [String]
        var codes: [String]
        var tables: [[String: String]]
    }

    package convenience init(locale: String, directory: URL?) {
        self.init(locale: locale, directoryPath: directory?.path)
    }

    /// The strings in `directoryPath` (the `Localizable/` folder; nil: English keys only).
    package init(locale: String, directoryPath: String?) {
        self.locale = locale
        directory = directoryPath
    }

    /// The languages looked at for a string, in order.
    package var chain: [String] { load().chain }

    /// Whether `Localizable/` has strings in this language (or its base language, `ru` for
    /// `ru-kz`); when not, every string comes from a fallback, English at the end. Looks for
    /// the files without reading them, so asking costs a query nothing it would not spend.
    package var hasOwnStrings: Bool {
        guard let directory else { return false }
        return [locale, String(locale.prefix { $0 != "-" })].contains {
            FileManager.default.fileExists(atPath: Paths.join(directory, "\($0).json"))
        }
    }

    /// The string for `key`, with `{0}`, `{1}`, ... replaced by `arguments`.
    /// An unknown key reads as itself, so a missing string never hides information.
    package func callAsFunction(_ key: String, _ arguments: any CustomStringConvertible...) -> String {
        callAsFunction(key, arguments: arguments)
    }

    /// `callAsFunction(_:_:)` with the arguments in an array, for callers that pass theirs on.
    package func callAsFunction(_ key: String, arguments: [any CustomStringConvertible]) -> String {
        Self.substitute(load().tables.lazy.compactMap { $0[key] }.first ?? key, arguments.map(\.description))
    }

    /// `template` with `{0}`, `{1}`, ... replaced in one pass (`TextTemplate.fill`).
    package static func substitute(_ template: String, _ arguments: [String]) -> String {
        TextTemplate.fill(template, arguments)
    }

    /// The string for `key` in the plural form `count` takes, with `{0}` the count (written as
    /// `number(_:)` writes it) and `{1}`, ... the further `arguments`.
    ///
    /// The forms are keys of their own, `KEY.one`, `KEY.few`, `KEY.many`, `KEY.other`, chosen
    /// by the CLDR rule of the language whose file has them (Kazakh falling back to Russian text
    /// takes the Russian forms); else `KEY.other`; else `KEY` itself.
    ///
    ///     strings.plural("use.applications", 1)   // ru: "не более 1 обработки"
    ///     strings.plural("use.applications", 5)   // ru: "не более 5 обработок"
    package func plural(_ key: String, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
        let loaded = load()
        var form = key
        let hasForms = { (table: [String: String]) in PluralCategory.allCases.contains { table[key + "." + $0.rawValue] != nil } }
        if let index = loaded.tables.firstIndex(where: hasForms) {
            let category = PluralCategory(count, locale: loaded.codes[index])
            form = loaded.tables[index][key + "." + category.rawValue] != nil ? key + "." + category.rawValue : key + ".other"
        }
        return callAsFunction(form, arguments: [number(Double(count))] + arguments)
    }

    /// A calendar date as the language writes it: `date.numeric` fills year, month and day
    /// ("30.06.2025" in Russian and Kazakh, "2025-06-30" in English). Text that does not start
    /// with an ISO date (`2025-06-30`) is returned as it is; what follows the date is kept.
    package func date(_ iso: String) -> String {
        let day = iso.prefix(10)
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2], day.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber })
        else { return iso }
        return callAsFunction("date.numeric", parts[0], parts[1], parts[2]) + iso.dropFirst(10)
    }

    /// A UTC time stamp as the language writes it: "25.11.2026 14:05 UTC" in Russian and
    /// Kazakh, "2026-11-25 14:05 UTC" in English, from ISO 8601 (`2026-11-25T14:05:00Z`); text
    /// that is not such a stamp is returned as it is.
    package func timestamp(_ iso: String) -> String {
        guard let stamp = UTCMinute(iso: iso) else { return iso }
        return "\(date(stamp.date)) \(stamp.time) UTC"
    }

    /// A file size as a person reads it, in decimal units as file managers count them: "1,8 МБ"
    /// in Russian, "1.8 MB" in English (`size.*` strings; one decimal from a megabyte on).
    package func bytes(_ count: Int64) -> String {
        switch count {
        case ..<1000: return callAsFunction("size.bytes", count)
        case ..<1_000_000: return callAsFunction("size.kb", number((Double(count) / 1000).rounded()))
        case ..<1_000_000_000: return callAsFunction("size.mb", number((Double(count) / 100_000).rounded() / 10))
        default: return callAsFunction("size.gb", number((Double(count) / 100_000_000).rounded() / 10))
        }
    }

    private func load() -> Loaded {
        loaded.value {
            var codes = [locale]
            if let dash = locale.firstIndex(of: "-") { codes.append(String(locale[..<dash])) }
            // Languages may name their own fallbacks (Kazakh readers read Russian): fallbacks.json.
            if let fallbacks = read("fallbacks.json") as? [String: [String]] {
                codes += codes.flatMap { fallbacks[$0] ?? [] }
            }
            codes.append("en")
            var seen = Set<String>()
            let chain = codes.filter { seen.insert($0).inserted }
            var found: [String] = [], tables: [[String: String]] = []
            for code in chain {
                guard let table = read("\(code).json") as? [String: String] else { continue }
                found.append(code)
                tables.append(table)
            }
            return Loaded(chain: chain, codes: found, tables: tables)
        }
    }

    private func read(_ file: String) -> Any? {
        guard let directory, let data = FileManager.default.contents(atPath: Paths.join(directory, file)) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}
