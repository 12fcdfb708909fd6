import AgroDomain
import Foundation

/// Failures of feed configuration, fetching, parsing and caching; each names the feed or the
/// file involved.
public enum FeedError: UserFacingError, Equatable {
    /// A feed address that is not an absolute http(s) URL.
    case invalidURL(String)
    /// The server could not be reached or the transfer failed.
    case unreachable(url: String, reason: String)
    /// The server answered with an error status.
    case httpStatus(url: String, status: Int)
    /// The document is not RSS or Atom.
    case notAFeed(url: String)
    /// The document is RSS or Atom but too broken to read any entry.
    case malformed(url: String, reason: String)
    /// A configured feed has no cached copy yet.
    case notFetched(url: String)
    /// The feed list file cannot be read or written.
    case config(path: String, reason: String)
    /// The cache directory cannot be written.
    case cache(path: String, reason: String)

    /// One line for the user, naming the feed or file.
    public var message: String {
        switch self {
        case let .invalidURL(text):
            return "\"\(text)\" is not a feed address; give an absolute http:// or https:// URL"
        case let .unreachable(url, reason):
            return "feed \(url) could not be fetched (\(reason)); showing its cached copy if any"
        case let .httpStatus(url, status):
            return "feed \(url) answered HTTP \(status); showing its cached copy if any"
        case let .notAFeed(url):
            return "\(url) is not an RSS or Atom feed"
        case let .malformed(url, reason):
            return "feed \(url) is broken (\(reason))"
        case let .notFetched(url):
            return "feed \(url) has not been fetched yet; run `agro news refresh`"
        case let .config(path, reason):
            return "feed list \(path) cannot be used (\(reason))"
        case let .cache(path, reason):
            return "feed cache \(path) cannot be written (\(reason))"
        }
    }
}

extension FeedError: DescribedError {
    /// This case as data, for the program to word (`error.FeedError.<name>` in Localizable).
    public var errorCase: ErrorCase {
        switch self {
        case let .invalidURL(v0): return ErrorCase("FeedError", "invalidURL", ["\(v0)"])
        case let .unreachable(v0, v1): return ErrorCase("FeedError", "unreachable", ["\(v0)", "\(v1)"])
        case let .httpStatus(v0, v1): return ErrorCase("FeedError", "httpStatus", ["\(v0)", "\(v1)"])
        case let .notAFeed(v0): return ErrorCase("FeedError", "notAFeed", ["\(v0)"])
        case let .malformed(v0, v1): return ErrorCase("FeedError", "malformed", ["\(v0)", "\(v1)"])
        case let .notFetched(v0): return ErrorCase("FeedError", "notFetched", ["\(v0)"])
        case let .config(v0, v1): return ErrorCase("FeedError", "config", ["\(v0)", "\(v1)"])
        case let .cache(v0, v1): return ErrorCase("FeedError", "cache", ["\(v0)", "\(v1)"])
        }
    }
}
