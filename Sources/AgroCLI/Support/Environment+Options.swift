import AgroDomain
import AgroPresentation
import Foundation

package extension Environment {
    /// The environment of one command line: its global options, then AGRO_LANG and the locale
    /// variables, then config.json; the clock read once, now.
    init(_ options: GlobalOptions, processEnvironment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date())
        throws
    {
        let paths = Paths(environment: processEnvironment)
        let configuration = try Configuration.load(from: paths.configFile)
        var locale = options.resolvedLocale(environment: processEnvironment)
        if options.lang == nil, processEnvironment["AGRO_LANG"] == nil, let configured = configuration.locale {
            locale = LocaleChain.normalize(configured)
        }
        self.init(
            paths: paths, configuration: configuration, locale: locale, format: options.format, output: .standardOutput,
            catalogPath: options.catalog ?? configuration.catalog, processEnvironment: processEnvironment,
            today: Environment.isoDate(now))
    }
}
