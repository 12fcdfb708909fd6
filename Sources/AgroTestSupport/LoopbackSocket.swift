// The socket work both test servers share: listening on 127.0.0.1, reading a request head,
// sending everything, naming a status. One copy, so a fix reaches both servers.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum LoopbackSocket {
    /// Why `listen(backlog:)` failed; each server turns it into the error its API promises.
    enum Failure: Error {
        case socket(errno: Int32)
        case bindOrListen(errno: Int32)
    }

    /// A listening socket on a free port of 127.0.0.1 (the kernel picks it: port 0).
    static func listen(backlog: Int32) throws(Failure) -> (fd: Int32, port: UInt16) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .socket(errno: errno) }
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
        // File-scope `listen`: inside this enum the name is the method's own.
        guard bound == 0, posixListen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .bindOrListen(errno: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// A request line and its headers, and the bytes read past them (the start of a body).
    struct Head {
        var method: String
        var target: String
        /// Header names lower-cased.
        var headers: [String: String]
        var rest: Data
    }

    /// Reads up to the blank line that ends the head; nil when the connection ends first,
    /// the request line is malformed, or more than `limit` bytes come without a blank line.
    static func readHead(_ fd: Int32, limit: Int) -> Head? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
            if let end = buffer.firstRange(of: separator) {
                let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var lines = text.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] =
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return Head(
                    method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
                    rest: Data(buffer[end.upperBound...]))
            }
            if buffer.count > limit { return nil }
        }
    }

    /// Sends all of `data`; false when the peer is gone.
    @discardableResult
    static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard var pointer = raw.baseAddress else { return true }
            var left = raw.count
            while left > 0 {
                // MSG_NOSIGNAL: a client that hung up (timeout tests) must not SIGPIPE the test run.
                #if canImport(Glibc)
                    let sent = Glibc.send(fd, pointer, left, Int32(MSG_NOSIGNAL))
                #else
                    let sent = Darwin.send(fd, pointer, left, 0)
                #endif
                if sent <= 0 { return false }
                pointer += sent
                left -= sent
            }
            return true
        }
    }

    /// The reason phrase of a status line; clients read only the code.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

private func posixListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }

/// A TCP connection to `port` on 127.0.0.1, for tests that speak HTTP by hand (the caller
/// closes the descriptor).
///
///     let fd = try loopbackConnection(port: server.port)
///     defer { close(fd) }
/// - Parameter source: the loopback address to connect from (`127.0.0.2`: another client to
///   the server), nil for the system's choice.
public func loopbackConnection(port: Int, from source: String? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw NSError(domain: "socket", code: Int(errno)) }
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        try call("bind", fd, local, bind)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    try call("connect", fd, address, connect)
    return fd
}

/// `function(fd, address)` (bind or connect); on failure closes `fd` and throws the errno in
/// the domain `name`.
private func call(
    _ name: String, _ fd: Int32, _ address: sockaddr_in,
    _ function: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
) throws {
    var address = address
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
        let error = errno
        close(fd)
        throw NSError(domain: name, code: Int(error))
    }
}

/// A TCP port free on 127.0.0.1 at this instant.
public func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
            guard bind(descriptor, raw, length) == 0 else { return -1 }
            return getsockname(descriptor, raw, &length)
        }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}
