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

    package init(environment: [String: String] = ProcessVariables.read()) {
        // Joined as strings: each `URL.appendingPathComponent` builds a character set, and the
        // first made the Swift runtime scan the program's conformances, 7% of a catalog query's
        // instructions (Benchmarks/README.md, issue 20).
        let home = environment["HOME"] ?? NSHomeDirectory()
        func base(_ variable: String, _ fallback: String) -> String {
            // The XDG specification ignores relative paths.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return Self.join(home, fallback)
        }
        data = URL(fileURLWithPath: Self.join(base("XDG_DATA_HOME", ".local/share"), "agro"), isDirectory: true)
        config = URL(fileURLWithPath: Self.join(base("XDG_CONFIG_HOME", ".config"), "agro"), isDirectory: true)
        cache = URL(fileURLWithPath: Self.join(base("XDG_CACHE_HOME", ".cache"), "agro"), isDirectory: true)
        resources = Paths.findResources(environment: environment)
    }

    /// `path` and the relative `component` joined by one slash.
    static func join(_ path: String, _ component: String) -> String {
        path.hasSuffix("/") ? path + component : path + "/" + component
    }

    package var userDatabase: URL { Self.file(data, "user.sqlite") }
    package var configFile: URL { Self.file(config, "config.json") }
    package var bundledCatalog: URL? { resources.map { Self.file($0, "Database/catalog.sqlite") } }
    package var localizable: URL? { resources.map { Self.file($0, "Localizable", isDirectory: true) } }
    package var assets: URL? { resources.map { Self.file($0, "Assets", isDirectory: true) } }

    /// `relative` in the folder `folder` (see `init`: no `appendingPathComponent`).
    private static func file(_ folder: URL, _ relative: String, isDirectory: Bool = false) -> URL {
        URL(fileURLWithPath: join(folder.path, relative), isDirectory: isDirectory)
    }

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
    package static func findResources(environment: [String: String]) -> URL? {
        let marker = "Localizable/en.json"
        if let home = environment["AGRO_HOME"] {
            return URL(fileURLWithPath: home)
        }
        var directory = executableDirectoryPath
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: join(directory, marker)) {
                return URL(fileURLWithPath: directory, isDirectory: true)
            }
            let shared = join(directory, "share/agro")
            if FileManager.default.fileExists(atPath: join(shared, marker)) {
                return URL(fileURLWithPath: shared, isDirectory: true)
            }
            directory = parent(directory)
        }
        return nil
    }
}
