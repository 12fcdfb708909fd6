import Foundation

package extension Environment {
    /// This environment answering in another language with JSON output: what a server builds
    /// for each request from the one environment it started with, so a request's language
    /// never leaks into another's. `strings` should be kept per language by the caller: a
    /// `Localizer` reads its files once; `today` is the request's day (a server outlives days).
    init(_ base: Environment, locale: String, strings: Localizer, today: String, now: Date? = nil) {
        paths = base.paths
        configuration = base.configuration
        self.locale = locale
        self.strings = strings
        format = .json
        output = base.output
        catalogPath = base.catalogPath
        processEnvironment = base.processEnvironment
        self.today = today
        self.now = now ?? base.now
        assetTables = base.assetTables
        stores = base.stores
    }
}
