import Foundation

/// What `agro web` allows one client and all of them together, so that no request mix can take
/// the server down or spend its owner's weather key: docs/updates-and-security.md, "The web server".
/// Every value has an `agro web` option; the defaults suit one instance on a small machine.
package struct WebLimits: Sendable {
    /// Seconds a client has to send a whole request (head and body) once it has started one,
    /// and to start its first request after connecting.
    package var headerTimeout: Double = 10
    /// Seconds an idle kept-alive connection stays open between two requests.
    package var keepAliveTimeout: Double = 15
    /// Open connections at most; more are closed as soon as they are accepted.
    package var maxConnections = 1024
    /// Open connections of one client (its address) at most, so that one client cannot hold
    /// `maxConnections`; a trusted proxy's connections are not counted as one client's.
    package var connectionsPerClient = 32
    /// Requests of one client (its address, or behind a trusted proxy the address the proxy
    /// names) being answered at once; more are answered 429.
    package var requestsPerClient = 8
    /// Addresses of reverse proxies (nginx) whose `X-Forwarded-For` names the client: the
    /// client is the last address in it that is not a trusted proxy. Empty: the peer is the client.
    package var trustedProxies: [String] = []
    /// Seconds a request's body may take once its head is read. Bodies are read before the
    /// request takes a worker, so a slow body holds a connection, never a worker.
    package var bodyTimeout: Double = 10
    /// Bytes a second a body must keep up, averaged from its start, after its first 2 seconds.
    package var minimumBodyRate = 1024
    /// Bytes of request bodies being read or held, all clients together; a body that would
    /// pass it is answered 503 (part of the server's memory ceiling).
    package var bodyBytesInFlight = 32 << 20
    /// Seconds a call to an upstream service (OpenWeatherMap) may take; a page needing it
    /// answers with what it has after that.
    package var upstreamDeadline: Double = 3
    /// Requests whose catalog work or rendering runs at once (the work pool).
    package var workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests waiting for a worker; beyond them, 503 with Retry-After.
    package var queueLimit = 64
    /// Seconds a request may wait for a worker before it is answered 503.
    package var queueTimeout: Double = 10
    /// Seconds of catalog reads per request; past it the request answers 503.
    package var requestDeadline: Double = 5
    /// Longest request target (path and query), in bytes; longer ones answer 414.
    package var maxTargetLength = 4096
    /// Bytes of page fragments kept per catalog (pickers, the catalog's title: `PageFragments`).
    package var fragmentBytes = 16 << 20
    /// Most items one list answer may hold (`perPage`, and `all=true`).
    package var maxPerPage = 500
    /// Highest page number.
    package static let maxPage = 1_000_000
    /// Weather requests one client may make per minute: a fifth of `weatherTotal` (a page
    /// costs two, current and forecast, per place and language), so that no one or two clients
    /// can spend the minute's budget, and the daily budget bounds them all.
    package var weatherPerClient = 10
    /// Weather requests all clients together may make per minute (each may cost one upstream
    /// call with the server's key; OpenWeatherMap's free plan allows 60 a minute).
    package var weatherTotal = 50
    /// Weather requests all clients together may make per day: 30,000 a day is 930,000 in a
    /// month of 31 days, within the free plan's 1,000,000 a month.
    package var weatherDaily = 30_000
    /// Weather requests one client may make per day (a field's worth of places many times over).
    package var weatherPerClientDaily = 300

    package init() {}
}
