// A minimal HTTP/1.1 server on 127.0.0.1 for tests: real sockets, so clients under test go
// through their real network stack (URLSession/libcurl) instead of a mock.
//
// One thread accepts, one thread per connection answers; every connection is closed after one
// answer ("Connection: close"), which is all the tests need and keeps the code small.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request as the handler sees it.
public struct LoopbackRequest: Sendable {
    /// The request method, as sent ("GET").
    public var method: String
    /// Path and query, exactly as sent ("/data/2.5/weather?lat=1&lon=2").
    public var target: String
    /// Header names lower-cased.
    public var headers: [String: String]
    /// The request body (empty for a GET).
    public var body: Data

    /// The path without the query.
    public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

    /// Decoded query parameters (last one wins).
    public var query: [String: String] {
        guard let items = URLComponents(string: target)?.queryItems else { return [:] }
        var result: [String: String] = [:]
        for item in items { result[item.name] = item.value ?? "" }
        return result
    }
}

/// What the handler answers.
public struct LoopbackResponse: Sendable {
    /// The status code sent.
    public var status: Int
    /// Header fields sent, in order; Content-Length is added by the server.
    public var headers: [(String, String)]
    /// The body sent.
    public var body: Data
    /// Seconds to wait before sending anything (to trip client timeouts).
    public var delay: TimeInterval
    /// Send only this many body bytes, then close, while Content-Length announces the whole body.
    public var truncateBodyAt: Int?

    /// A response with `body`, sent after `delay` seconds, cut at `truncateBodyAt` bytes when given.
    public init(
        status: Int, headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")],
        body: Data, delay: TimeInterval = 0, truncateBodyAt: Int? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.truncateBodyAt = truncateBodyAt
    }

    /// A JSON response with `json` as its body.
    public init(status: Int, json: String, headers: [(String, String)] = [], delay: TimeInterval = 0) {
        self.init(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Data(json.utf8), delay: delay)
    }
}

/// Errors starting the server.
public struct LoopbackServerError: Error, CustomStringConvertible, Sendable {
    /// Why the server could not start (socket, bind or listen failed).
    public var description: String
}

/// A loopback HTTP/1.1 server. Start it, point the client at `baseURL`, stop it in tearDown.
///
/// @unchecked: `stop()` waits on an `NSCondition` for the server's threads to end; the
/// condition guards the state.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// Answers one request; called on the connection's thread.
    public typealias Handler = @Sendable (LoopbackRequest) -> LoopbackResponse

    /// The port the kernel gave (bound to port 0).
    public let port: UInt16
    private let listener: Int32
    private let handler: Handler
    // Guards everything below; the accept and connection threads touch it.
    private let lock = NSCondition()
    private var stopped = false
    private var running = 0
    private var received: [LoopbackRequest] = []

    /// "http://127.0.0.1:PORT".
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Requests received so far, in order.
    public var requests: [LoopbackRequest] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Binds 127.0.0.1 on a free port and starts accepting.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        let socket: (fd: Int32, port: UInt16)
        do throws(LoopbackSocket.Failure) {
            socket = try LoopbackSocket.listen(backlog: 16)
        } catch {
            switch error {
            case let .socket(code):
                throw LoopbackServerError(description: "socket() failed: errno \(code)")
            case let .bindOrListen(code):
                throw LoopbackServerError(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
            }
        }
        listener = socket.fd
        port = socket.port
        running = 1
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer.accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops accepting, lets connections in progress end (delays are cut short) and waits for
    /// every server thread to finish. Safe to call twice.
    public func stop() {
        lock.lock()
        if stopped {
            while running > 0 { lock.wait() }
            lock.unlock()
            return
        }
        stopped = true
        lock.broadcast()
        lock.unlock()
        // shutdown wakes the thread blocked in accept(); close alone does not on Linux.
        shutdown(listener, Int32(SHUT_RDWR))
        lock.lock()
        while running > 0 { lock.wait() }
        lock.unlock()
        close(listener)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func finished() {
        lock.lock()
        running -= 1
        lock.broadcast()
        lock.unlock()
    }

    private func acceptLoop() {
        defer { finished() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR && !isStopped { continue }
                return
            }
            lock.lock()
            if stopped {
                lock.unlock()
                close(connection)
                return
            }
            running += 1
            lock.unlock()
            let thread = Thread { [self] in
                serve(connection)
                finished()
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        // A client that never finishes its request must not hang stop().
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        lock.lock()
        received.append(request)
        lock.unlock()
        let response = handler(request)
        if response.delay > 0 && !sleep(response.delay) { return }
        var head = "HTTP/1.1 \(response.status) \(LoopbackSocket.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        if let cut = response.truncateBodyAt {
            bytes.append(response.body.prefix(max(0, cut)))
        } else {
            bytes.append(response.body)
        }
        LoopbackSocket.sendAll(connection, bytes)
        // Tell the client we are done writing, so a cut-short body ends in EOF, not a hang.
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Sleeps in short steps so that stop() is not held up; false when stopped meanwhile.
    private func sleep(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while !stopped {
            if !lock.wait(until: deadline) { return true }
        }
        return false
    }

    private func readRequest(_ connection: Int32) -> LoopbackRequest? {
        guard let head = LoopbackSocket.readHead(connection, limit: 1 << 20) else { return nil }
        var body = head.rest
        var chunk = [UInt8](repeating: 0, count: 4096)
        let expected = head.headers["content-length"].flatMap { Int($0) } ?? 0
        while body.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { break }
            body.append(contentsOf: chunk[0..<count])
        }
        return LoopbackRequest(method: head.method, target: head.target, headers: head.headers, body: body)
    }
}
