import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request as the loopback server saw it.
public struct LoopbackRequest: Sendable {
    /// "GET", "HEAD", ...
    public var method: String
    /// Path with query, as sent ("/feed.xml?x=1").
    public var path: String
    /// Header fields with lower-cased names.
    public var headers: [String: String]
}

/// What the handler answers.
public struct LoopbackResponse: Sendable {
    /// HTTP status code.
    public var status: Int
    /// Header fields to send (Content-Length and Connection are added).
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// Seconds to wait before answering (to test timeouts).
    public var delay: TimeInterval
    /// Send only this many body bytes, then close (Content-Length still announces the whole
    /// body), to test transfers cut short.
    public var cutAfter: Int?

    /// A 200 answer with an empty body unless told otherwise.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: TimeInterval = 0,
                cutAfter: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.cutAfter = cutAfter
    }
}

/// A minimal HTTP/1.1 server on 127.0.0.1 for tests: one request per connection
/// (`Connection: close`), each connection on its own thread. Binds port 0 and reports the
/// port the system chose. `stop()` closes the socket and waits for the accept loop to end.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// The port the system assigned.
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (LoopbackRequest) -> LoopbackResponse
    private let lock = NSLock()
    private var stopping = false
    private var recorded: [LoopbackRequest] = []
    private let finished = DispatchSemaphore(value: 0)

    /// `http://127.0.0.1:PORT`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Requests received so far, in order.
    public var requests: [LoopbackRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Starts listening at once; `handler` is called on a connection thread per request.
    public init(handler: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) throws {
        self.handler = handler
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting connections; returns once the accept loop has ended. Idempotent.
    public func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        if already { return }
        finished.wait()
        close(listener)
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func acceptLoop() {
        while !isStopping {
            // Poll so that stop() is noticed within 50 ms without closing the socket under us.
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 50) <= 0 { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            let connection = Thread { [self] in serve(client) }
            connection.start()
        }
        finished.signal()
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return }
            buffer += chunk[0..<n]
            if buffer.count > 64 * 1024 { return }
            if buffer.count >= 4 {
                for i in 0...(buffer.count - 4) where Array(buffer[i..<(i + 4)]) == terminator {
                    headerEnd = i
                    break
                }
            }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = LoopbackRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
        lock.lock()
        recorded.append(request)
        lock.unlock()

        let response = handler(request)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var fields = response.headers
        fields["Content-Length"] = String(response.body.count)
        fields["Connection"] = "close"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        let body = response.cutAfter.map { response.body.prefix($0) } ?? response.body[...]
        if request.method != "HEAD" { bytes += body }
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Self.sendFlags) }
            if n <= 0 { return }
            sent += n
        }
        if response.cutAfter != nil {
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let sendFlags: Int32 = 0
    #endif

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
