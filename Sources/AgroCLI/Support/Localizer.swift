import Foundation

/// Interface strings from `Localizable/<lang>.json`, with fallback key by key to the base
/// language, to the fallbacks `Localizable/fallbacks.json` names, then to English.
///
/// The files are read on the first string asked for: JSON output needs none, and reading
/// them is a good part of a query's start-up.
package final class Localizer: @unchecked Sendable {
    /// The language the interface is shown in.
    package let language: String
    private let directory: URL?
    // Guards `loaded`, written once.
    private let lock = NSLock()
    private var loaded: (chain: [String], tables: [[String: String]])?

    package init(language: String, directory: URL?) {
        self.language = language
        self.directory = directory
    }

    /// The languages looked at for a string, in order.
    package var chain: [String] { load().chain }

    /// The string for `key`, with `{0}`, `{1}`, ... replaced by `arguments`.
    /// An unknown key reads as itself, so a missing string never hides information.
    package func callAsFunction(_ key: String, _ arguments: any CustomStringConvertible...) -> String {
        callAsFunction(key, arguments: arguments)
    }

    /// `callAsFunction(_:_:)` with the arguments in an array, for callers that pass theirs on.
    package func callAsFunction(_ key: String, arguments: [any CustomStringConvertible]) -> String {
        var text = load().tables.lazy.compactMap { $0[key] }.first ?? key
        for (index, argument) in arguments.enumerated() {
            text = text.replacingOccurrences(of: "{\(index)}", with: argument.description)
        }
        return text
    }

    private func load() -> (chain: [String], tables: [[String: String]]) {
        lock.withLock {
            if let loaded { return loaded }
            var codes = [language]
            if let dash = language.firstIndex(of: "-") { codes.append(String(language[..<dash])) }
            // Languages may name their own fallbacks (Kazakh readers read Russian): fallbacks.json.
            if let fallbacks = read("fallbacks.json") as? [String: [String]] {
                codes += codes.flatMap { fallbacks[$0] ?? [] }
            }
            codes.append("en")
            var seen = Set<String>()
            let chain = codes.filter { seen.insert($0).inserted }
            let tables = chain.compactMap { read("\($0).json") as? [String: String] }
            loaded = (chain, tables)
            return (chain, tables)
        }
    }

    private func read(_ file: String) -> Any? {
        guard let directory, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
        else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}
