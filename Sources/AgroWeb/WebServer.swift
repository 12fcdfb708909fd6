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
/// framing, no referrer to other sites. `ProtocolMiddleware` adds them to every answer.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"
    }

    static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }
    static var frameOptions: HTTPField.Name { HTTPField.Name("X-Frame-Options")! }

    static func add(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = policy
        headers[.xContentTypeOptions] = "nosniff"
        headers[referrerPolicy] = "same-origin"
        headers[frameOptions] = "DENY"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response = try await next(request, context)
        Self.add(to: &response.headers)
        return response
    }
}
