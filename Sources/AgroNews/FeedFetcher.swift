import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answer to a (conditional) feed request.
public enum FetchOutcome: Sendable, Equatable {
    /// A new body, with the validators to send next time.
    case fetched(body: Data, etag: String?, lastModified: String?)
    /// HTTP 304: the cached body is current.
    case notModified
}

/// Fetches feeds over HTTP(S) with URLSession, sending If-None-Match / If-Modified-Since
/// when a cached copy exists.
public struct FeedFetcher: Sendable {
    let session: URLSession
    let timeout: TimeInterval
    let maxBytes: Int

    /// - Parameters:
    ///   - session: the session to use; the caller owns its configuration (proxies, caching).
    ///   - timeout: per-request timeout in seconds.
    ///   - maxBytes: larger bodies are refused (a feed is not a download).
    public init(session: URLSession, timeout: TimeInterval = 20, maxBytes: Int = 20 << 20) {
        self.session = session
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// Fetches `url`; `cached` supplies the validators of the copy in the cache.
    /// - Throws: `FeedError.unreachable` or `.httpStatus`.
    public func fetch(_ url: URL, cached: FeedCacheEntry?) async throws -> FetchOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5",
                         forHTTPHeaderField: "Accept")
        request.setValue("agro (feed reader)", forHTTPHeaderField: "User-Agent")
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let modified = cached?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw FeedError.unreachable(url: url.absoluteString, reason: Self.describe(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw FeedError.unreachable(url: url.absoluteString, reason: "not an HTTP response")
        }
        if http.statusCode == 304 { return .notModified }
        guard (200..<300).contains(http.statusCode) else {
            throw FeedError.httpStatus(url: url.absoluteString, status: http.statusCode)
        }
        if data.count > maxBytes {
            throw FeedError.unreachable(url: url.absoluteString, reason: "body larger than \(maxBytes) bytes")
        }
        if http.expectedContentLength > 0 && Int64(data.count) < http.expectedContentLength {
            throw FeedError.unreachable(url: url.absoluteString, reason: "transfer cut short")
        }
        return .fetched(
            body: data, etag: http.value(forHTTPHeaderField: "ETag"),
            lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
    }

    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "timed out"
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "unknown host"
            case .notConnectedToInternet: return "offline"
            case .networkConnectionLost: return "connection lost"
            default: return "network error \(urlError.code.rawValue)"
            }
        }
        return error.localizedDescription
    }
}
