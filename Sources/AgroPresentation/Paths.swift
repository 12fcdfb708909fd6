import Foundation

/// Where `agro` keeps and finds its files.
///
/// User files follow the XDG base directories; the files the program ships (the bundled
/// catalog, interface strings, assets) are found beside the executable or in `AGRO_HOME`.
package struct Paths: Sendable {
    /// `$XDG_DATA_HOME/agro`: user data and installed catalogs.
    package var data: URL
    /// `$XDG_CONFIG_HOME/agro`: `config.json`.
    package var config: URL
    /// `$XDG_CACHE_HOME/agro`: weather answers, feeds.
    package var cache: URL
    /// The folder holding `Database/`, `Localizable/` and `Assets/`, if found.
    package var resources: URL?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        func base(_ variable: String, _ fallback: String) -> URL {
            // The XDG specification ignores relative paths.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        data = base("XDG_DATA_HOME", ".local/share").appendingPathComponent("agro")
        config = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("agro")
        cache = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("agro")
        resources = Paths.findResources(environment: environment)
    }

    package var userDatabase: URL { data.appendingPathComponent("user.sqlite") }
    package var configFile: URL { config.appendingPathComponent("config.json") }
    package var bundledCatalog: URL? { resources?.appendingPathComponent("Database/catalog.sqlite") }
    package var localizable: URL? { resources?.appendingPathComponent("Localizable") }
    package var assets: URL? { resources?.appendingPathComponent("Assets") }

    /// The folder of the running program, symbolic links resolved (so a link to agro in ~/bin
    /// still finds what is installed beside it). From /proc on Linux: `argv[0]` is only "agro"
    /// when the program was found through PATH.
    package static var executableDirectory: URL {
        #if os(Linux)
            // The kernel's link names the file itself, every symbolic link resolved.
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let count = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
            if count > 0 {
                return URL(fileURLWithPath: String(decoding: buffer[..<count], as: UTF8.self)).deletingLastPathComponent()
            }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// `AGRO_HOME`, else the nearest folder above the executable that holds
    /// `Localizable/en.json` (a checkout: `.build/debug/agro`), else `<prefix>/share/agro`.
    package static func findResources(environment: [String: String]) -> URL? {
        let marker = "Localizable/en.json"
        if let home = environment["AGRO_HOME"] {
            return URL(fileURLWithPath: home)
        }
        var directory = executableDirectory
        let candidates = (0..<6).map { _ -> URL in
            defer { directory = directory.deletingLastPathComponent() }
            return directory
        }
        for candidate in candidates {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) { return candidate }
            let shared = candidate.appendingPathComponent("share/agro")
            if FileManager.default.fileExists(atPath: shared.appendingPathComponent(marker).path) { return shared }
        }
        return nil
    }
}
