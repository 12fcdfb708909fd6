import AgroCLI
import AgroDomain
import AgroHTML
import AgroNews
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

struct NewsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news",
        abstract: "News and articles from the catalog and from configured RSS/Atom feeds.",
        discussion: """
            Feeds are listed in $XDG_CONFIG_HOME/agro/feeds.json (`agro news feeds add URL`), fetched by \
            `agro news refresh` and kept in $XDG_CACHE_HOME/agro/feeds, so the list works offline.
            """,
        subcommands: [NewsListCommand.self, NewsShowCommand.self, NewsRefreshCommand.self, NewsFeedsCommand.self],
        defaultSubcommand: NewsListCommand.self)
}

extension Environment {
    /// The configured feeds, their cache and a fetcher.
    var feeds: NewsFeeds {
        NewsFeeds(
            config: FeedConfig(file: paths.config.appendingPathComponent("feeds.json")),
            cache: FeedCache(directory: paths.cache.appendingPathComponent("feeds")),
            fetcher: FeedFetcher())
    }

    /// Options for rendering an article to this output.
    func renderOptions(width: Int?, base: String?) -> HTMLRenderOptions {
        .terminal(width: width, base: base, fileDescriptor: output.fileDescriptor, environment: processEnvironment)
    }
}

struct NewsListCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List news, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions
    @Option(help: "news or article.") var kind: NewsKind?

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalog()
        // Feed entries by id, newest of a repeated id (the list is newest first): opening one
        // from the pager needs no second reading of the feeds.
        var feedItems: [String: FeedItem] = [:]
        let summaries = try catalog.news(kind: kind, page: .all, locale: environment.locale).items
        var entries: [FeedItem] = []
        if kind != .article {
            let cached = try environment.feeds.cachedItems()
            // A broken or missing feed is reported and skipped; the others still show.
            for problem in cached.problems {
                Terminal.standardError.line(
                    "agro: warning: " + Terminal.oneLine(ServiceErrorWording.text(problem.errorCase, environment.strings)))
            }
            entries = cached.items
            feedItems = Dictionary(cached.items.map { ($0.id, $0) }, uniquingKeysWith: { newest, _ in newest })
        }
        let items = NewsListItem.merged(catalog: summaries, feeds: entries)
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.date")) { s.date(String($0.date.prefix(10))) },
                Column(header: s("column.title")) { $0.name },
                Column(header: s("column.source")) { $0.source == "catalog" ? s("news.catalog") : $0.source },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { Page(slicing: items, $0) },
            open: {
                try NewsShowCommand.show(
                    id: $0.id, catalog: catalog, environment: environment, width: nil, feedItem: { feedItems[$0] })
            }
        ).show(pages)
    }
}

struct NewsShowCommand: AgroCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one news item or article.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Item id, from `agro news`.") var id: String
    @Option(help: "Width in columns (default: the terminal's, else 80).") var width: Int?

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "news show")
        try Self.show(id: id, catalog: try environment.openCatalog(), environment: environment, width: width)
    }

    /// Shows the catalog's item `id`, else the feed entry `feedItem` finds (by default, in the
    /// feeds' cache).
    static func show(
        id: String, catalog: some Catalog, environment: Environment, width: Int?,
        feedItem: (String) throws -> FeedItem? = { _ in nil }
    ) throws {
        let item: NewsItem
        if let found = try catalog.newsItem(id: id, locale: environment.locale) {
            item = found
        } else if let entry = try feedItem(id) ?? environment.feeds.item(id: id) {
            item = entry.newsItem()
        } else {
            throw CatalogError.notFound(kind: .news, id: id)
        }
        var options = environment.renderOptions(width: width, base: item.source)
        switch environment.format {
        case .json:
            options.ansiStyles = false
            try environment.printJSON(
                NewsItemDocument(item: item, text: HTMLRenderer.render(html: item.bodyHTML, options: options)))
        case .table, .csv:
            // csv is refused by `news show`; the list's pager opens items as cards.
            environment.print(DisplayWidth.wrap(item.title, width: options.width).map(environment.bold))
            environment.print(
                [environment.strings.date(String(item.date.prefix(10))), item.source].compactMap { $0 }.joined(separator: " · "))
            environment.print()
            // The renderer removes control characters itself and adds only its own styles.
            environment.output.write(HTMLRenderer.render(html: item.bodyHTML, options: options))
        }
    }
}

struct NewsRefreshCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch the configured feeds.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let environment = try Environment(global, refusingCSVFor: "news refresh")
        let s = environment.strings
        let reports = try await environment.feeds.refresh()
        if reports.isEmpty { environment.print(s("news.noFeeds")) }
        for report in reports {
            switch report.outcome {
            case let .updated(items): environment.print(s.plural("news.updated", items, report.url.absoluteString))
            case .notModified: environment.print(s("news.notModified", report.url.absoluteString))
            case let .failed(error):
                Terminal.standardError.line("agro: warning: " + Terminal.oneLine(ServiceErrorWording.text(error.errorCase, s)))
            }
        }
    }
}

struct NewsFeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds", abstract: "List, add or remove feed URLs.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "List the configured feeds.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            let environment = try Environment(global)
            // One URL a line; as CSV with a header, so it reads like every other list.
            if environment.format == .csv { environment.output.write(CSV.line(["url"]) + "\n") }
            for url in try environment.feeds.config.urls() {
                environment.format == .csv
                    ? environment.output.write(CSV.line([url.absoluteString]) + "\n") : environment.print(url.absoluteString)
            }
        }
    }

    struct Add: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "Add a feed URL (http or https).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Feed URL.") var url: String
        func run() throws {
            let environment = try Environment(global, refusingCSVFor: "news feeds add")
            let added = try environment.feeds.config.add(url)
            environment.print(environment.strings(added ? "news.feedAdded" : "news.feedKnown", url))
        }
    }

    struct Remove: AgroCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a feed URL.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Feed URL.") var url: String
        func run() throws {
            let environment = try Environment(global, refusingCSVFor: "news feeds remove")
            let removed = try environment.feeds.config.remove(url)
            environment.print(environment.strings(removed ? "news.feedRemoved" : "news.feedUnknown", url))
        }
    }
}

extension NewsKind: ExpressibleByArgument {}
