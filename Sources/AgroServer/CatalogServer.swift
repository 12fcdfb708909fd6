import Foundation
import Hummingbird
import Logging

/// Serves a publishing directory (see `Publisher` in AgroUpdate) over HTTP.
///
/// Static files only, through Hummingbird's `FileMiddleware`: ETag and If-None-Match (an
/// unchanged manifest costs a 304), Range requests (interrupted downloads resume), content
/// types by extension (`application/json`, `application/gzip`), and Cache-Control: the
/// manifest must be revalidated, the content-named catalog files are immutable. Every request
/// goes to the access log. Because the directory is plain files, any static web server, CDN
/// or object store can serve it the same way.
public enum CatalogServer {
    /// The application, for callers that need to know when it listens and on which port
    /// (port 0 picks a free one).
    public static func makeApplication(
        directory: String, host: String, port: Int, logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: AccessLogMiddleware())
        router.add(
            middleware: FileMiddleware(
                directory,
                cacheControl: CacheControl([
                    (.applicationJson, [.noCache]),
                    (.applicationGzip, [.public, .maxAge(365 * 24 * 3600), .custom("immutable")]),
                ]),
                searchForIndexHtml: false,
                logger: logger))
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "agro"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// One log line per request, after the response: method, target, status, body length,
/// range asked for and time taken. `agro web` logs through it too.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: response.status.code, length: response.headers[.contentLength], start: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context: context, status: error.status.code, length: nil, start: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, length: String?, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.description),
            "status": .stringConvertible(status),
            "bytes": .string(length ?? "-"),
            "ms": .string(String(format: "%.1f", milliseconds)),
        ]
        if let range = request.headers[.range] { metadata["range"] = .string(range) }
        if let tag = request.headers[.ifNoneMatch] { metadata["if-none-match"] = .string(tag) }
        context.logger.info("access", metadata: metadata)
    }
}
