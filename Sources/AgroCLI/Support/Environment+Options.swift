import AgroDomain
import AgroPresentation
import AgroTerminal
import Foundation

package extension Environment {
    /// The environment of one command line: its global options, then AGRO_LANG and the locale
    /// variables, then config.json; the clock read once, now. When the language chosen for agro
    /// has no interface strings, says so in one line on stderr (see `warnIfTheLanguageIsUnknown`)
    /// unless `warns` is false.
    init(
        _ options: GlobalOptions, processEnvironment: [String: String] = ProcessVariables.read(),
        now: Date = Date(), warns: Bool = true
    ) throws {
        let paths = Paths(environment: processEnvironment)
        let configuration = try Configuration.load(path: paths.configFilePath)
        var locale = options.resolvedLocale(environment: processEnvironment)
        if options.lang == nil, processEnvironment["AGRO_LANG"] == nil, let configured = configuration.locale {
            locale = LocaleChain.normalize(configured)
        }
        self.init(
            paths: paths, configuration: configuration, locale: locale, format: options.format, output: .standardOutput,
            catalogPath: options.catalog ?? configuration.catalog, processEnvironment: processEnvironment,
            today: Environment.isoDate(now), now: now, stores: options.stores)
        if warns { warnIfTheLanguageIsUnknown(options) }
    }

    /// The environment of a command whose answer is no list, which refuses `--format csv`
    /// (`refuseCSV`) before it does anything; `command` is its path after `agro`.
    init(_ options: GlobalOptions, refusingCSVFor command: String) throws {
        try self.init(options)
        try refuseCSV(command)
    }

    /// The environment of one command line and its catalog, open until the exit: how every
    /// catalog query starts.
    static func withCatalog(_ options: GlobalOptions) throws -> (Environment, any Catalog) {
        let environment = try Environment(options)
        return (environment, try environment.openCatalogUntilExit())
    }

    /// `withCatalog(_:)`, and the id of the entity of `kind` that `text` (an id or a name in any
    /// catalog language) names in that catalog.
    static func withCatalog(
        _ options: GlobalOptions, resolving text: String, as kind: EntityKind
    ) throws -> (Environment, any Catalog, EntityID) {
        let (environment, catalog) = try withCatalog(options)
        return (environment, catalog, try catalog.resolve(text, kind: kind, locale: environment.locale).id)
    }

    /// One line on stderr, in the language the interface falls back to, when the language
    /// chosen for agro (`--lang`, `AGRO_LANG`, `lang` in config.json) has no interface strings;
    /// the command then runs as usual. The system's `LANG` says nothing about agro, so a
    /// language chosen only there falls back without a word.
    ///
    /// Checked here, where each command builds its environment anyway, rather than before the
    /// command runs: finding the global options of any command took a `Mirror` and a second
    /// environment, 2% of a catalog query's instructions (Benchmarks/startup/README.md).
    private func warnIfTheLanguageIsUnknown(_ options: GlobalOptions) {
        guard !locale.isEmpty else { return }
        let chosen =
            !(options.lang ?? "").isEmpty || !(processEnvironment["AGRO_LANG"] ?? "").isEmpty
            || configuration.locale != nil
        guard chosen, !strings.hasOwnStrings else { return }
        Terminal.standardError.line(
            "agro: " + TerminalText.oneLine(strings("language.unknown", String(locale.prefix(40)))))
    }
}
