import AgroPresentation
import AgroServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging

/// `agro web`: the catalog as a web app (server-rendered pages) and a JSON API, over one
/// `WebApp`. Stateless apart from the read-only catalog.
package enum WebServer {
    /// The application, listening on `host`:`port` (0 picks a free port, reported to
    /// `onRunning`).
    package static func makeApplication(
        app: WebApp, host: String, port: Int, logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // HEAD is answered wherever GET is, with GET's headers and no body.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: AccessLogMiddleware())
        // Outermost: what every answer needs (headers, 405, JSON errors, ETag, gzip), then the
        // bounded pool for the work (WebMiddleware.swift).
        router.add(middleware: ProtocolMiddleware(app: app))
        router.add(middleware: FairnessMiddleware(app: app))
        router.get("healthz") { _, _ in health(app) }
        APIRoutes.register(on: router, app: app)
        Pages.register(on: router, app: app)
        OfflineRoutes.register(on: router, app: app)
        app.routes.load(router)
        let limits = app.limits, connections = app.connections
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(
                    inner: HTTP1Channel(responder: responder, configuration: .init()), limits: limits, connections: connections)
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "agro"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// `/healthz` for load balancers: 200 with the catalog in use and the pool's load, without
    /// touching the catalog file or waiting for the pool.
    static func health(_ app: WebApp) -> Response {
        let info = app.catalog.info, load = app.pool.load
        let text =
            "{\"status\": \"ok\", \"catalog\": {\"identity\": \(quoted(info.identity)), \"version\": \(info.version)}, "
            + "\"working\": \(load.running), \"waiting\": \(load.waiting), \"connections\": \(app.connections.count)}\n"
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }
}

/// Headers on every answer: a Content-Security-Policy that allows only this server's own
/// scripts, styles and images (no inline script, no other origin), no MIME sniffing, no
/// framing, no referrer to other sites. `ProtocolMiddleware` adds them to every answer a route
/// makes, `RequestWatcher` to the answers made below the router (a malformed request's 400).
enum SecurityHeaders {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"

    /// Name and value of each header, as they go on the wire.
    static let fields: [(name: String, value: String)] = [
        ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    static func add(to headers: inout HTTPFields) {
        for field in fields {
            if let name = HTTPField.Name(field.name) { headers[name] = field.value }
        }
    }
}
