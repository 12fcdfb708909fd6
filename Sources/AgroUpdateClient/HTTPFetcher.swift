import AgroUpdate
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answer to a manifest request.
enum ManifestResponse {
    case fetched(Data, etag: String?)
    case notModified
}

/// HTTP with the limits an updater needs, on URLSession: every body is streamed through a
/// delegate and cut off at a declared size, downloads resume with Range, and no response is
/// read from or stored in a cache.
final class HTTPFetcher: Sendable {
    let timeout: TimeInterval
    let allowInsecure: Bool

    init(timeout: TimeInterval, allowInsecure: Bool) {
        self.timeout = timeout
        self.allowInsecure = allowInsecure
    }

    private func makeSession(delegate: BodyStream) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Idle time between bytes; a server that stops talking fails after this.
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// GETs the manifest, conditionally on `etag`.
    func fetchManifest(_ url: URL, etag: String?) async throws -> ManifestResponse {
        var request = URLRequest(url: url)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let collector = DataCollector()
        let result: Result
        do {
            result = try await run(request, offset: 0, limit: Int64(Manifest.maximumSize), sink: collector)
        } catch UpdateError.tooLarge {
            throw UpdateError.manifestInvalid("larger than \(Manifest.maximumSize) bytes")
        }
        switch result.status {
        case 304: return .notModified
        case 200:
            return .fetched(collector.data, etag: result.etag)
        default: throw UpdateError.httpStatus(url: url.absoluteString, status: result.status)
        }
    }

    /// Downloads `url` into the file at `path`, appending to what is already there (resume),
    /// and never writing past `size` bytes in all.
    ///
    /// - Throws: `.truncated` when the connection ends early (the bytes so far are kept for
    ///   the next attempt), `.tooLarge` when the server has more to send than `size`.
    func download(_ url: URL, to path: String, size: Int64, progress: @escaping @Sendable (Int64) -> Void) async throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let existing = FileSystem.size(path) ?? 0
        if existing > size {
            try? FileManager.default.removeItem(atPath: path)
            return try await download(url, to: path, size: size, progress: progress)
        }
        if existing == size { return }
        var request = URLRequest(url: url)
        if existing > 0 { request.setValue("bytes=\(existing)-", forHTTPHeaderField: "Range") }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw UpdateError.io(path: path, reason: "cannot open for writing")
        }
        defer { try? handle.close() }
        let writer = FileWriter(handle: handle, progress: progress)
        let result: Result
        do {
            result = try await run(request, offset: existing, limit: size, sink: writer)
        } catch let error as UpdateError {
            try? handle.synchronize()
            let received = FileSystem.size(path) ?? 0
            let interrupted = switch error {
            case .unreachable, .timedOut: true
            default: false
            }
            // The body started and stopped: what arrived is kept for the next attempt.
            if interrupted, received > existing { throw UpdateError.truncated(expected: size, received: received) }
            throw error
        }
        try handle.synchronize()
        guard result.status == 200 || result.status == 206 else {
            throw UpdateError.httpStatus(url: url.absoluteString, status: result.status)
        }
        let received = FileSystem.size(path) ?? 0
        if received < size { throw UpdateError.truncated(expected: size, received: received) }
    }

    struct Result {
        var status: Int
        var etag: String?
    }

    private func run(_ request: URLRequest, offset: Int64, limit: Int64, sink: any BodySink) async throws -> Result {
        let stream = BodyStream(offset: offset, limit: limit, sink: sink, allowInsecure: allowInsecure)
        let session = makeSession(delegate: stream)
        defer { session.finishTasksAndInvalidate() }
        let url = request.url?.absoluteString ?? ""
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                stream.start(session.dataTask(with: request), continuation: continuation, url: url)
            }
        } onCancel: {
            stream.cancel()
        }
    }
}

/// Where a response body goes.
protocol BodySink: AnyObject {
    /// Called when a 200 arrives for a request that asked for a range: start over.
    func restart() throws
    /// Writes the next piece; `total` is the body's length with it, as `BodyStream` counts.
    func write(_ data: Data, total: Int64) throws
}

final class DataCollector: BodySink {
    private(set) var data = Data()
    func restart() { data = Data() }
    func write(_ chunk: Data, total: Int64) { data.append(chunk) }
}

/// Appends to a file and reports progress; the count is `BodyStream`'s, not kept twice.
final class FileWriter: BodySink {
    let handle: FileHandle
    let progress: @Sendable (Int64) -> Void

    init(handle: FileHandle, progress: @escaping @Sendable (Int64) -> Void) {
        self.handle = handle
        self.progress = progress
        // Appending: writes go after what an earlier attempt left.
        progress((try? handle.seekToEnd()).map(Int64.init) ?? 0)
    }

    func restart() throws {
        try handle.truncate(atOffset: 0)
        progress(0)
    }

    func write(_ data: Data, total: Int64) throws {
        try handle.write(contentsOf: data)
        progress(total)
    }
}

/// The delegate of one request: checks the status and the declared length, streams the
/// body to its sink and cancels the request the moment the body would pass the limit.
///
/// URLSession calls it on its serial delegate queue only; the lock guards `cancel()` and
/// the single resumption of the continuation.
final class BodyStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int64
    private var received: Int64
    private let sink: any BodySink
    private let allowInsecure: Bool
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<HTTPFetcher.Result, any Error>?
    private var status = 0
    private var etag: String?
    private var failure: (any Error)?
    private var url = ""
    /// Set when the body of a status other than 200 or 206 was refused on purpose.
    private var refusedBody = false

    init(offset: Int64, limit: Int64, sink: any BodySink, allowInsecure: Bool) {
        received = offset
        self.limit = limit
        self.sink = sink
        self.allowInsecure = allowInsecure
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<HTTPFetcher.Result, any Error>, url: String) {
        lock.withLock {
            self.task = task
            self.continuation = continuation
            self.url = url
        }
        task.resume()
    }

    func cancel() {
        lock.withLock { task }?.cancel()
    }

    private func fail(_ error: any Error) {
        lock.withLock { if failure == nil { failure = error } }
        task?.cancel()
    }

    private func finish(_ result: Swift.Result<HTTPFetcher.Result, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<HTTPFetcher.Result, any Error>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(UpdateError.unreachable(url: url, reason: "not an HTTP response"))
            return completionHandler(.cancel)
        }
        status = http.statusCode
        etag = http.value(forHTTPHeaderField: "ETag")
        let length = http.expectedContentLength
        switch status {
        case 206:
            // The server must continue exactly where the file stops.
            let range = http.value(forHTTPHeaderField: "Content-Range") ?? ""
            guard range.hasPrefix("bytes \(received)-") else {
                fail(UpdateError.unreachable(url: url, reason: "the server resumed at the wrong place (\(range))"))
                return completionHandler(.cancel)
            }
        case 200:
            if received > 0 {
                // The server ignored Range: the whole file comes again.
                do { try sink.restart() } catch {
                    fail(error)
                    return completionHandler(.cancel)
                }
                received = 0
            }
        default:
            // Error pages and 304s are not read.
            lock.withLock { refusedBody = true }
            return completionHandler(.cancel)
        }
        if length > 0, received + length > limit {
            fail(UpdateError.tooLarge(declared: limit))
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard lock.withLock({ failure == nil }) else { return }
        let room = limit - received
        // Write what fits, then stop: never a byte past the declared size.
        let accepted = Int64(data.count) <= room ? data : data.prefix(Int(max(room, 0)))
        do {
            if !accepted.isEmpty { try sink.write(accepted, total: received + Int64(accepted.count)) }
        } catch {
            return fail(error)
        }
        received += Int64(accepted.count)
        if accepted.count < data.count { fail(UpdateError.tooLarge(declared: limit)) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // A redirect may not downgrade to plain http off loopback.
        if let target = request.url, (try? UpdateConfiguration.checkScheme(target, allowInsecure: allowInsecure)) == nil {
            fail(UpdateError.insecureServer(url: target.absoluteString))
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let failure = lock.withLock({ failure }) {
            return finish(.failure(failure))
        }
        if lock.withLock({ refusedBody }) {
            return finish(.success(HTTPFetcher.Result(status: status, etag: etag)))
        }
        if let error {
            return finish(.failure(Self.describe(error, url: url)))
        }
        finish(.success(HTTPFetcher.Result(status: status, etag: etag)))
    }

    static func describe(_ error: any Error, url: String) -> UpdateError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return .timedOut(url: url)
            case NSURLErrorCannotConnectToHost: return .unreachable(url: url, reason: "connection refused")
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return .unreachable(url: url, reason: "unknown host")
            case NSURLErrorNetworkConnectionLost: return .unreachable(url: url, reason: "connection lost")
            case NSURLErrorCancelled: return .unreachable(url: url, reason: "cancelled")
            default: break
            }
        }
        return .unreachable(url: url, reason: nsError.localizedDescription)
    }
}
