import AgroDomain
import AgroNews
import AgroPresentation
import AgroStore
import AgroUpdate
import AgroWeather
import Foundation
import Mustache

/// What the web server answers from, built once at start-up and shared by every request:
/// the live catalog, the environment the program started with, the interface strings per
/// language, the templates and the static files. Nothing in it changes per request, so any
/// number of instances can serve the same users behind a load balancer.
package final class WebApp: Sendable {
    /// The catalog; `agro db update` (or `--watch-updates`) swaps it between two requests.
    package let catalog: LiveCatalog
    /// The environment of the program; each request gets a copy in its own language.
    package let environment: AgroPresentation.Environment
    package let templates: MustacheLibrary
    /// Static files by name (`/static/NAME`), read at start-up: nothing else on disk is served.
    package let staticFiles: [String: StaticFile]
    /// The weather service (with its cache), built on demand: a missing key fails the
    /// weather requests only, with the CLI's message and status.
    package let weather: @Sendable () throws -> CachedWeatherService
    package let sprayRules: SprayRules
    /// Entries of the configured feeds from their cache, and one of them by id.
    package let feeds: @Sendable () throws -> [FeedItem]
    package let feedItem: @Sendable (String) throws -> FeedItem?
    /// How the program words and numbers errors (`ErrorWording`): the API answers with the
    /// CLI's message and exit status.
    package let wordings: [any ErrorWording]
    private let localizers: LocalizerCache
    /// Answers of the JSON API for the catalog in use.
    let cache: ResponseCache

    package init(
        catalog: LiveCatalog, environment: AgroPresentation.Environment, resources: URL,
        weather: @escaping @Sendable () throws -> CachedWeatherService, sprayRules: SprayRules = SprayRules(),
        feeds: @escaping @Sendable () throws -> [FeedItem] = { [] },
        feedItem: @escaping @Sendable (String) throws -> FeedItem? = { _ in nil }, cacheBytes: Int = 64 << 20,
        wordings: [any ErrorWording] = [CatalogErrorWording()]
    ) async throws {
        self.wordings = wordings
        cache = ResponseCache(limit: cacheBytes)
        self.catalog = catalog
        self.environment = environment
        self.weather = weather
        self.sprayRules = sprayRules
        self.feeds = feeds
        self.feedItem = feedItem
        localizers = LocalizerCache(directory: environment.paths.localizable)
        let templateDirectory = resources.appendingPathComponent("templates")
        do {
            templates = try await MustacheLibrary(directory: templateDirectory.path)
        } catch {
            throw WebError.resources("the web templates in \(templateDirectory.path) cannot be read: \(error)")
        }
        staticFiles = try StaticFile.load(from: resources.appendingPathComponent("static"))
        guard templates.getTemplate(named: "layout") != nil else {
            throw WebError.resources("\(templateDirectory.path) has no layout.mustache")
        }
    }

    /// The languages the interface offers (Localizable/ has them all).
    package static let interfaceLanguages = ["en", "ru", "kk"]

    /// The environment for a request in `language`: same settings, that language's strings,
    /// the day the request comes in.
    package func environment(language: String) -> AgroPresentation.Environment {
        AgroPresentation.Environment(
            environment, language: language, strings: localizers.localizer(for: language),
            today: AgroPresentation.Environment.isoDate(Date()))
    }

    /// The languages a request may ask for: the interface's and the catalog's.
    package var languages: [String] {
        var seen = Set<String>()
        return (Self.interfaceLanguages + catalog.info.locales.locales).filter { seen.insert($0).inserted }
    }
}

/// One `Localizer` per language, made on first use: a localizer reads its files once.
final class LocalizerCache: @unchecked Sendable {
    private let directory: URL?
    private let lock = NSLock()
    private var localizers: [String: Localizer] = [:]

    init(directory: URL?) { self.directory = directory }

    func localizer(for language: String) -> Localizer {
        lock.withLock {
            if let known = localizers[language] { return known }
            let made = Localizer(language: language, directory: directory)
            // Languages come from requests: keep the table small whatever clients send.
            if localizers.count < 64 { localizers[language] = made }
            return made
        }
    }
}

/// A file under `/static/`, held in memory with its content type and ETag.
package struct StaticFile: Sendable {
    package var data: Data
    package var contentType: String
    package var etag: String

    static let types = [
        "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
        "png": "image/png", "ico": "image/x-icon", "json": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json",
    ]

    /// Every regular file directly in `directory` whose extension is known; no dotfiles, no
    /// links, no subfolders, so what is served is exactly what was shipped.
    static func load(from directory: URL) throws -> [String: StaticFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw WebError.resources("the web's static files in \(directory.path) cannot be read")
        }
        var files: [String: StaticFile] = [:]
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isRegularFile == true, values?.isSymbolicLink != true,
                  let type = types[url.pathExtension.lowercased()], let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            files[name] = StaticFile(data: data, contentType: type, etag: "\"" + String(hash, radix: 16) + "\"")
        }
        return files
    }
}

/// Failures of the web server itself (its resources); request failures are answered, not thrown.
package enum WebError: CommandError {
    case resources(String)

    package var message: String {
        switch self {
        case let .resources(text): return text
        }
    }

    package var exitStatus: ExitStatus { .ioError }
}
