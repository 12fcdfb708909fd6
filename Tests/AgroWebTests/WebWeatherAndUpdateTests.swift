import AgroDomain
import AgroTestSupport
import Foundation
import XCTest

/// Weather through the server (the key stays on it) and a catalog installed by `agro db
/// update` answering the next request of a running server.
final class WebWeatherAndUpdateTests: XCTestCase {
    static let apiKey = "dummy-web-key-Zr81pQ"
    static let fixtures = WebProcess.root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/owm")
    static let currentFixture = "current_weather_rain_gust_manila_metric.json"
    static let forecastFixture = "forecast_5day_3h_curacautin_metric_snow_subzero_full_list.json"
    static let catalog = WebProcess.root.appendingPathComponent("Database/catalog.sqlite").path

    func testWeatherGoesThroughTheServerWithTheKeyKeptThere() throws {
        guard FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent(Self.currentFixture).path) else {
            throw XCTSkip("OpenWeatherMap fixtures not found at \(Self.fixtures.path)")
        }
        let current = try Data(contentsOf: Self.fixtures.appendingPathComponent(Self.currentFixture))
        let forecast = try Data(contentsOf: Self.fixtures.appendingPathComponent(Self.forecastFixture))
        let upstream = try LoopbackHTTPServer { request in
            switch request.path {
            case "/data/2.5/weather": return LoopbackResponse(status: 200, body: current)
            case "/data/2.5/forecast": return LoopbackResponse(status: 200, body: forecast)
            default: return LoopbackResponse(status: 404, json: "{\"cod\":\"404\",\"message\":\"no such path\"}")
            }
        }
        defer { upstream.stop() }
        let server = WebProcess(extraEnvironment: [
            "AGRO_OPENWEATHER_URL": upstream.baseURL.absoluteString, "OPENWEATHER_API_KEY": Self.apiKey,
        ])
        try server.start(["--catalog", Self.catalog])
        defer { server.stop() }

        for (query, flags) in [("at=51.17,71.45", [String]()), ("at=51.17,71.45&spray=1", ["--spray"]),
                               ("at=51.17,71.45&forecast=true", ["--forecast"])] {
            let answer = try server.get("/api/v1/weather?\(query)")
            XCTAssertEqual(answer.status, 200, answer.body)
            XCTAssertFalse(answer.body.contains(Self.apiKey))
            // The CLI with its own (empty) cache asks the same server: the same document but
            // for where the answer came from.
            let cli = try server.cli(
                ["--catalog", Self.catalog, "weather", "--at", "51.17,71.45", "--format", "json"] + flags,
                extraEnvironment: ["XDG_CACHE_HOME": server.home.appendingPathComponent("cli-cache").path])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            var web = try XCTUnwrap(answer.json as? [String: Any])
            var expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
            for key in ["source", "ageSeconds"] {
                web.removeValue(forKey: key)
                expected.removeValue(forKey: key)
            }
            XCTAssertEqual(NSDictionary(dictionary: web), NSDictionary(dictionary: expected), query)
            if flags == ["--spray"] { XCTAssertNotNil(web["spray"] as? [String: Any]) }
        }
        // The key went upstream, from the server.
        XCTAssertTrue(upstream.requests.contains { $0.query["appid"] == Self.apiKey })
        let page = try server.get("/weather?at=51.17,71.45&spray=1")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("<pre class=\"weather\">"))
        XCTAssertFalse(page.body.contains(Self.apiKey))

        let bad = try server.get("/api/v1/weather?at=95,10")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(((bad.json as? [String: Any])?["error"] as? [String: Any])?["exitStatus"] as? Int, 64)
        XCTAssertFalse(server.stderrText.contains(Self.apiKey), "the key in the log")
    }

    func testWeatherWithoutAKeyIsAnErrorOfTheWeatherOnly() throws {
        let server = WebProcess()
        try server.start(["--catalog", Self.catalog])
        defer { server.stop() }
        let answer = try server.get("/api/v1/weather?at=51.17,71.45")
        XCTAssertEqual(answer.status, 503)
        XCTAssertEqual(((answer.json as? [String: Any])?["error"] as? [String: Any])?["exitStatus"] as? Int, 80)
        XCTAssertEqual(try server.get("/api/v1/products").status, 200)
    }

    /// Publish v1, install it, start the server on the installed catalog; publish v2 and install
    /// it with `agro db update` in another process: the next requests see v2, without a restart.
    func testACatalogInstalledByDbUpdateAnswersTheNextRequests() throws {
        let server = WebProcess()
        let home = server.home
        let site = home.appendingPathComponent("site").path
        for version in [1, 2] {
            try TestCatalogs.make(at: home.appendingPathComponent("v\(version).sqlite").path, identity: "test.web", version: version)
        }
        func cli(_ arguments: [String]) throws {
            let result = try server.cli(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        let key = home.appendingPathComponent("release").path
        try cli(["keys", "generate", "--out", key])
        try cli(["catalog", "publish", home.appendingPathComponent("v1.sqlite").path, "--to", site, "--key", key + ".key"])
        let files = try LoopbackHTTPServer { request in
            let path = site + request.path
            guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: path) else {
                return LoopbackResponse(status: 404, json: "{}")
            }
            return LoopbackResponse(status: 200, body: data)
        }
        defer { files.stop() }
        let update = ["db", "update", "--server", files.baseURL.absoluteString + "/", "--trust", key + ".pub"]
        try cli(update)

        try server.start()
        defer { server.stop() }
        let before = try XCTUnwrap(try server.get("/api/v1/catalog").json as? [String: Any])
        XCTAssertEqual(before["identity"] as? String, "test.web")
        XCTAssertEqual(before["version"] as? Int, 1)
        let names = try XCTUnwrap(try server.get("/api/v1/products?perPage=1").json as? [String: Any])
        XCTAssertEqual(((names["items"] as? [[String: Any]])?.first?["name"] as? String)?.hasSuffix(" v1"), true)

        try cli(["catalog", "publish", home.appendingPathComponent("v2.sqlite").path, "--to", site, "--key", key + ".key"])
        try cli(update)
        // The server polls current.sqlite every 2 s; every request in between still answers.
        var version = 1
        let deadline = Date().addingTimeInterval(20)
        while version == 1, Date() < deadline {
            let answer = try server.get("/api/v1/catalog")
            XCTAssertEqual(answer.status, 200)
            version = ((answer.json as? [String: Any])?["version"] as? Int) ?? 0
            if version == 1 { Thread.sleep(forTimeInterval: 0.2) }
        }
        XCTAssertEqual(version, 2)
        let after = try XCTUnwrap(try server.get("/api/v1/products?perPage=1").json as? [String: Any])
        XCTAssertEqual(((after["items"] as? [[String: Any]])?.first?["name"] as? String)?.hasSuffix(" v2"), true)
    }
}
