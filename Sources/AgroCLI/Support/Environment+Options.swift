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
