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
        router.add(middleware: ConfinementMiddleware(root: directory))
        router.add(middleware: RangeMiddleware(root: directory))
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
    /// The middleware; it keeps no state.
    public init() {}

    /// Passes the request on and logs one line when the response (or an error) comes back.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
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
            "path": .string(Self.escaped(request.uri.description)),
            "status": .stringConvertible(status),
            "bytes": .string(length ?? "-"),
            "ms": .string(Self.tenths(milliseconds)),
        ]
        if let range = request.headers[.range] { metadata["range"] = .string(Self.escaped(range)) }
        if let tag = request.headers[.ifNoneMatch] { metadata["if-none-match"] = .string(Self.escaped(tag)) }
        context.logger.info("access", metadata: metadata)
    }

    /// `value` with one decimal, as `%.1f` writes it: `String(format:)` goes through
    /// Foundation's formatter, a visible cost of a cheap request's log line.
    static func tenths(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int((value * 10).rounded(.toNearestOrEven))
        return String(tenths / 10) + "." + String(tenths % 10)
    }

    /// A client's text as it may go into a log line: printable ASCII as is (backslash
    /// doubled), everything else as `\u{...}`, so a request cannot forge log lines or send
    /// escape sequences to the terminal reading the log.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(1024) {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x20...0x7E: result.unicodeScalars.append(scalar)
            default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }
}

/// Serves only what lies inside the directory: no dotfile or dot-directory (a `.key` left
/// there, `.git`), and no symbolic link leading outside it. Both answer 404, as if absent.
struct ConfinementMiddleware<Context: RequestContext>: RouterMiddleware {
    let root: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        // `//catalogs` would be answered with a redirect to `//catalogs/`: a protocol-relative
        // link to the host "catalogs". Such paths do not exist here.
        guard !request.uri.path.hasPrefix("//"), Self.allows(request.uri.path, root: root) else {
            return Response(status: .notFound)
        }
        return try await next(request, context)
    }

    /// Whether `path` (a request path, percent-encoded) names a file inside `root`.
    static func allows(_ path: String, root: String) -> Bool {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0") else { return false }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains(where: { $0.hasPrefix(".") }) else { return false }
        guard let realRoot = realPath(root) else { return false }
        // A missing file is FileMiddleware's 404; a path that resolves must stay under the root.
        let candidate = realRoot + "/" + components.joined(separator: "/")
        guard FileManager.default.fileExists(atPath: candidate) else { return true }
        guard let real = realPath(candidate) else { return false }
        return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Byte ranges as RFC 9110 (section 14) has them, before `FileMiddleware` sees the request:
/// a suffix range (`bytes=-500`, the last 500 bytes) becomes the explicit range it means;
/// a range starting at or past the end answers 416 with `Content-Range: bytes */SIZE`; several
/// ranges or a malformed header are ignored (the whole file, 200), as the RFC allows.
struct RangeMiddleware<Context: RequestContext>: RouterMiddleware {
    let root: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.method == .get, let header = request.headers[.range] else { return try await next(request, context) }
        let path = root + "/" + (request.uri.path.removingPercentEncoding ?? request.uri.path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue
        else { return try await next(request, context) }
        var head = request.head
        switch Self.resolve(header, size: size) {
        case let .range(range): head.headerFields[.range] = "bytes=\(range.lowerBound)-\(range.upperBound)"
        case .ignore: head.headerFields[.range] = nil
        case .unsatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .contentLength: "0"])
        }
        return try await next(Request(head: head, body: request.body), context)
    }

    enum Resolution: Equatable {
        case range(ClosedRange<Int>)
        case ignore, unsatisfiable
    }

    /// What `header` asks of a file of `size` bytes.
    static func resolve(_ header: String, size: Int) -> Resolution {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return .ignore }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .ignore }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        let digits = { (text: Substring) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if first.isEmpty {
            // bytes=-N: the last N bytes (all of them when N is larger than the file).
            guard digits(last), let count = Int(last) else { return .ignore }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - count)...(size - 1))
        }
        guard digits(first), let start = Int(first) else { return .ignore }
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard digits(last), let asked = Int(last), asked >= start else { return .ignore }
            end = min(asked, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .range(start...end)
    }
}
