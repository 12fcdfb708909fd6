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
    public var method: String
    /// Path and query, exactly as sent ("/data/2.5/weather?lat=1&lon=2").
    public var target: String
    /// Header names lower-cased.
    public var headers: [String: String]
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
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// Seconds to wait before sending anything (to trip client timeouts).
    public var delay: TimeInterval
    /// Send only this many body bytes, then close, while Content-Length announces the whole body.
    public var truncateBodyAt: Int?

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

    public init(status: Int, json: String, headers: [(String, String)] = [], delay: TimeInterval = 0) {
        self.init(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Data(json.utf8), delay: delay)
    }
}

/// Errors starting the server.
public struct LoopbackServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// A loopback HTTP/1.1 server. Start it, point the client at `baseURL`, stop it in tearDown.
public final class LoopbackHTTPServer: @unchecked Sendable {
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
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw LoopbackServerError(description: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackServerError(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: actual.sin_port)
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
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        if let cut = response.truncateBodyAt {
            bytes.append(response.body.prefix(max(0, cut)))
        } else {
            bytes.append(response.body)
        }
        send(bytes, to: connection)
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
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headerEnd = buffer.range(of: separator)
            if buffer.count > 1 << 20 { return nil }
        }
        guard let headerEnd, let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8) else {
            return nil
        }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd.upperBound...])
        let expected = headers["content-length"].flatMap { Int($0) } ?? 0
        while body.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { break }
            body.append(contentsOf: chunk[0..<count])
        }
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private func send(_ data: Data, to connection: Int32) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard var pointer = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                // MSG_NOSIGNAL: a client that hung up (timeout tests) must not SIGPIPE the test run.
                #if canImport(Glibc)
                let sent = Glibc.send(connection, pointer, left, Int32(MSG_NOSIGNAL))
                #else
                let sent = Darwin.send(connection, pointer, left, 0)
                #endif
                if sent <= 0 { return }
                pointer += sent
                left -= sent
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
