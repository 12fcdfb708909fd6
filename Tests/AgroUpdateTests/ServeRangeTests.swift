import AgroTestSupport
import Foundation
import Hummingbird
import XCTest

@testable import AgroServer

/// `agro serve` answers byte ranges as RFC 9110 section 14 says: a suffix range is the end of
/// the file, a range past the end is 416 with the file's size, several ranges get the whole
/// file; and a path starting with `//` is never redirected to a protocol-relative address.
final class ServeRangeTests: XCTestCase {
    private var root: String!
    /// 1,000 known bytes: byte i is i % 251.
    private let content = Data((0..<1000).map { UInt8($0 % 251) })

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "agro-range-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root + "/catalogs", withIntermediateDirectories: true)
        try content.write(to: URL(fileURLWithPath: root + "/catalogs/file.bin"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func testRangesFollowRFC9110() async throws {
        let server = try await RunningServer.start(directory: root)
        defer { Task { await server.stop() } }
        let url = URL(string: server.url.absoluteString + "/catalogs/file.bin")!
        // (Range header, status, expected bytes, Content-Range)
        let cases: [(String, Int, Range<Int>?, String?)] = [
            ("bytes=-1", 206, 999..<1000, "bytes 999-999/1000"),
            ("bytes=-300", 206, 700..<1000, "bytes 700-999/1000"),
            ("bytes=-5000", 206, 0..<1000, "bytes 0-999/1000"),
            ("bytes=10-19", 206, 10..<20, "bytes 10-19/1000"),
            ("bytes=990-", 206, 990..<1000, "bytes 990-999/1000"),
            ("bytes=995-2000", 206, 995..<1000, "bytes 995-999/1000"),
            ("bytes=1000-", 416, nil, "bytes */1000"),
            ("bytes=5000-6000", 416, nil, "bytes */1000"),
            ("bytes=-0", 416, nil, "bytes */1000"),
            // Several ranges, or nonsense: the whole file, as if no Range had been sent.
            ("bytes=0-1,5-6", 200, 0..<1000, nil),
            ("bytes=x-y", 200, 0..<1000, nil),
        ]
        for (range, status, bytes, contentRange) in cases {
            let (data, response) = try await fetch(url, headers: ["Range": range])
            XCTAssertEqual(response.statusCode, status, range)
            if let bytes { XCTAssertEqual(data, content.subdata(in: bytes), range) } else { XCTAssertTrue(data.isEmpty, range) }
            XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Range"), contentRange, range)
        }
    }

    func testDoubleSlashIsNotRedirectedOffSite() async throws {
        let server = try await RunningServer.start(directory: root)
        defer { Task { await server.stop() } }
        let (status, location) = try rawGet(port: server.port, target: "//catalogs")
        XCTAssertEqual(status, 404)
        XCTAssertNil(location)
    }

    func testResolveByHand() {
        XCTAssertEqual(RangeMiddleware<BasicRequestContext>.resolve("bytes=-1", size: 2), .range(1...1))
        XCTAssertEqual(RangeMiddleware<BasicRequestContext>.resolve("bytes=2-", size: 2), .unsatisfiable)
        XCTAssertEqual(RangeMiddleware<BasicRequestContext>.resolve("bytes=0-0", size: 0), .unsatisfiable)
        XCTAssertEqual(RangeMiddleware<BasicRequestContext>.resolve("items=0-1", size: 10), .ignore)
    }

    /// One GET without following redirects: status and Location.
    private func rawGet(port: Int, target: String) throws -> (Int, String?) {
        let fd = try loopbackConnection(port: port)
        defer { close(fd) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        let head = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0].components(
            separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let location = head.dropFirst().first { $0.lowercased().hasPrefix("location:") }.map {
            String($0.dropFirst(9)).trimmingCharacters(in: .whitespaces)
        }
        return (status, location)
    }
}
