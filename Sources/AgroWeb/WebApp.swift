import AgroCaching
import AgroDomain
import AgroNews
import AgroPresentation
import AgroWeather
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import Synchronization

/// What the web server answers from, built once at start-up and shared by every request:
/// the live catalog, the environment the program started with, the interface strings per
/// language, the templates and the static files. Nothing in it changes per request, so any
/// number of instances can serve the same users behind a load balancer.
package final class WebApp: Sendable {
    /// The catalog; `agro db update` (or `--watch-updates`) swaps it between two requests.
    package let catalog: any SwappableCatalog
    /// The environment of the program; each request gets a copy in its own language.
    package let environment: AgroPresentation.Environment
    package let templates: MustacheLibrary
    /// Static files by name (`/static/NAME`), read at start-up: nothing else on disk is served.
    package let staticFiles: [String: StaticFile]
    /// The weather service (with its cache), built on demand: a missing key fails the
    /// weather requests only, with the CLI's message and status.
    package let weather: @Sendable () throws -> CachedWeatherService
    package let sprayRules: SprayRules
    /// Entries of the configured feeds from their cache (parsed at most once a minute), and
    /// one of them by id from the same list.
    package let feeds: @Sendable () throws -> [FeedItem]
    package let feedItem: @Sendable (String) throws -> FeedItem?
    /// How the program words and numbers errors (`ErrorWording`): the API answers with the
    /// CLI's message and exit status.
    package let wordings: [any ErrorWording]
    /// One `Localizer` per language, made on first use (making one reads nothing: it reads its
    /// files once, when first asked); the languages are those the interface offers.
    private let localizers = KeyedCache<String, Localizer>(maxCount: 64, eviction: .keepFirst)
    private let localizable: URL?
    /// Answers of the JSON API for the catalog in use.
    let cache: ResponseCache
    /// What pages repeat for the catalog in use and a locale (pickers, the catalog's title).
    let fragments: PageFragments
    /// What one client and all of them may ask for (docs/updates-and-security.md, "The web server").
    package let limits: WebLimits
    /// Where catalog work and rendering run: bounded, with a bounded queue.
    let pool: WorkPool
    /// Weather calls that reach OpenWeatherMap with the server's key: per minute, per day.
    let weatherLimiters: [RateLimiter]
    /// Stops calling OpenWeatherMap for a while when it keeps failing.
    let weatherBreaker = CircuitBreaker()
    /// The server's methods per route, filled once the routes are registered (405 and Allow).
    let routes = RouteTable()
    /// Open connections (`WebLimits.maxConnections`, `connectionsPerClient`).
    let connections = ConnectionCounter()
    /// Requests being answered, per client (`WebLimits.requestsPerClient`).
    let requestsInFlight = ConnectionCounter()
    /// Bytes of request bodies being read or held (`WebLimits.bodyBytesInFlight`).
    let bodyBytes: ByteBudget
    /// The field journal, when `agro web --journal` serves it (`APIRoutes+Journal.swift`).
    package let journal: (any JournalStore)?
    /// The farms' shared journal with accounts, when `agro web --journal-db` serves it.
    package let farm: FarmAccess?

    package init(
        catalog: any SwappableCatalog, environment: AgroPresentation.Environment, resources: URL,
        weather: @escaping @Sendable () throws -> CachedWeatherService, sprayRules: SprayRules = SprayRules(),
        feeds: @escaping @Sendable () throws -> [FeedItem] = { [] },
        cacheBytes: Int = 64 << 20,
        wordings: [any ErrorWording] = [CatalogErrorWording()], limits: WebLimits = WebLimits(),
        journal: (any JournalStore)? = nil, farm: FarmAccess? = nil
    ) async throws {
        self.wordings = wordings
        self.journal = journal
        self.farm = farm
        cache = ResponseCache(limit: cacheBytes)
        fragments = PageFragments(limit: limits.fragmentBytes)
        self.limits = limits
        bodyBytes = ByteBudget(limit: limits.bodyBytesInFlight)
        pool = WorkPool(workers: limits.workers, queueLimit: limits.queueLimit, queueTimeout: limits.queueTimeout)
        weatherLimiters = [
            RateLimiter(perClient: limits.weatherPerClient, total: limits.weatherTotal),
            RateLimiter(perClient: limits.weatherPerClientDaily, total: limits.weatherDaily, period: 86_400),
        ]
        self.catalog = catalog
        self.environment = environment
        self.weather = weather
        self.sprayRules = sprayRules
        // A feed cache of several MB is parsed once a minute at most, not on every request, and
        // by one request when the minute is up (the others wait for it); an entry is looked up in
        // that list (reading it from the feeds would parse every feed per request, for any id a
        // client sends).
        let entries = KeyedCache<OneValue, [FeedItem]>(lifetime: .seconds(60), computesOnce: true)
        self.feeds = { try entries.value(feeds) }
        self.feedItem = { id in try entries.value(feeds).first { $0.id == id } }
        localizable = environment.paths.localizable
        let templateDirectory = resources.appendingPathComponent("templates")
        do {
            templates = try HTMLEscaping.library(directory: templateDirectory)
        } catch {
            throw WebError.resources("the web templates in \(templateDirectory.path) cannot be read: \(error)")
        }
        staticFiles = try StaticFile.load(from: resources.appendingPathComponent("static"))
        guard templates.getTemplate(named: "layout") != nil else {
            throw WebError.resources("\(templateDirectory.path) has no layout.mustache")
        }
    }

    /// The weather service for one request: its upstream calls count against the client's
    /// and the server's rate limits (`WebLimits.weatherPerClient`, `weatherTotal`).
    func weatherService(for request: Request) throws -> CachedWeatherService {
        let base = try weather()
        let client = request.headers[HTTPField.Name(GuardedHTTP1Channel.peerHeader)!] ?? "unknown"
        return CachedWeatherService(
            upstream: BreakerWeatherService(
                upstream: LimitedWeatherService(upstream: base.upstream, limiters: weatherLimiters, client: client),
                breaker: weatherBreaker),
            cache: base.cache, offline: base.offline)
    }

    /// The languages the interface offers (Localizable/ has them all).
    package static let interfaceLocales = ["en", "ru", "kk"]

    /// The environment for a request in `locale`: same settings, that language's strings,
    /// the moment the request comes in.
    package func environment(locale: String) -> AgroPresentation.Environment {
        let now = Date()
        return AgroPresentation.Environment(
            environment, locale: locale, strings: localizer(for: locale),
            today: AgroPresentation.Environment.isoDate(now), now: now)
    }

    /// The interface strings of `request`'s language as `WebRequest` decides it (the cookie
    /// counts for pages, not under `/api/`): for the answers no page or document words.
    func strings(for request: Request) -> Localizer {
        let cookies = !request.uri.path.hasPrefix("/api/")
        return localizer(for: WebRequest(request: request, app: self).locale(cookies: cookies))
    }

    private func localizer(for locale: String) -> Localizer {
        localizers.value(locale) { Localizer(locale: locale, directory: localizable) }
    }

    /// The languages a request may ask for: the interface's and the catalog's.
    package var locales: [String] {
        var seen = Set<String>()
        return (Self.interfaceLocales + catalog.info.locales.locales).filter { seen.insert($0).inserted }
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

/// Bytes that may be held at once, reserved before and released after: the bodies in flight.
final class ByteBudget: Sendable {
    private let limit: Int
    private let held = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// Takes `bytes` of the budget; false, taking nothing, when they would pass its limit.
    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    func release(_ bytes: Int) { held.withLock { $0 -= bytes } }

    /// Bytes held now.
    var current: Int { held.withLock { $0 } }
}
