import CCurlShim
import Foundation
import Synchronization

/// Where a response body goes, piece by piece as it arrives.
public protocol HTTPBodySink: AnyObject {
    /// Called once with the final response, before its first body byte (or at the end when it
    /// has none). Returning `false` skips the body: the transfer ends without reading it.
    /// Throwing stops the transfer with that error.
    func begin(_ response: HTTPResponse) throws -> Bool
    /// The next decoded piece of the body; throwing stops the transfer with that error.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Collects a body in memory (never more than the request's cap).
public final class HTTPMemorySink: HTTPBodySink {
    /// The body received so far.
    public private(set) var data = Data()
    /// An empty sink.
    public init() {}
    /// Accepts every body.
    public func begin(_ response: HTTPResponse) throws -> Bool { true }
    /// Appends `bytes` to `data`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws { data.append(contentsOf: bytes) }
}

/// HTTP GET through libcurl, with the caps and deadlines of `HTTPRequest` enforced while the
/// bytes arrive. One layer for the update client, the feed fetcher and the weather client.
///
/// Each transfer runs `curl_easy_perform` on a thread of its own, so a slow server never
/// holds a thread of Swift's cooperative pool.
///
///     let request = HTTPRequest(url: URL(string: "https://example.org/feed.xml")!, maxBodyBytes: 4 << 20, deadline: 20)
///     let (response, body) = try await HTTPClient().get(request)
///     print(response.status, body.count)
public struct HTTPClient: Sendable {
    /// A client; it holds no state, every transfer has its own libcurl handle.
    public init() {}

    /// Fetches `request` into memory: the response and its body (at most `maxBodyBytes`).
    public func get(_ request: HTTPRequest) async throws(HTTPError) -> (HTTPResponse, Data) {
        let sink = HTTPMemorySink()
        do {
            let response = try await perform(request, into: sink)
            return (response, sink.data)
        } catch let error as HTTPError {
            throw error
        } catch {
            // The memory sink throws nothing of its own.
            throw .broken(String(describing: error))
        }
    }

    /// Fetches `request`, streaming the body into `sink`.
    ///
    /// - Throws: `HTTPError`, or whatever `sink` threw.
    public func perform(_ request: HTTPRequest, into sink: any HTTPBodySink) async throws -> HTTPResponse {
        guard Self.initialized else { throw HTTPError.cannotConnect("libcurl could not be initialised") }
        let transfer = Transfer(request: request, sink: sink)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let thread = Thread {
                    continuation.resume(with: transfer.run())
                }
                thread.name = "agro-http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// curl_global_init, once per process (a static let runs its initialiser exactly once).
    private static let initialized: Bool = agro_curl_global_init() == CURLE_OK
}

/// One transfer's state, shared between the calling task and libcurl's callbacks on the
/// transfer thread. Only `cancelled` is touched from two threads, and it is atomic; the rest
/// (libcurl's handle, a C pointer, and what its callbacks gather) stays on the transfer
/// thread, hence @unchecked.
final class Transfer: @unchecked Sendable {
    let request: HTTPRequest
    let sink: any HTTPBodySink
    private let cancelled = Atomic(false)
    private var headers: [HTTPHeader] = []
    private var headerBytes = 0
    private var response: HTTPResponse?
    private var skipped = false
    private var received: Int64 = 0
    private var failure: (any Error)?
    private var curl: UnsafeMutableRawPointer?

    /// Limits a server's header block: libcurl caps each line, not their number.
    static let maxHeaderBytes = 256 << 10
    /// Redirects followed at most.
    static let maximumRedirects = 5

    init(request: HTTPRequest, sink: any HTTPBodySink) {
        self.request = request
        self.sink = sink
    }

    func cancel() { cancelled.store(true, ordering: .releasing) }
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func run() -> Result<HTTPResponse, any Error> {
        guard let curl = curl_easy_init() else { return .failure(HTTPError.cannotConnect("libcurl could not start")) }
        self.curl = curl
        defer { curl_easy_cleanup(curl) }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers {
            // A line break would inject headers of its own. Filtered by scalar: "\r\n" is one Character.
            func clean(_ text: String) -> String {
                String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }))
            }
            list = curl_slist_append(list, "\(clean(name)): \(clean(value))")
        }
        defer { curl_slist_free_all(list) }
        let started = Date()
        configure(curl, headers: list)
        let code = curl_easy_perform(curl)
        let elapsed = Date().timeIntervalSince(started)
        if let failure { return .failure(failure) }
        if isCancelled { return .failure(HTTPError.cancelled) }
        if code == CURLE_OK || (code == CURLE_WRITE_ERROR && skipped) {
            do {
                let final = try currentResponse(curl)
                if response == nil, !(try sink.begin(final)) { skipped = true }
                return .success(response ?? final)
            } catch {
                return .failure(error)
            }
        }
        return .failure(describe(code, elapsed: elapsed))
    }

    private func configure(_ curl: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = agro_curl_set_string(curl, CURLOPT_URL, request.url.absoluteString)
        if let body = request.body {
            _ = agro_curl_set_off_t(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // libcurl copies the bytes: nothing of `body` needs to outlive this call.
            if body.isEmpty {
                _ = agro_curl_set_string(curl, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { bytes in
                    _ = agro_curl_set_pointer(
                        curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
        }
        if let method = request.method { _ = agro_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, method) }
        _ = agro_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = agro_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, request.allowsInsecureRedirects ? "http,https" : "https")
        _ = agro_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = agro_curl_set_long(curl, CURLOPT_MAXREDIRS, Self.maximumRedirects)
        // Signals are process-wide; timeouts must not use them in a threaded program.
        _ = agro_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = agro_curl_set_string(curl, CURLOPT_USERAGENT, request.userAgent)
        if request.acceptsCompression { _ = agro_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "") }
        _ = agro_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        let deadline = Self.milliseconds(request.deadline)
        _ = agro_curl_set_long(curl, CURLOPT_TIMEOUT_MS, deadline)
        _ = agro_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, deadline)
        // "Idle": less than one byte per second for the whole idle period.
        _ = agro_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = agro_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, max(1, Self.milliseconds(request.idleTimeout) / 1000))
        _ = agro_curl_set_pointer(curl, CURLOPT_WRITEDATA, me)
        _ = agro_curl_set_write_function(curl, transferWrite)
        _ = agro_curl_set_pointer(curl, CURLOPT_HEADERDATA, me)
        _ = agro_curl_set_header_function(curl, transferHeader)
        _ = agro_curl_set_pointer(curl, CURLOPT_XFERINFODATA, me)
        _ = agro_curl_set_xferinfo_function(curl, transferProgress)
        _ = agro_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
    }

    /// Seconds as libcurl's milliseconds, clamped so no configured value can overflow.
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds, 7 * 86_400) * 1000).clamped(to: 1...Int.max)
    }

    private func currentResponse(_ curl: UnsafeMutableRawPointer) throws -> HTTPResponse {
        var status = 0
        _ = agro_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        _ = agro_curl_get_string(curl, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.flatMap { URL(string: String(cString: $0)) }
        if !request.allowsInsecureRedirects, url?.scheme?.lowercased() == "http",
            request.url.scheme?.lowercased() == "https"
        {
            throw HTTPError.redirectRefused(url?.absoluteString ?? "")
        }
        return HTTPResponse(status: status, headers: headers, url: url)
    }

    // MARK: - Callbacks (on the transfer thread)

    fileprivate func header(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= Self.maxHeaderBytes else {
            failure = HTTPError.broken("the response headers are larger than \(Self.maxHeaderBytes) bytes")
            return false
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            // A new response (after a redirect or a 100 Continue): its headers start afresh.
            headers = []
            headerBytes = line.count
        } else if let colon = text.firstIndex(of: ":") {
            headers.append(
                HTTPHeader(
                    name: String(text[..<colon]),
                    value: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return true
    }

    fileprivate func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil, !skipped else { return false }
        do {
            if response == nil {
                guard let curl else { return false }
                let final = try currentResponse(curl)
                response = final
                if let declared = final.declaredLength, declared > request.maxBodyBytes, !final.isEncoded,
                    (200..<300).contains(final.status)
                {
                    throw HTTPError.tooLarge(limit: request.maxBodyBytes)
                }
                if !(try sink.begin(final)) {
                    skipped = true
                    return false
                }
            }
            // `bytes.count` is at most libcurl's buffer size and `received` at most the cap: no overflow.
            let room = request.maxBodyBytes - received
            guard Int64(bytes.count) <= room else {
                // What fits is delivered, then the transfer stops: never a byte past the cap.
                if room > 0 { try sink.write(UnsafeRawBufferPointer(rebasing: bytes.prefix(Int(room)))) }
                received = request.maxBodyBytes
                throw HTTPError.tooLarge(limit: request.maxBodyBytes)
            }
            received += Int64(bytes.count)
            try sink.write(bytes)
            return true
        } catch {
            failure = error
            return false
        }
    }

    fileprivate func progress() -> Bool { !isCancelled }

    private func describe(_ code: CURLcode, elapsed: TimeInterval) -> HTTPError {
        let text = String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            // One code for both limits: the clock tells which one struck.
            if elapsed + 0.05 >= request.deadline { return .timedOut(seconds: request.deadline) }
            return .stalled(seconds: max(1, request.idleTimeout.rounded(.up)))
        case CURLE_COULDNT_CONNECT: return .cannotConnect("connection refused")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotConnect("unknown host")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE:
            return .cannotConnect("TLS failure (\(text))")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .redirectRefused(text)
        case CURLE_TOO_MANY_REDIRECTS:
            // Not a refused target: callers word `redirectRefused` as "refusing plain http to URL".
            return .broken("too many redirects (more than \(Self.maximumRedirects): a redirect loop)")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR:
            return .broken("the connection broke off before the answer was complete (\(text))")
        case CURLE_BAD_CONTENT_ENCODING:
            return .broken("the answer's compression is damaged")
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        default: return .broken(text)
        }
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

// libcurl's callbacks: C function pointers, so no captures; the transfer rides in `userdata`.

private func transferWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?)
    -> Int
{
    receive(data, size * count, userdata) { $0.write($1) }
}

private func transferHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?)
    -> Int
{
    receive(data, size * count, userdata) { $0.header($1) }
}

/// Hands `length` bytes at `data` to the transfer in `userdata`; libcurl wants the length back
/// when they were taken, 0 to stop.
private func receive(
    _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ userdata: UnsafeMutableRawPointer?,
    _ take: (Transfer, UnsafeRawBufferPointer) -> Bool
) -> Int {
    guard let userdata, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    return take(transfer, UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func transferProgress(
    _ userdata: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
    guard let userdata else { return 1 }
    return Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue().progress() ? 0 : 1
}
