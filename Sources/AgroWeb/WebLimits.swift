import Foundation

/// What `agro web` allows one client and all of them together, so that no request mix can take
/// the server down or spend its owner's weather key: README "Security", "The web server".
/// Every value has an `agro web` option; the defaults suit one instance on a small machine.
package struct WebLimits: Sendable {
    /// Seconds a client has to send a whole request (head and body) once it has started one,
    /// and to start its first request after connecting.
    package var headerTimeout: Double = 10
    /// Seconds an idle kept-alive connection stays open between two requests.
    package var keepAliveTimeout: Double = 15
    /// Open connections at most; more are closed as soon as they are accepted.
    package var maxConnections = 1024
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
    /// Weather requests one client may make per minute.
    package var weatherPerClient = 20
    /// Weather requests all clients together may make per minute (each may cost one upstream
    /// call with the server's key; OpenWeatherMap's free plan allows 60 a minute).
    package var weatherTotal = 50

    package init() {}
}
