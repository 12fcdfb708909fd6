import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 that misbehaves on demand: wrong status codes, bodies
/// cut short or longer than announced, slow bytes, no answer at all. Written on POSIX
/// sockets, one thread per connection, one request per connection; for tests only.
public final class FaultyHTTPServer: Sendable {
    /// A request as the handler sees it.
    public struct Request: Sendable {
        /// The request method ("GET", "HEAD").
        public var method: String
        /// The request target, path and query.
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
    }

    /// How to send a body.
    public struct Pacing: Sendable {
        /// Bytes sent in one write.
        public var chunkSize: Int
        /// Seconds between two writes.
        public var delay: TimeInterval
        /// Pacing of `chunkSize` bytes every `delay` seconds.
        public init(chunkSize: Int, delay: TimeInterval) {
            self.chunkSize = chunkSize
            self.delay = delay
        }
    }

    /// How the server answers a request, well or badly.
    public enum Reply: Sendable {
        /// A response. `contentLength` overrides the header (nil: the body's length);
        /// `closeAfter` drops the connection after that many body bytes.
        case respond(
            status: Int, headers: [String: String] = [:], body: Data, contentLength: Int? = nil,
            closeAfter: Int? = nil, pacing: Pacing? = nil)
        /// Reads the request and never answers.
        case hang
        /// A 200 whose body never ends: `chunk` again and again, paced, until the client
        /// closes the connection (or the server stops).
        case endless(headers: [String: String] = [:], chunk: Data, pacing: Pacing? = nil)
    }

    /// The loopback port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private struct State {
        var log: [Request] = []
        var connections: Set<Int32> = []
        var stopped = false
    }
    private let state = Mutex(State())

    /// Starts listening on a free port of 127.0.0.1.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let socket: (fd: Int32, port: UInt16)
        do throws(LoopbackSocket.Failure) {
            socket = try LoopbackSocket.listen(backlog: 64)
        } catch {
            switch error {
            case .socket: throw POSIXError(.EIO)
            case .bindOrListen: throw POSIXError(.EADDRINUSE)
            }
        }
        listener = socket.fd
        port = Int(socket.port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests received so far, in order.
    public var requests: [Request] { state.withLock { $0.log } }

    /// Closes the listening socket and every open connection.
    public func stop() {
        let open: Set<Int32>? = state.withLock { state in
            if state.stopped { return nil }
            state.stopped = true
            return state.connections
        }
        guard let open else { return }
        // Wakes the accept loop, which closes the socket itself: closed here, its descriptor
        // number could be reused by the next server's socket before the loop's last accept(2),
        // and this stopped server would then take (and drop) the next server's connections.
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR, !isStopped { continue }
                return
            }
            let accepted: Bool = state.withLock { state in
                if state.stopped { return false }
                state.connections.insert(fd)
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
            state.withLock { _ = $0.connections.remove(fd) }
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        state.withLock { $0.log.append(request) }
        switch handler(request) {
        case .hang:
            var byte: UInt8 = 0
            // Blocks until the client gives up or the server stops.
            while recv(fd, &byte, 1, 0) > 0 {}
        case let .endless(headers, chunk, pacing):
            var head = "HTTP/1.1 200 OK\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            guard LoopbackSocket.sendAll(fd, Data((head + "\r\n").utf8)) else { return }
            let piece = pacing.map { chunk.prefix(max(1, $0.chunkSize)) } ?? chunk
            while !isStopped, LoopbackSocket.sendAll(fd, Data(piece)) {
                if let delay = pacing?.delay { Thread.sleep(forTimeInterval: delay) }
            }
        case let .respond(status, headers, body, contentLength, closeAfter, pacing):
            var head = "HTTP/1.1 \(status) \(LoopbackSocket.reason(status))\r\n"
            var fields = headers
            // A negative length sends none: the body then ends when the connection closes.
            if (contentLength ?? 0) >= 0 { fields["Content-Length"] = String(contentLength ?? body.count) }
            fields["Connection"] = "close"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            guard LoopbackSocket.sendAll(fd, Data(head.utf8)) else { return }
            if request.method == "HEAD" { return }
            let limit = min(body.count, closeAfter ?? body.count)
            let chunk = pacing?.chunkSize ?? 65536
            var offset = 0
            while offset < limit {
                let end = min(offset + chunk, limit)
                guard LoopbackSocket.sendAll(fd, body.subdata(in: offset..<end)) else { return }
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
        guard let head = LoopbackSocket.readHead(fd, limit: 65536) else { return nil }
        return Request(method: head.method, path: head.target, headers: head.headers)
    }

    /// A well-behaved answer from the files of `directory`: 200, or 206 for `Range: bytes=N-`,
    /// 404 when there is no such file.
    public static func file(_ request: Request, in directory: String, pacing: Pacing? = nil) -> Reply {
        let path = directory + (request.path.split(separator: "?").first.map(String.init) ?? "")
        guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: path) else {
            return .respond(status: 404, body: Data("not found".utf8))
        }
        if let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
            let start = Int(range.dropFirst(6).dropLast())
        {
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
