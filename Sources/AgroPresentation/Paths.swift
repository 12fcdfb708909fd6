import Foundation

/// Where `agro` keeps and finds its files.
///
/// User files follow the XDG base directories; the files the program ships (the bundled
/// catalog, interface strings, assets) are found beside the executable or in `AGRO_HOME`.
package struct Paths: Sendable {
    // Kept as paths and joined as strings: `URL.appendingPathComponent` and `URL.path` build a
    // character set on each call, and the first made the Swift runtime scan the program's
    // conformances: `Paths` cost 0.95 M of a products query's 26.2 M instructions (3.6%), and keeping
    // its folders as strings took that query from 11.05 M to 10.03 M (Benchmarks/startup/README.md).

    /// `$XDG_DATA_HOME/agro`: user data and installed catalogs.
    package let dataPath: String
    /// `$XDG_CONFIG_HOME/agro`: `config.json`.
    package let configPath: String
    /// `$XDG_CACHE_HOME/agro`: weather answers, feeds.
    package let cachePath: String
    /// The folder holding `Database/`, `Localizable/` and `Assets/`, if found.
    package let resourcesPath: String?

    package init(environment: [String: String] = ProcessVariables.read()) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func base(_ variable: String, _ fallback: String) -> String {
            // The XDG specification ignores relative paths.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return Self.join(home, fallback)
        }
        dataPath = Self.join(base("XDG_DATA_HOME", ".local/share"), "agro")
        configPath = Self.join(base("XDG_CONFIG_HOME", ".config"), "agro")
        cachePath = Self.join(base("XDG_CACHE_HOME", ".cache"), "agro")
        resourcesPath = Paths.findResources(environment: environment)
    }

    /// `path` and the relative `component` joined by one slash.
    static func join(_ path: String, _ component: String) -> String {
        path.hasSuffix("/") ? path + component : path + "/" + component
    }

    package var data: URL { URL(fileURLWithPath: dataPath, isDirectory: true) }
    package var config: URL { URL(fileURLWithPath: configPath, isDirectory: true) }
    package var cache: URL { URL(fileURLWithPath: cachePath, isDirectory: true) }
    package var resources: URL? { resourcesPath.map { URL(fileURLWithPath: $0, isDirectory: true) } }

    package var userDatabase: URL { URL(fileURLWithPath: Self.join(dataPath, "user.sqlite")) }
    /// The farms' shared journal of `agro web --journal-db` and `agro farms|users`, by default.
    package var farmDatabase: URL { URL(fileURLWithPath: Self.join(dataPath, "journal.sqlite")) }
    package var configFile: URL { URL(fileURLWithPath: configFilePath) }
    /// `configFile`'s path.
    package var configFilePath: String { Self.join(configPath, "config.json") }
    package var bundledCatalog: URL? { bundledCatalogPath.map { URL(fileURLWithPath: $0) } }
    /// `bundledCatalog`'s path.
    package var bundledCatalogPath: String? { resourcesPath.map { Self.join($0, "Database/catalog.sqlite") } }
    package var localizable: URL? { localizablePath.map { URL(fileURLWithPath: $0, isDirectory: true) } }
    /// `localizable`'s path.
    package var localizablePath: String? { resourcesPath.map { Self.join($0, "Localizable") } }
    package var assets: URL? { resourcesPath.map { URL(fileURLWithPath: Self.join($0, "Assets"), isDirectory: true) } }

    /// The folder of the running program, symbolic links resolved (so a link to agro in ~/bin
    /// still finds what is installed beside it). From /proc on Linux: `argv[0]` is only "agro"
    /// when the program was found through PATH.
    package static var executableDirectory: URL {
        URL(fileURLWithPath: executableDirectoryPath, isDirectory: true)
    }

    /// `executableDirectory`'s path.
    static var executableDirectoryPath: String {
        #if os(Linux)
            // The kernel's link names the file itself, every symbolic link resolved.
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let count = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
            if count > 0 { return parent(String(decoding: buffer[..<count], as: UTF8.self)) }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The folder holding `path` (an absolute path); "/" for "/" itself.
    static func parent(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `AGRO_HOME`, else the nearest folder above the executable that holds
    /// `Localizable/en.json` (a checkout: `.build/debug/agro`), else `<prefix>/share/agro`.
    package static func findResources(environment: [String: String]) -> String? {
        let marker = "Localizable/en.json"
        if let home = environment["AGRO_HOME"] { return home }
        var directory = executableDirectoryPath
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: join(directory, marker)) { return directory }
            let shared = join(directory, "share/agro")
            if FileManager.default.fileExists(atPath: join(shared, marker)) { return shared }
            directory = parent(directory)
        }
        return nil
    }
}
