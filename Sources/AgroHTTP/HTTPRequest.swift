import Foundation

/// One request (a GET unless it carries a body or names its method) with the limits every fetch in agro needs: a cap on the body, an overall deadline
/// and an idle timeout.
public struct HTTPRequest: Sendable {
    /// The address fetched (http or https).
    public var url: URL
    /// Extra request headers (`Accept`, `If-None-Match`, ...), sent as given.
    public var headers: [(name: String, value: String)]
    /// The most body bytes accepted, counted as they arrive and after content decoding; past it
    /// the transfer stops with `HTTPError.tooLarge`. A declared length above it is refused
    /// before any body byte is read.
    public var maxBodyBytes: Int64
    /// Seconds the whole exchange (connect, headers, body) may take.
    public var deadline: TimeInterval
    /// Seconds without a byte after which the transfer fails (rounded up to whole seconds by
    /// libcurl; the deadline is exact).
    public var idleTimeout: TimeInterval
    /// Sends Accept-Encoding and decodes gzip/deflate answers; `maxBodyBytes` then caps the
    /// decoded size, so a small compressed bomb cannot grow past it.
    public var acceptsCompression: Bool
    /// Whether a redirect may lead from https to plain http.
    public var allowsInsecureRedirects: Bool
    /// The User-Agent header sent.
    public var userAgent: String
    /// The method: GET unless a body is sent (POST) or another is named (DELETE).
    public var method: String?
    /// A body to send (a POST unless `method` says otherwise), with its `Content-Type` header.
    public var body: Data?

    /// A GET of `url` with its caps; the idle timeout defaults to the deadline.
    public init(
        url: URL, headers: [(name: String, value: String)] = [], maxBodyBytes: Int64, deadline: TimeInterval,
        idleTimeout: TimeInterval? = nil, acceptsCompression: Bool = true, allowsInsecureRedirects: Bool = true,
        userAgent: String = "agro"
    ) {
        self.url = url
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.deadline = deadline
        self.idleTimeout = idleTimeout ?? deadline
        self.acceptsCompression = acceptsCompression
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.userAgent = userAgent
    }

    /// Adds a header; conditional and range requests are headers like any other.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }
}

/// The status line and headers of the final response (after redirects).
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code (200, 304, 404, ...).
    public var status: Int
    /// Header fields in arrival order, names as sent.
    public var headers: [HTTPHeader]
    /// The URL that answered, after redirects.
    public var url: URL?

    /// A response as received.
    public init(status: Int, headers: [HTTPHeader], url: URL?) {
        self.status = status
        self.headers = headers
        self.url = url
    }

    /// The last value of the header `name` (case-insensitive).
    public func value(for name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last { $0.name.lowercased() == wanted }?.value
    }

    /// Content-Length as declared, `nil` when absent; a value that does not fit in 64 bits is
    /// `Int64.max`, so that every cap refuses it.
    public var declaredLength: Int64? {
        guard let text = value(for: "Content-Length")?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return Int64.max }
        return Int64(text) ?? Int64.max
    }

    /// Whether the body was sent with a content coding (and decoded on arrival).
    public var isEncoded: Bool {
        guard let coding = value(for: "Content-Encoding")?.lowercased() else { return false }
        return !coding.isEmpty && coding != "identity"
    }
}

/// One response header field.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, as sent.
    public var name: String
    /// The field value, without surrounding whitespace.
    public var value: String

    /// A header field `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Why a transfer failed. The caller turns it into its own user-facing error.
public enum HTTPError: Error, Sendable, Equatable {
    /// The body (declared or received) exceeded the cap.
    case tooLarge(limit: Int64)
    /// The overall deadline passed.
    case timedOut(seconds: TimeInterval)
    /// No byte arrived for the idle timeout.
    case stalled(seconds: TimeInterval)
    /// Connection refused, unknown host, TLS failure...: no answer at all.
    case cannotConnect(String)
    /// The answer started and broke off, or was not valid HTTP.
    case broken(String)
    /// A redirect led somewhere the request does not allow.
    case redirectRefused(String)
    /// The caller's task was cancelled.
    case cancelled

    /// A short English description, for the callers' messages.
    public var reason: String {
        switch self {
        case let .tooLarge(limit): return "the answer is larger than \(limit) bytes"
        case let .timedOut(seconds): return "no complete answer within \(Self.seconds(seconds))"
        case let .stalled(seconds): return "the server sent nothing for \(Self.seconds(seconds))"
        case let .cannotConnect(reason): return reason
        case let .broken(reason): return reason
        case let .redirectRefused(url): return "refused a redirect to \(url)"
        case .cancelled: return "cancelled"
        }
    }

    static func seconds(_ value: TimeInterval) -> String {
        guard value.isFinite, value < 1e9 else { return "ever" }
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
