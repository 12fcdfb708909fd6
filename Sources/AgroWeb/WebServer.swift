import AgroServer
import Foundation
import HTTPTypes
import Hummingbird
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
        let router = Router()
        router.add(middleware: AccessLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        APIRoutes.register(on: router, app: app)
        Pages.register(on: router, app: app)
        OfflineRoutes.register(on: router, app: app)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "agro"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// Headers on every answer: a Content-Security-Policy that allows only this server's own
/// scripts, styles and images (no inline script, no other origin), no MIME sniffing, no
/// framing, no referrer to other sites.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"
    }

    static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }
    static var frameOptions: HTTPField.Name { HTTPField.Name("X-Frame-Options")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "same-origin"
        response.headers[Self.frameOptions] = "DENY"
        return response
    }
}
