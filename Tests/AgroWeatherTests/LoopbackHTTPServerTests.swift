import AgroTestSupport
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test server itself: if it misbehaved, the client tests would prove nothing.
final class LoopbackHTTPServerTests: XCTestCase {
    func testAnswersAndRecordsRequests() async throws {
        let server = try LoopbackHTTPServer { request in
            LoopbackResponse(
                status: 201, headers: [("X-Echo", request.path)], body: Data("hello \(request.query["q"] ?? "")".utf8))
        }
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        let url = server.baseURL.appendingPathComponent("a/b")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "q", value: "Лондон")]
        let (data, response) = try await URLSession.shared.data(from: components.url!)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 201)
        XCTAssertEqual(http.value(forHTTPHeaderField: "X-Echo"), "/a/b")
        XCTAssertEqual(String(data: data, encoding: .utf8), "hello Лондон")
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(server.requests.first?.method, "GET")
    }

    func testStopCutsADelayedAnswerShortAndIsIdempotent() throws {
        let server = try LoopbackHTTPServer { _ in LoopbackResponse(status: 200, body: Data(), delay: 30) }
        // Open a connection and send a request without waiting for the answer.
        let task = URLSession.shared.dataTask(with: server.baseURL)
        task.resume()
        let deadline = Date().addingTimeInterval(5)
        while server.requests.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(server.requests.count, 1)
        let started = Date()
        server.stop()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "stop does not wait for the 30 s delay")
        task.cancel()
    }
}
