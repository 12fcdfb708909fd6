import AgroDomain
import Foundation

/// Interface strings from `Localizable/<lang>.json`, with fallback key by key to the base
/// language, to the fallbacks `Localizable/fallbacks.json` names, then to English.
package struct Localizer: Sendable {
    private let tables: [[String: String]]
    /// The language the interface is shown in.
    package let language: String
    /// The languages looked at for a string, in order.
    package let chain: [String]

    package init(language: String, directory: URL?) {
        self.language = language
        var codes = [language]
        if let dash = language.firstIndex(of: "-") { codes.append(String(language[..<dash])) }
        // Languages may name their own fallbacks (Kazakh readers read Russian): fallbacks.json.
        if let directory,
           let data = FileManager.default.contents(atPath: directory.appendingPathComponent("fallbacks.json").path),
           let fallbacks = try? JSONSerialization.jsonObject(with: data) as? [String: [String]] {
            codes += codes.flatMap { fallbacks[$0] ?? [] }
        }
        codes.append("en")
        var seen = Set<String>()
        chain = codes.filter { seen.insert($0).inserted }
        tables = chain.compactMap { code in
            guard let directory,
                  let data = FileManager.default.contents(atPath: directory.appendingPathComponent("\(code).json").path),
                  let table = try? JSONSerialization.jsonObject(with: data) as? [String: String]
            else { return nil }
            return table
        }
    }

    /// The string for `key`, with `{0}`, `{1}`, ... replaced by `arguments`.
    /// An unknown key reads as itself, so a missing string never hides information.
    package func callAsFunction(_ key: String, _ arguments: any CustomStringConvertible...) -> String {
        var text = tables.lazy.compactMap { $0[key] }.first ?? key
        for (index, argument) in arguments.enumerated() {
            text = text.replacingOccurrences(of: "{\(index)}", with: argument.description)
        }
        return text
    }
}
