import AgroPresentation
import AgroWeb
import ArgumentParser

/// `agro web`'s limits for a public server (`WebLimits`; docs/updates-and-security.md, "The web server").
struct WebLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a client has to send a whole request once started (and the first after connecting).", valueName: "s"))
    var headerTimeout = WebLimits().headerTimeout
    @Option(
        name: .customLong("keep-alive-timeout"),
        help: ArgumentHelp(
            "Seconds an idle connection stays open between two requests.", valueName: "s"))
    var keepAliveTimeout = WebLimits().keepAliveTimeout
    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp("Seconds a request's body may take once its head is read.", valueName: "s"))
    var bodyTimeout = WebLimits().bodyTimeout
    @Option(
        name: .customLong("min-body-rate"),
        help: ArgumentHelp("Bytes a second a request's body must keep up after its first 2 seconds.", valueName: "B/s"))
    var minimumBodyRate = WebLimits().minimumBodyRate
    @Option(name: .customLong("max-connections"), help: "Open connections at most; more are refused.")
    var maxConnections = WebLimits().maxConnections
    @Option(name: .customLong("connections-per-client"), help: "Open connections of one client address at most.")
    var connectionsPerClient = WebLimits().connectionsPerClient
    @Option(name: .customLong("requests-per-client"), help: "Requests of one client answered at once; more get 429.")
    var requestsPerClient = WebLimits().requestsPerClient
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "Address of a reverse proxy whose X-Forwarded-For names the client (repeat for several).", valueName: "ip"))
    var trustedProxies: [String] = []
    @Option(
        name: .customLong("upstream-deadline"),
        help: ArgumentHelp("Seconds a call to OpenWeatherMap may take before a page answers without it.", valueName: "s"))
    var upstreamDeadline = WebLimits().upstreamDeadline
    @Option(help: "Requests doing catalog work or rendering at once (default: the cores, at least 2).")
    var workers = WebLimits().workers
    @Option(name: .customLong("queue-limit"), help: "Requests waiting for a worker; more are answered 503.")
    var queueLimit = WebLimits().queueLimit
    @Option(
        name: .customLong("request-deadline"),
        help: ArgumentHelp(
            "Seconds of catalog reads one request may use; past them it is answered 503.", valueName: "s"))
    var requestDeadline = WebLimits().requestDeadline
    @Option(name: .customLong("weather-per-client"), help: "Weather requests reaching OpenWeatherMap per client and minute.")
    var weatherPerClient = WebLimits().weatherPerClient
    @Option(name: .customLong("weather-total"), help: "Weather requests reaching OpenWeatherMap per minute in all.")
    var weatherTotal = WebLimits().weatherTotal
    @Option(name: .customLong("weather-per-client-daily"), help: "Weather requests reaching OpenWeatherMap per client and day.")
    var weatherPerClientDaily = WebLimits().weatherPerClientDaily
    @Option(name: .customLong("weather-daily"), help: "Weather requests reaching OpenWeatherMap per day in all.")
    var weatherDaily = WebLimits().weatherDaily

    func validate() throws {
        for (name, value) in [
            ("--header-timeout", headerTimeout), ("--keep-alive-timeout", keepAliveTimeout),
            ("--request-deadline", requestDeadline), ("--body-timeout", bodyTimeout), ("--upstream-deadline", upstreamDeadline),
        ] where !(value > 0 && value <= 3600) {
            throw UsageError(.secondsOutOfRange(option: name, value: value.plainText, maximum: 3600), command: "agro web")
        }
        for (name, value, low) in [
            ("--max-connections", maxConnections, 1), ("--workers", workers, 1),
            ("--queue-limit", queueLimit, 0), ("--weather-per-client", weatherPerClient, 0),
            ("--weather-total", weatherTotal, 0), ("--min-body-rate", minimumBodyRate, 0),
            ("--weather-per-client-daily", weatherPerClientDaily, 0), ("--weather-daily", weatherDaily, 0),
            ("--connections-per-client", connectionsPerClient, 1), ("--requests-per-client", requestsPerClient, 1),
        ] where !(low...1_000_000).contains(value) {
            throw UsageError(
                .outOfRange(option: name, value: String(value), minimum: low, maximum: 1_000_000), command: "agro web")
        }
    }

    var values: WebLimits {
        var limits = WebLimits()
        limits.headerTimeout = headerTimeout
        limits.keepAliveTimeout = keepAliveTimeout
        limits.maxConnections = maxConnections
        limits.workers = workers
        limits.queueLimit = queueLimit
        limits.requestDeadline = requestDeadline
        limits.weatherPerClient = weatherPerClient
        limits.weatherTotal = weatherTotal
        limits.weatherPerClientDaily = weatherPerClientDaily
        limits.weatherDaily = weatherDaily
        limits.bodyTimeout = bodyTimeout
        limits.minimumBodyRate = minimumBodyRate
        limits.connectionsPerClient = connectionsPerClient
        limits.requestsPerClient = requestsPerClient
        limits.trustedProxies = trustedProxies
        limits.upstreamDeadline = upstreamDeadline
        return limits
    }
}
