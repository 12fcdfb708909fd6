import AgroPresentation
import AgroUpdate
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The methods of every route, read from the router once all routes are registered, so
/// that a path known for other methods answers 405 with `Allow` (routes added later count too).
final class RouteTable: Sendable {
    private let routes = Mutex<[(components: [RouterPath.Element], method: HTTPRequest.Method)]>([])

    func load<Context>(_ router: Router<Context>) {
        let table = router.routes.map { (components: $0.path.components, method: $0.method) }
        routes.withLock { $0 = table }
    }

    /// The methods `path` answers (HEAD wherever GET), sorted; empty for an unknown path.
    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var methods = Set<String>()
        for route in routes.withLock({ $0 }) where Self.matches(route.components, segments) {
            methods.insert(route.method.rawValue)
            if route.method == .get { methods.insert("HEAD") }
        }
        if !methods.isEmpty { methods.insert("OPTIONS") }
        return methods.sorted()
    }

    private static func matches(_ components: [RouterPath.Element], _ segments: [Substring]) -> Bool {
        for (index, component) in components.enumerated() {
            if component == .recursiveWildcard { return index < segments.count }
            guard index < segments.count, component ~= segments[index] else { return false }
        }
        return components.count == segments.count
    }
}

/// HTTP by the book for every answer, whatever route made it (or none did):
///
/// - a request target over `maxTargetLength` bytes answers 414; a path starting with `//`
///   is redirected to the same path with one slash (never a protocol-relative link);
/// - a path known for other methods answers 405 with `Allow`; OPTIONS answers 204 with `Allow`;
/// - router errors become answers (they were thrown past the other middleware, without headers);
///   every error under `/api/` is JSON (`APIError`);
/// - 200 answers of pages, API, styles and scripts get an ETag (of their bytes) and
///   Cache-Control, a matching If-None-Match gets 304, and they are sent gzip-compressed when
///   the client accepts it;
/// - 503 and 429 carry Retry-After;
/// - every answer carries the security headers (`SecurityHeaders`).
struct ProtocolMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let app: WebApp

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response = try await answer(request, context: context, next: next)
        if request.uri.path.hasPrefix("/api/"), response.status.code >= 400,
            response.headers[.contentType]?.hasPrefix("application/json") != true
        {
            response = Self.jsonError(
                response.status, headers: response.headers, path: request.uri.path, strings: app.strings(for: request))
        }
        if response.status == .ok, request.method == .get || request.method == .head {
            response = try await Self.onTheWire(response, request: request)
        }
        if response.status == .serviceUnavailable || response.status == .tooManyRequests, response.headers[.retryAfter] == nil {
            response.headers[.retryAfter] = "5"
        }
        SecurityHeaders.add(to: &response.headers)
        return response
    }

    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        // Only the refusals below are worded: most requests go on to a route.
        func s(_ key: String, _ arguments: any CustomStringConvertible...) -> String {
            app.strings(for: request)(key, arguments: arguments)
        }
        if request.uri.description.utf8.count > app.limits.maxTargetLength {
            return Self.plain(.uriTooLong, s("web.http.uriTooLong", app.limits.maxTargetLength) + "\n")
        }
        // `/\` is `//` to a browser: a path starting with either is sent to its one-slash form,
        // with every leading slash and backslash dropped, so the Location is never off-site.
        if path.hasPrefix("//") || path.hasPrefix("/\\") {
            let single = "/" + path.drop(while: { $0 == "/" || $0 == "\\" })
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return Response(status: .movedPermanently, headers: [.location: single + query, .contentLength: "0"])
        }
        if request.method == .options {
            let allowed = app.routes.methods(for: path)
            guard !allowed.isEmpty else { return Self.plain(.notFound, s("web.http.notFound") + "\n") }
            return Response(status: .noContent, headers: [.allow: allowed.joined(separator: ", ")])
        }
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            if error.status == .notFound {
                let allowed = app.routes.methods(for: path)
                if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
                    var response = Self.plain(.methodNotAllowed, s("web.http.methodNotAllowed", request.method.rawValue) + "\n")
                    response.headers[.allow] = allowed.joined(separator: ", ")
                    return response
                }
                return Self.plain(.notFound, s("web.http.notFound") + "\n")
            }
            return Self.plain(error.status, error.status.reasonPhrase + "\n")
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// An HTTP-level error under `/api/` as the API's JSON error.
    static func jsonError(_ status: HTTPResponse.Status, headers: HTTPFields, path: String, strings s: Localizer) -> Response {
        let code: String
        switch status.code {
        case 404: code = "noSuchEndpoint"
        case 405: code = "methodNotAllowed"
        case 414: code = "uriTooLong"
        case 429: code = "tooManyRequests"
        case 503: code = "busy"
        default: code = "httpError"
        }
        let message = status.code == 404 ? s("web.http.noSuchEndpoint", path) : status.reasonPhrase.lowercased()
        var response = APIRoutes.failure(APIError(status: status.code, code: code, message: message))
        for name in [HTTPField.Name.allow, .retryAfter, .location] {
            if let value = headers[name] { response.headers[name] = value }
        }
        return response
    }

    // MARK: - On the wire

    /// Content types worth an ETag and compression.
    static func compressible(_ type: String) -> Bool {
        ["text/html", "application/json", "text/css", "text/javascript", "image/svg+xml", "application/manifest+json"]
            .contains { type.hasPrefix($0) }
    }

    /// Largest answer held in memory to be tagged and compressed.
    static let maximumTagged = 16 << 20
    /// Smaller answers go as they are: gzip's header would eat most of the gain.
    static let minimumCompressed = 1024

    static func onTheWire(_ response: Response, request: Request) async throws -> Response {
        guard let type = response.headers[.contentType], compressible(type),
            let length = response.body.contentLength, length <= maximumTagged,
            response.headers[.contentEncoding] == nil
        else { return response }
        var response = response
        let collector = BodyCollector()
        try await response.body.write(collector)
        let buffer = collector.buffer
        let tag = response.headers[.eTag] ?? Self.etag(buffer)
        let gzip = buffer.readableBytes >= minimumCompressed && accepts("gzip", request.headers[.acceptEncoding])
        let sentTag = gzip ? String(tag.dropLast()) + "-gzip\"" : tag
        var headers = response.headers
        headers[.eTag] = sentTag
        headers[.vary] =
            request.uri.path.hasPrefix("/api/") || type.hasPrefix("text/html")
            ? (type.hasPrefix("text/html") ? "Accept-Encoding, Accept-Language, Cookie" : "Accept-Encoding, Accept-Language")
            : "Accept-Encoding"
        if headers[.cacheControl] == nil {
            // Pages may carry the language cookie: revalidated each time (a 304 is cheap);
            // API answers change only with the catalog, news or weather: a minute is fine.
            headers[.cacheControl] = type.hasPrefix("text/html") ? "private, no-cache" : "public, max-age=60"
        }
        if let asked = request.headers[.ifNoneMatch],
            asked.split(separator: ",").contains(where: {
                let t = $0.trimmingCharacters(in: .whitespaces);
                return t == tag || t == sentTag || t == "W/" + sentTag || t == "*"
            })
        {
            headers[.contentLength] = nil
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        // The collected buffer is sent as it is unless compressed (no copy of the answer).
        var body = buffer
        // Level 6: most of level 9's gain for a third of its time.
        if gzip, let compressed = Gzip.compress(Array(buffer.readableBytesView), level: 6) {
            body = ByteBuffer(bytes: compressed)
            headers[.contentEncoding] = "gzip"
        } else {
            headers[.eTag] = tag
        }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: response.status, headers: headers, body: .init(byteBuffer: body))
    }

    /// A strong ETag of the bytes (FNV-1a 64, as the static files').
    static func etag(_ buffer: ByteBuffer) -> String {
        buffer.withUnsafeReadableBytes(etag)
    }

    private static func etag(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"" + String(hash, radix: 16) + "\""
    }

    /// Whether an Accept-Encoding header accepts `coding` (a q of 0 refuses it).
    static func accepts(_ coding: String, _ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.lowercased().split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first, name == coding || name == "*" else { continue }
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
        return false
    }
}

/// Collects a response body (known to be small) into memory: a body written as one buffer
/// (every answer made from a string or bytes) is kept as it is, without a copy.
final class BodyCollector: ResponseBodyWriter {
    private(set) var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        // Nothing collected yet: the buffer itself is kept.
        guard self.buffer.readableBytes > 0 else {
            self.buffer = buffer
            return
        }
        var more = buffer
        self.buffer.writeBuffer(&more)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Runs each request that does catalog work or rendering in the bounded `WorkPool`, within
/// its deadline for catalog reads; 503 with Retry-After when the pool's queue is full or the
/// wait too long. Static files, `/healthz`, the OpenAPI file and answers already in the cache
/// skip the pool: they cost next to nothing and must stay fast while it is busy.
///
/// Before a request takes a worker: it counts against its client's requests in flight (429
/// past `requestsPerClient`), and its body is read whole (within the bytes all bodies may
/// hold), so a body that never comes holds a connection, not a worker. The weather routes
/// run outside the pool: their upstream call waits on the network, bounded by
/// `upstreamDeadline`, and their catalog reads are a region and a nearest representative.
struct FairnessMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let app: WebApp

    /// The largest body read: a season plan, the only body the server takes.
    static let maximumBody = CatalogDocuments.maximumPlanBytes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        if isCheap(request) { return try await next(request, context) }
        let client = request.headers[HTTPField.Name(GuardedHTTP1Channel.peerHeader)!] ?? "unknown"
        guard app.requestsInFlight.enter(client: client, limit: Int.max, perClient: app.limits.requestsPerClient) else {
            return refuse(request, status: 429, code: "tooManyRequests", key: "web.http.tooManyAtOnce", retryAfter: 1)
        }
        defer { app.requestsInFlight.leave(client: client) }
        var request = request
        if let declared = Self.bodyLength(request) {
            let reserved = min(declared ?? Self.maximumBody, Self.maximumBody)
            guard app.bodyBytes.reserve(reserved) else {
                return refuse(request, status: 503, code: "busy", key: "web.http.busy", retryAfter: 5)
            }
            defer { app.bodyBytes.release(reserved) }
            do {
                _ = try await request.collectBody(upTo: Self.maximumBody)
            } catch {
                return failure(request, RequestError.bodyTooLarge(mebibytes: Self.maximumBody / 1_048_576))
            }
            return try await pooled(request, context: context, next: next)
        }
        if request.uri.path == "/weather" || request.uri.path == "/api/v1/weather" { return try await next(request, context) }
        return try await pooled(request, context: context, next: next)
    }

    /// The body's declared length (nil inside: chunked, length unknown); nil for no body.
    static func bodyLength(_ request: Request) -> Int?? {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) { return length > 0 ? .some(length) : nil }
        return request.headers[.transferEncoding] != nil ? .some(nil) : nil
    }

    /// The error answer for `error`, as the route would have given it: JSON under /api/, a page elsewhere.
    private func failure(_ request: Request, _ error: any Error) -> Response {
        if request.uri.path.hasPrefix("/api/") {
            return APIRoutes.failure(APIError(error, strings: app.strings(for: request), wordings: app.wordings))
        }
        let page = Pages.PageContext(request: request, app: app)
        return Pages.respond(page, Pages.errorPage(page, error))
    }

    private func refuse(_ request: Request, status: Int, code: String, key: String, retryAfter: Int) -> Response {
        let text = app.strings(for: request)(key)
        var response =
            request.uri.path.hasPrefix("/api/")
            ? APIRoutes.failure(APIError(status: status, code: code, message: text))
            : ProtocolMiddleware.plain(HTTPResponse.Status(code: status), text + "\n")
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }

    private func pooled(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await app.pool.run(deadline: app.limits.requestDeadline) { try await next(request, context) }
        } catch let refusal as WorkPool.Refusal {
            let key = refusal == .queueFull ? "web.http.busy" : "web.http.waitedTooLong"
            return refuse(request, status: 503, code: "busy", key: key, retryAfter: 5)
        }
    }

    private func isCheap(_ request: Request) -> Bool {
        let path = request.uri.path
        if path.hasPrefix("/static/") || path == "/healthz" || path == "/api/v1/openapi.json" { return true }
        guard path.hasPrefix("/api/v1/"), app.cache.isOn else { return false }
        let locale = WebRequest(request: request, app: app).locale(cookies: false)
        return app.cache.cached(ResponseCache.key(locale: locale, request: request), catalog: app.catalog) != nil
    }
}
