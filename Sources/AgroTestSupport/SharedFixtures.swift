import Foundation

#if canImport(XCTest)
    // Skipping is XCTest's; a benchmark linking this module without XCTest gets failures instead.
    import XCTest
#endif

/// The one place tests find the shared inputs (the Swiss register, OpenWeatherMap answers, HTML
/// pages, feeds) that live beside the repository in `../shared` and are never copied into it.
///
/// A test that needs one asks for it here. When it is missing the test is skipped with the
/// path it looked for, except under CI (`CI=true`), where a missing fixture fails the test: a
/// clean clone without `../shared` must not pass while testing nothing.
///
///     let data = try SharedFixtures.data("fixtures/owm/current_weather_rain_gust_manila_metric.json")
///     let pages = try SharedFixtures.directory("fixtures/html/real_pages")
public enum SharedFixtures {
    /// A fixture the tests need and do not find.
    public struct Missing: Error, CustomStringConvertible {
        /// The path looked for, relative to the shared folder.
        public let path: String
        /// Where the fixture was looked for and how to provide it.
        public var description: String {
            "shared fixture missing: \(path) (put ../shared beside the package or set AGRO_SHARED; CI=true makes this a failure)"
        }
    }

    /// `AGRO_SHARED` if set, else `shared/` beside the package root (…/agro and …/shared).
    public static var root: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["AGRO_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }

    /// The package root, found from this source file's place in it.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // AgroTestSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }

    /// Whether a missing fixture fails the test instead of skipping it.
    public static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased()
        return value == "true" || value == "1"
    }

    /// The location of `relativePath` under the root, without checking that it exists.
    ///
    /// `AGRO_OWM_FIXTURES`, which predates the root override, still points at the
    /// OpenWeatherMap answers on its own.
    public static func location(_ relativePath: String) -> URL {
        let owm = "fixtures/owm"
        if relativePath.hasPrefix(owm), let path = ProcessInfo.processInfo.environment["AGRO_OWM_FIXTURES"], !path.isEmpty {
            let rest = relativePath.dropFirst(owm.count).drop(while: { $0 == "/" })
            let base = URL(fileURLWithPath: path, isDirectory: true)
            return rest.isEmpty ? base : base.appendingPathComponent(String(rest))
        }
        return root.appendingPathComponent(relativePath)
    }

    /// An existing file under the root; skips the test when it is missing (fails it under CI).
    public static func file(_ relativePath: String) throws -> URL {
        try existing(relativePath, directory: false)
    }

    /// An existing directory under the root; skips the test when it is missing (fails it under CI).
    public static func directory(_ relativePath: String) throws -> URL {
        try existing(relativePath, directory: true)
    }

    /// The bytes of a file under the root; skips the test when it is missing (fails it under CI).
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: file(relativePath))
    }

    /// What a test does when a fixture is not there: skip, saying where it looked, or, under
    /// CI, fail.
    public static func unavailable(_ url: URL) -> any Error {
        #if canImport(XCTest)
            if !isRequired { return XCTSkip("shared fixture not found at \(url.path) (set CI=true to make this a failure)") }
        #endif
        return Missing(path: url.path)
    }

    /// An executable the tests drive (`script`, `xz`), which scripts/install-deps installs:
    /// skips the test when it is missing, fails it under CI.
    public static func tool(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            #if canImport(XCTest)
                if !isRequired { throw XCTSkip("\(path) is not installed (scripts/install-deps installs it)") }
            #endif
            throw Missing(path: path)
        }
    }

    private static func existing(_ relativePath: String, directory: Bool) throws -> URL {
        let url = location(relativePath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue == directory
        else { throw unavailable(url) }
        return url
    }
}
