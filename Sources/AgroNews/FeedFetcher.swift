import AgroHTTP
import Foundation

/// The answer to a (conditional) feed request.
public enum FetchOutcome: Sendable, Equatable {
    /// A new body, with the validators to send next time.
    case fetched(body: Data, etag: String?, lastModified: String?)
    /// HTTP 304: the cached body is current.
    case notModified
}

/// Fetches feeds over HTTP(S) through AgroHTTP, sending If-None-Match / If-Modified-Since
/// when a cached copy exists. The size cap applies to the decoded body while it arrives, so
/// neither a huge nor a gzip-bombed answer is ever held whole.
public struct FeedFetcher: Sendable {
    let client: HTTPClient
    let timeout: TimeInterval
    let maxBytes: Int

    /// - Parameters:
    ///   - client: the HTTP layer.
    ///   - timeout: seconds one feed request may take in all (and may stay silent).
    ///   - maxBytes: larger bodies are refused (a feed is not a download).
    public init(client: HTTPClient = HTTPClient(), timeout: TimeInterval = 20, maxBytes: Int = 20 << 20) {
        self.client = client
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// Fetches `url`; `cached` supplies the validators of the copy in the cache.
    /// - Throws: `FeedError.unreachable` or `.httpStatus`.
    public func fetch(_ url: URL, cached: FeedCacheEntry?) async throws -> FetchOutcome {
        var request = HTTPRequest(
            url: url, maxBodyBytes: Int64(max(0, maxBytes)), deadline: timeout, userAgent: "agro (feed reader)")
        request.setHeader("Accept", "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5")
        if let etag = cached?.etag { request.setHeader("If-None-Match", etag) }
        if let modified = cached?.lastModified { request.setHeader("If-Modified-Since", modified) }
        let sink = FeedSink()
        let response: HTTPResponse
        do {
            response = try await client.perform(request, into: sink)
        } catch let error as HTTPError {
            throw FeedError.unreachable(url: url.absoluteString, reason: Self.describe(error))
        }
        if response.status == 304 { return .notModified }
        guard (200..<300).contains(response.status) else {
            throw FeedError.httpStatus(url: url.absoluteString, status: response.status)
        }
        return .fetched(body: sink.data, etag: response.value(for: "ETag"), lastModified: response.value(for: "Last-Modified"))
    }

    static func describe(_ error: HTTPError) -> String {
        switch error {
        case .timedOut, .stalled: return "timed out"
        case let .tooLarge(limit): return "body larger than \(limit) bytes"
        default: return error.reason
        }
    }
}

/// Reads the body of a 2xx only; error pages are not kept.
private final class FeedSink: HTTPBodySink {
    private(set) var data = Data()
    func begin(_ response: HTTPResponse) throws -> Bool { (200..<300).contains(response.status) }
    func write(_ bytes: UnsafeRawBufferPointer) throws { data.append(contentsOf: bytes) }
}
