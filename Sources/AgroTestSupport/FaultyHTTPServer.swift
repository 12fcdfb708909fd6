import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 that misbehaves on demand: wrong status codes, bodies
/// cut short or longer than announced, slow bytes, no answer at all. Written on POSIX
/// sockets, one thread per connection, one request per connection; for tests only.
public final class FaultyHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
    }

    /// How to send a body.
    public struct Pacing: Sendable {
        public var chunkSize: Int
        public var delay: TimeInterval
        public init(chunkSize: Int, delay: TimeInterval) {
            self.chunkSize = chunkSize
            self.delay = delay
        }
    }

    public enum Reply: Sendable {
        /// A response. `contentLength` overrides the header (nil: the body's length);
        /// `closeAfter` drops the connection after that many body bytes.
        case respond(
            status: Int, headers: [String: String] = [:], body: Data, contentLength: Int? = nil,
            closeAfter: Int? = nil, pacing: Pacing? = nil)
        /// Reads the request and never answers.
        case hang
    }

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var log: [Request] = []
    private var connections: Set<Int32> = []
    private var stopped = false

    /// Starts listening on a free port of 127.0.0.1.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
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
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests received so far, in order.
    public var requests: [Request] { lock.withLock { log } }

    /// Closes the listening socket and every open connection.
    public func stop() {
        let open: Set<Int32>? = lock.withLock {
            if stopped { return nil }
            stopped = true
            return connections
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted: Bool = lock.withLock {
                if stopped { return false }
                connections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.withLock { _ = connections.remove(fd) }
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        lock.withLock { log.append(request) }
        switch handler(request) {
        case .hang:
            var byte: UInt8 = 0
            // Blocks until the client gives up or the server stops.
            while recv(fd, &byte, 1, 0) > 0 {}
        case let .respond(status, headers, body, contentLength, closeAfter, pacing):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
            var fields = headers
            // A negative length sends none: the body then ends when the connection closes.
            if (contentLength ?? 0) >= 0 { fields["Content-Length"] = String(contentLength ?? body.count) }
            fields["Connection"] = "close"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            guard sendAll(fd, Data(head.utf8)) else { return }
            if request.method == "HEAD" { return }
            let limit = min(body.count, closeAfter ?? body.count)
            let chunk = pacing?.chunkSize ?? 65536
            var offset = 0
            while offset < limit {
                let end = min(offset + chunk, limit)
                guard sendAll(fd, body.subdata(in: offset..<end)) else { return }
                offset = end
                if let delay = pacing?.delay { Thread.sleep(forTimeInterval: delay) }
            }
            shutdown(fd, Int32(SHUT_WR))
            // Wait for the client to close, so it reads everything sent before the FIN.
            var byte: UInt8 = 0
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while recv(fd, &byte, 1, 0) > 0 {}
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer = [UInt8]()
        var byte = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &byte, byte.count, 0)
            if count <= 0 { return nil }
            buffer += byte[0..<count]
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var lines = text.components(separatedBy: "\r\n")
                let first = lines.removeFirst().split(separator: " ")
                guard first.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return Request(method: String(first[0]), path: String(first[1]), headers: headers)
            }
            if buffer.count > 65536 { return nil }
        }
    }

    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        [200: "OK", 206: "Partial Content", 304: "Not Modified", 404: "Not Found", 416: "Range Not Satisfiable",
         500: "Internal Server Error"][status] ?? "Status"
    }

    /// A well-behaved answer from the files of `directory`: 200, or 206 for `Range: bytes=N-`,
    /// 404 when there is no such file.
    public static func file(_ request: Request, in directory: String, pacing: Pacing? = nil) -> Reply {
        let path = directory + (request.path.split(separator: "?").first.map(String.init) ?? "")
        guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: path) else {
            return .respond(status: 404, body: Data("not found".utf8))
        }
        if let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
           let start = Int(range.dropFirst(6).dropLast()) {
            guard start < data.count else {
                return .respond(status: 416, headers: ["Content-Range": "bytes */\(data.count)"], body: Data())
            }
            return .respond(
                status: 206, headers: ["Content-Range": "bytes \(start)-\(data.count - 1)/\(data.count)"],
                body: data.subdata(in: start..<data.count), pacing: pacing)
        }
        return .respond(status: 200, body: data, pacing: pacing)
    }
}
