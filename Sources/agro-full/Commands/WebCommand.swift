import AgroAccounts
import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import AgroUpdateClient
import AgroWeather
import AgroWeb
import ArgumentParser
import Foundation
import Logging

/// `agro web`: the catalog as a web app and a JSON API (see `AgroWeb`).
struct WebCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the catalog as a web app and a JSON API (/api/v1/...).",
        discussion: """
            Prints the address it listens on once ready (useful with --port 0), logs one line per request on \
            stderr and stops on SIGINT or SIGTERM. Answers from the catalog in use; a catalog installed by \
            `agro db update` (or fetched by --watch-updates from the configured update server) is picked up \
            between two requests. Weather needs OPENWEATHER_API_KEY (or weather.apiKey in config.json) on the \
            server; the key never leaves it.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var update: UpdateOptions

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8080
    @Flag(name: .customLong("watch-updates"), help: "Check the update server periodically and install newer catalogs.")
    var watchUpdates = false
    @Option(
        name: .customLong("update-interval"),
        help: ArgumentHelp("With --watch-updates: seconds between checks.", valueName: "seconds"))
    var updateInterval = 600
    @Option(
        name: .customLong("cache-mb"),
        help: ArgumentHelp(
            "Megabytes of JSON answers kept in memory per catalog (0: none).", valueName: "MB"))
    var cacheMB = 64
    @OptionGroup var limits: WebLimitOptions
    @Flag(help: "Serve this device's field journal from the user database, without accounts (loopback addresses only).")
    var journal = false
    @Flag(
        name: .customLong("farm-journal"),
        help: "Serve the farms' shared journal with accounts and sync (from --journal-db, default journal.sqlite).")
    var farmJournal = false
    @OptionGroup var farmStore: FarmStoreOptions

    func validate() throws {
        let command = "agro web"
        if !(0...65535).contains(port) {
            throw UsageError(.outOfRange(option: "--port", value: String(port), minimum: 0, maximum: 65535), command: command)
        }
        if updateInterval < 1 {
            throw UsageError(
                .belowMinimum(option: "--update-interval", value: String(updateInterval), minimum: 1), command: command)
        }
        // Without accounts, anyone who reaches the server could read and write the journal.
        if journal, !["127.0.0.1", "::1", "localhost"].contains(host) {
            throw UsageError(
                .invalidValue(option: "--host", value: host, valid: ["127.0.0.1", "::1", "localhost"]), command: command)
        }
        if journal, farmJournal || farmStore.journalDB != nil {
            throw UsageError(.invalidValue(option: "--journal", value: "--farm-journal", valid: []), command: command)
        }
        if !(0...65536).contains(cacheMB) {
            throw UsageError(
                .outOfRange(option: "--cache-mb", value: String(cacheMB), minimum: 0, maximum: 65536), command: command)
        }
    }

    func run() async throws {
        let environment = try Environment(global)
        // Requests run in parallel: several connections to the catalog.
        let readers = max(4, ProcessInfo.processInfo.activeProcessorCount)
        let store = environment.catalogStore
        let live: LiveCatalog
        if let path = environment.catalogPath {
            live = LiveCatalog(try SQLiteCatalog(path: path, maximumReaders: readers), maximumReaders: readers)
        } else {
            let (opened, selection) = try LiveCatalog.open(store, maximumReaders: readers)
            if let warning = selection.warning { Terminal.standardError.line("agro: warning: " + warning) }
            live = opened
            // `agro db update` in another process (or --watch-updates) switches current.sqlite.
            _ = live.watch(store)
        }
        // Connections opened, statements prepared and the uses kept in memory before the first
        // request, as after a swap.
        LiveCatalog.warm(live.catalog, readers: readers)
        guard let resources = environment.paths.assets?.appendingPathComponent("web") else {
            throw WebError.resources("Assets/web not found beside the program or in AGRO_HOME")
        }
        let settings = try WeatherSettings.load(from: environment.paths.configFile)
        let apiKey = settings?.apiKey
        let feeds = environment.feeds
        let upstreamDeadline = limits.values.upstreamDeadline
        let app = try await WebApp(
            catalog: live, environment: environment, resources: resources,
            weather: {
                try WeatherCommand.service(environment: environment, apiKey: apiKey, offline: false, timeout: upstreamDeadline)
            },
            sprayRules: settings?.spray ?? SprayRules(),
            feeds: { try feeds.cachedItems().items }, cacheBytes: cacheMB << 20,
            wordings: AgroFull.wordings, limits: limits.values, journal: journal ? try environment.openUserStore() : nil,
            farm: farmJournal || farmStore.journalDB != nil
                ? FarmAccess(store: try farmStore.open(environment), hasher: FarmStoreOptions.hasher) : nil)

        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "agro.web")
        if watchUpdates {
            let client = UpdateClient(configuration: try environment.updateConfiguration(update), store: store)
            _ = Self.watchUpdates(client: client, store: store, live: live, every: .seconds(updateInterval), logger: logger)
        }
        Self.pruneWeatherCache(
            WeatherCache(directory: environment.paths.cache.appendingPathComponent("weather", isDirectory: true)),
            every: .seconds(600))
        Self.returnFreedMemory(every: .seconds(30))
        let host = self.host, strings = environment.strings
        let application = WebServer.makeApplication(app: app, host: host, port: port, logger: logger) { port in
            let shown = host.contains(":") ? "[\(host)]" : host
            Terminal.standardOutput.line(strings("web.listening", "http://\(shown):\(port)/"))
        }
        try await application.runService()
    }

    /// The weather answers kept on disk, pruned every `interval`: a day old at most (an older
    /// one is no help even when the service fails) and 64 MB in all, the oldest first.
    @discardableResult
    static func pruneWeatherCache(_ cache: WeatherCache, every interval: Duration) -> Task<Void, Never> {
        Task.detached(priority: .background) {
            while !Task.isCancelled {
                cache.prune(maximumAge: 86_400, maximumBytes: 64 << 20)
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Hands memory freed after a burst (unfinished heads, large bodies and answers) back to
    /// the system every `interval`: glibc keeps freed pages in its arenas otherwise, and a
    /// server that peaked at 239 MB stayed there (Benchmarks/web/README.md, attack 6).
    @discardableResult
    static func returnFreedMemory(every interval: Duration) -> Task<Void, Never> {
        // glibc's malloc_trim, which Swift's Glibc module does not declare; absent elsewhere.
        typealias Trim = @convention(c) (Int) -> Int32
        let trim = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
        return Task.detached(priority: .background) {
            while !Task.isCancelled, let trim {
                try? await Task.sleep(for: interval)
                _ = trim(0)
            }
        }
    }

    /// Checks the update server every `interval`; a newer catalog is verified, installed and
    /// made current between two requests. A failed check is logged and leaves the catalog as it was.
    static func watchUpdates(
        client: UpdateClient, store: CatalogStore, live: LiveCatalog, every interval: Duration, logger: Logger
    ) -> Task<Void, Never> {
        Task.detached {
            while !Task.isCancelled {
                do {
                    if case let .installed(_, to) = try await client.update() {
                        _ = try live.reload(from: store)
                        logger.info(
                            "catalog updated",
                            metadata: ["identity": .string(to.identity), "version": .stringConvertible(to.version)])
                    }
                } catch let error as any UserFacingError {
                    logger.warning("update check failed", metadata: ["reason": .string(error.message)])
                } catch {
                    logger.warning("update check failed", metadata: ["reason": .string(String(describing: error))])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
