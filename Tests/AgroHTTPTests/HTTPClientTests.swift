import AgroHTTP
import AgroTestSupport
import Foundation
import XCTest

/// The one HTTP layer against a real loopback server that misbehaves on purpose: every
/// hostile answer ends in a typed error within the request's limits, never a trap.
final class HTTPClientTests: XCTestCase {
    private let client = HTTPClient()

    private func request(_ server: FaultyHTTPServer, _ path: String = "/x", max: Int64 = 1 << 20, deadline: TimeInterval = 5)
        -> HTTPRequest
    {
        HTTPRequest(url: server.url.appendingPathComponent(path), maxBodyBytes: max, deadline: deadline)
    }

    private func error(_ request: HTTPRequest, into sink: any HTTPBodySink = HTTPMemorySink()) async -> HTTPError? {
        do {
            let response = try await client.perform(request, into: sink)
            XCTFail("expected an error, got HTTP \(response.status)")
            return nil
        } catch let error as HTTPError {
            return error
        } catch {
            XCTFail("expected an HTTPError, got \(error)")
            return nil
        }
    }

    /// Counts what reaches the sink, to show nothing beyond the cap ever does.
    final class CountingSink: HTTPBodySink, @unchecked Sendable {
        var bytes: Int64 = 0
        func begin(_ response: HTTPResponse) throws -> Bool { true }
        func write(_ piece: UnsafeRawBufferPointer) throws { bytes += Int64(piece.count) }
    }

    func testPlainAnswerAndHeaders() async throws {
        let server = try FaultyHTTPServer { request in
            .respond(
                status: 200, headers: ["ETag": "\"a1\"", "Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT"],
                body: Data((request.headers["if-none-match"] ?? "none").utf8))
        }
        defer { server.stop() }
        var request = request(server)
        request.setHeader("If-None-Match", "\"v7\"\r\nX-Injected: 1")
        let (response, body) = try await client.get(request)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.value(for: "etag"), "\"a1\"")
        XCTAssertEqual(response.value(for: "LAST-MODIFIED"), "Tue, 24 Nov 2026 10:00:00 GMT")
        // The line break is removed: the value stays one header, nothing is injected.
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "\"v7\"X-Injected: 1")
        XCTAssertNil(server.requests.first?.headers["x-injected"])
    }

    func testRangeHeaderReachesTheServer() async throws {
        let server = try FaultyHTTPServer { request in
            .respond(status: 206, headers: ["Content-Range": "bytes 5-9/10"], body: Data((request.headers["range"] ?? "").utf8))
        }
        defer { server.stop() }
        var request = request(server)
        request.setHeader("Range", "bytes=5-")
        let (response, body) = try await client.get(request)
        XCTAssertEqual(response.status, 206)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "bytes=5-")
    }

    func testHugeContentLengthIsRefusedBeforeTheBody() async throws {
        let server = try FaultyHTTPServer { _ in .hugeContentLength() }
        defer { server.stop() }
        let sink = CountingSink()
        let error = await error(request(server), into: sink)
        XCTAssertEqual(error, .tooLarge(limit: 1 << 20))
        XCTAssertEqual(sink.bytes, 0)
    }

    func testLengthBeyondSixtyFourBitsIsRefused() async throws {
        let server = try FaultyHTTPServer { _ in
            .respond(
                status: 200, headers: ["Content-Length": "99999999999999999999999"], body: Data("{}".utf8), contentLength: -1)
        }
        defer { server.stop() }
        let error = await error(request(server))
        XCTAssertNotNil(error)
    }

    func testEndlessBodyStopsAtTheCap() async throws {
        let server = try FaultyHTTPServer { _ in .endlessBody() }
        defer { server.stop() }
        let sink = CountingSink()
        let error = await error(request(server, max: 3 << 20), into: sink)
        XCTAssertEqual(error, .tooLarge(limit: 3 << 20))
        XCTAssertLessThanOrEqual(sink.bytes, 3 << 20)
        XCTAssertGreaterThan(sink.bytes, 2 << 20, "the body was read up to the cap")
    }

    func testGzipBombIsCappedOnTheDecodedSize() async throws {
        // 256 MB of spaces in about 250 KB on the wire.
        let server = try FaultyHTTPServer { _ in .gzipBomb(decodedSize: 256 << 20) }
        defer { server.stop() }
        let sink = CountingSink()
        // A deadline far beyond the cap's work: the point is the size, and a debug build on a
        // loaded machine took over 5 s to inflate 8 MB.
        let error = await error(request(server, max: 8 << 20, deadline: 60), into: sink)
        XCTAssertEqual(error, .tooLarge(limit: 8 << 20))
        XCTAssertLessThanOrEqual(sink.bytes, 8 << 20)
    }

    func testGzipAnswerIsDecoded() async throws {
        let server = try FaultyHTTPServer { _ in .gzipBomb(decodedSize: 1000) }
        defer { server.stop() }
        let (response, body) = try await client.get(request(server))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(body, Data(repeating: 0x20, count: 1000))
    }

    func testOneBytePerIntervalMeetsTheDeadline() async throws {
        // Never idle (a byte every 0.2 s), never done: only the overall deadline ends it.
        let server = try FaultyHTTPServer { _ in .endlessTrickle(interval: 0.2) }
        defer { server.stop() }
        let started = Date()
        let error = await error(request(server, deadline: 1.5))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(error, .timedOut(seconds: 1.5))
        XCTAssertGreaterThan(elapsed, 1.3)
        XCTAssertLessThan(elapsed, 4)
    }

    func testSilentServerIsIdle() async throws {
        let server = try FaultyHTTPServer { _ in .hang }
        defer { server.stop() }
        var request = request(server, deadline: 30)
        request.idleTimeout = 1
        let started = Date()
        let error = await error(request)
        XCTAssertEqual(error, .stalled(seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testBodyCutShortIsBroken() async throws {
        let server = try FaultyHTTPServer { _ in .respond(status: 200, body: Data(count: 1000), contentLength: 5000) }
        defer { server.stop() }
        guard case .broken? = await error(request(server)) else { return XCTFail("expected .broken") }
    }

    func testConnectionRefused() async throws {
        let server = try FaultyHTTPServer { _ in .hang }
        let url = server.url
        server.stop()
        let error = await error(HTTPRequest(url: url, maxBodyBytes: 10, deadline: 5))
        XCTAssertEqual(error, .cannotConnect("connection refused"))
    }

    func testCancellationEndsTheTransfer() async throws {
        let server = try FaultyHTTPServer { _ in .endlessTrickle(interval: 0.1) }
        defer { server.stop() }
        let request = request(server, deadline: 60)
        let task = Task { [client] in try await client.get(request) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertEqual(error as? HTTPError, .cancelled)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testSinkErrorStopsTheTransfer() async throws {
        struct Full: Error {}
        final class FullSink: HTTPBodySink {
            func begin(_ response: HTTPResponse) throws -> Bool { true }
            func write(_ bytes: UnsafeRawBufferPointer) throws { throw Full() }
        }
        let server = try FaultyHTTPServer { _ in .endlessBody() }
        defer { server.stop() }
        do {
            _ = try await client.perform(request(server), into: FullSink())
            XCTFail("expected the sink's error")
        } catch {
            XCTAssertTrue(error is Full, "got \(error)")
        }
    }

    func testSkippedBodyIsNotRead() async throws {
        final class Skip: HTTPBodySink {
            var written = 0
            func begin(_ response: HTTPResponse) throws -> Bool { false }
            func write(_ bytes: UnsafeRawBufferPointer) throws { written += bytes.count }
        }
        let server = try FaultyHTTPServer { _ in .endlessBody() }
        defer { server.stop() }
        let sink = Skip()
        let response = try await client.perform(request(server), into: sink)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(sink.written, 0)
    }

    func testDeclaredLengthParsing() {
        func response(_ length: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [HTTPHeader(name: "Content-Length", value: length)], url: nil)
        }
        XCTAssertEqual(response("42").declaredLength, 42)
        XCTAssertEqual(response("9223372036854775807").declaredLength, Int64.max)
        XCTAssertEqual(response("9223372036854775808").declaredLength, Int64.max)
        XCTAssertEqual(response("-1").declaredLength, Int64.max)
        XCTAssertNil(HTTPResponse(status: 200, headers: [], url: nil).declaredLength)
    }

    func testARedirectLoopIsWordedAsOne() async throws {
        let server = try FaultyHTTPServer { request in
            .respond(status: 302, headers: ["Location": request.path], body: Data())
        }
        defer { server.stop() }
        guard let error = await error(request(server)) else { return }
        // Not "refusing plain http to Number of redirects hit maximum amount".
        XCTAssertEqual(error, .broken("too many redirects (more than 5: a redirect loop)"))
        XCTAssertFalse(error.reason.contains("refus"), error.reason)
    }
}
