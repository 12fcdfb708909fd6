import AgroDomain
import AgroStore
import Foundation
import XCTest

@testable import AgroWeb

/// `agro web`'s JSON API against the CLI: for the same query, the API answers with the bytes
/// `agro ... --format json` prints (both run the built agro-full on the bundled catalog).
final class WebAPITests: BundledCatalogWebTestCase {
    /// The CLI's standard output for `arguments --format json`, which must succeed.
    func cliJSON(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try server.cli(["--catalog", Self.catalog] + arguments + ["--format", "json"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    func assertSame(
        _ target: String, _ arguments: [String], headers: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let answer = try server.get(target, headers: headers)
        XCTAssertEqual(answer.status, 200, "\(target): \(answer.body)", file: file, line: line)
        XCTAssertEqual(answer.headers["content-type"], "application/json; charset=utf-8", target, file: file, line: line)
        let expected = try cliJSON(arguments, file: file, line: line)
        XCTAssertFalse(expected.isEmpty, file: file, line: line)
        XCTAssertEqual(
            answer.body, expected, "\(target) differs from agro \(arguments.joined(separator: " "))", file: file, line: line)
    }

    func firstID(_ target: String) throws -> String {
        let page = try XCTUnwrap(try server.get(target).json as? [String: Any])
        let items = try XCTUnwrap(page["items"] as? [[String: Any]])
        return try XCTUnwrap(items.first?["id"] as? String, "\(target) has no items")
    }

    func testEveryCatalogEndpointAnswersWithTheCLIsJSON() throws {
        let product = try firstID("/api/v1/products?perPage=1")
        let substance = try firstID("/api/v1/substances?perPage=1")
        let culture = try firstID("/api/v1/cultures?perPage=1")
        let pest = try firstID("/api/v1/pests?perPage=1")
        let news = try firstID("/api/v1/news?perPage=1")
        let region = try firstID("/api/v1/regions?perPage=1")
        let cases: [(String, [String])] = [
            ("/api/v1/products?perPage=7", ["products", "--per-page", "7"]),
            (
                "/api/v1/products?culture=winter%20wheat&pest=septoria%20tritici&perPage=50",
                ["products", "--culture", "winter wheat", "--pest", "septoria tritici", "--per-page", "50"]
            ),
            ("/api/v1/products?category=fungicide&perPage=100", ["products", "--category", "fungicide", "--per-page", "100"]),
            ("/api/v1/products?letters=true&perPage=40", ["products", "--letters", "--per-page", "40"]),
            ("/api/v1/product/\(product)", ["product", product]),
            ("/api/v1/substances?perPage=10", ["substances", "--per-page", "10"]),
            ("/api/v1/substance/\(substance)", ["substance", substance]),
            ("/api/v1/cultures?perPage=30", ["cultures", "--per-page", "30"]),
            ("/api/v1/culture/\(culture)", ["culture", culture]),
            ("/api/v1/pests?culture=winter%20wheat&perPage=25", ["pests", "--culture", "winter wheat", "--per-page", "25"]),
            ("/api/v1/pests?kind=weed&perPage=25", ["pests", "--kind", "weed", "--per-page", "25"]),
            ("/api/v1/pest/\(pest)", ["pest", pest]),
            ("/api/v1/pest/\(pest)?culture=wheat", ["pest", pest, "--culture", "wheat"]),
            ("/api/v1/scheme/winter%20wheat", ["scheme", "winter wheat"]),
            ("/api/v1/scheme/winter%20wheat?stage=31", ["scheme", "winter wheat", "--stage", "31"]),
            ("/api/v1/search?q=septoria&perPage=20", ["search", "septoria", "--per-page", "20"]),
            ("/api/v1/search?q=wheat&kind=product&perPage=5", ["search", "wheat", "--kind", "product", "--per-page", "5"]),
            ("/api/v1/regions?perPage=50", ["regions", "--per-page", "50"]),
            (
                "/api/v1/uses?pest=septoria%20tritici&culture=winter%20wheat&perPage=20",
                ["uses", "--pest", "septoria tritici", "--culture", "winter wheat", "--per-page", "20"]
            ),
            (
                "/api/v1/uses?culture=winter%20wheat&stage=31&sort=phi&perPage=15",
                ["uses", "--culture", "winter wheat", "--stage", "31", "--sort", "phi", "--per-page", "15"]
            ),
            ("/api/v1/contacts/\(region)", ["contacts", region]),
            ("/api/v1/contacts?near=51.17,71.45&perPage=10", ["contacts", "--near", "51.17,71.45", "--per-page", "10"]),
            ("/api/v1/news?perPage=10", ["news", "--per-page", "10"]),
            ("/api/v1/news?kind=article&perPage=10", ["news", "--kind", "article", "--per-page", "10"]),
        ]
        for (target, arguments) in cases { try assertSame(target, arguments) }

        // One item: the same document, its HTML made safe for a browser (compared apart).
        let item = try XCTUnwrap(try server.get("/api/v1/news/\(news)").json as? [String: Any])
        let cli = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try cliJSON(["news", "show", news, "--width", "80"]).utf8))
                as? [String: Any])
        XCTAssertEqual(item["text"] as? String, cli["text"] as? String)
        var webItem = try XCTUnwrap(item["item"] as? [String: Any]), cliItem = try XCTUnwrap(cli["item"] as? [String: Any])
        XCTAssertNotNil(webItem.removeValue(forKey: "bodyHTML"))
        XCTAssertNotNil(cliItem.removeValue(forKey: "bodyHTML"))
        XCTAssertEqual(NSDictionary(dictionary: webItem), NSDictionary(dictionary: cliItem))
    }

    func testLanguageFromTheQueryOrAcceptLanguage() throws {
        try assertSame("/api/v1/products?lang=ru&perPage=10", ["products", "--lang", "ru", "--per-page", "10"])
        try assertSame(
            "/api/v1/cultures?perPage=10", ["cultures", "--lang", "ru", "--per-page", "10"],
            headers: ["Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"])
        // Weights count: English is preferred here although Russian comes first.
        try assertSame(
            "/api/v1/cultures?perPage=10", ["cultures", "--lang", "en", "--per-page", "10"],
            headers: ["Accept-Language": "ru;q=0.4, en;q=0.8"])
        try assertSame(
            "/api/v1/pests?perPage=10", ["pests", "--lang", "kk", "--per-page", "10"],
            headers: ["Accept-Language": "kk"])
        // lang= wins over the header.
        try assertSame(
            "/api/v1/pests?lang=en&perPage=10", ["pests", "--lang", "en", "--per-page", "10"],
            headers: ["Accept-Language": "ru"])
        // A language nobody has: English, as the CLI does with LANG=C.
        try assertSame("/api/v1/regions?perPage=10", ["regions", "--per-page", "10"], headers: ["Accept-Language": "ja-JP"])
    }

    func testPaginationEdges() throws {
        let all = try XCTUnwrap(try server.get("/api/v1/products?all=1").json as? [String: Any])
        let total = try XCTUnwrap(all["total"] as? Int)
        XCTAssertGreaterThan(total, 3)
        XCTAssertEqual((all["items"] as? [Any])?.count, total)
        XCTAssertEqual(all["perPage"] as? Int, total)
        try assertSame("/api/v1/products?all=true", ["products", "--all"])

        // The default page size is 20.
        let first = try XCTUnwrap(try server.get("/api/v1/products").json as? [String: Any])
        XCTAssertEqual(first["perPage"] as? Int, 20)
        XCTAssertEqual(first["page"] as? Int, 1)
        XCTAssertEqual((first["items"] as? [Any])?.count, min(20, total))

        // The last page holds the remainder; one past it is empty with the same total.
        let perPage = 3, lastPage = (total + perPage - 1) / perPage
        try assertSame(
            "/api/v1/products?page=\(lastPage)&perPage=\(perPage)",
            ["products", "--page", "\(lastPage)", "--per-page", "\(perPage)"])
        let last = try XCTUnwrap(try server.get("/api/v1/products?page=\(lastPage)&perPage=\(perPage)").json as? [String: Any])
        XCTAssertEqual((last["items"] as? [Any])?.count, total - (lastPage - 1) * perPage)
        let past = try XCTUnwrap(
            try server.get("/api/v1/products?page=\(lastPage + 1)&perPage=\(perPage)").json as? [String: Any])
        XCTAssertEqual((past["items"] as? [Any])?.count, 0)
        XCTAssertEqual(past["total"] as? Int, total)
        try assertSame(
            "/api/v1/products?page=\(lastPage + 1)&perPage=\(perPage)",
            ["products", "--page", "\(lastPage + 1)", "--per-page", "\(perPage)"])
        let one = try XCTUnwrap(try server.get("/api/v1/products?perPage=1&page=2").json as? [String: Any])
        XCTAssertEqual(
            (one["items"] as? [[String: Any]])?.first?["id"] as? String,
            ((all["items"] as? [[String: Any]])?[1])?["id"] as? String)

        for bad in ["page=0", "perPage=0", "page=-1", "perPage=abc", "page=1.5"] {
            let answer = try server.get("/api/v1/products?\(bad)")
            XCTAssertEqual(answer.status, 400, bad)
            let error = try XCTUnwrap((answer.json as? [String: Any])?["error"] as? [String: Any], answer.body)
            XCTAssertEqual(error["exitStatus"] as? Int, 64, bad)
            XCTAssertEqual(error["code"] as? String, "badRequest", bad)
        }
    }

    /// A bad request is answered in the request's language and names the query parameter a
    /// browser or a script sent, never the CLI's flag; the CLI names its flag in its language.
    /// Expected words from Localizable/ru.json ("error.RequestError.*").
    func testBadRequestsNameQueryParametersInTheRequestsLanguage() throws {
        let letter = try server.get("/api/v1/products?letter=ab&lang=ru")
        XCTAssertEqual(letter.status, 400, letter.body)
        let error = try XCTUnwrap((letter.json as? [String: Any])?["error"] as? [String: Any], letter.body)
        XCTAssertEqual(error["message"] as? String, "letter=: нужна одна буква или цифра, а не «ab»")
        let cli = try server.cli(["--catalog", Self.catalog, "--lang", "ru", "products", "--letter", "ab"])
        XCTAssertEqual(cli.status, 64)
        XCTAssertEqual(cli.stderr, "agro: --letter: нужна одна буква или цифра, а не «ab»\n")

        let place = try server.get("/api/v1/weather?at=51,71&region=KZ-10&lang=en")
        XCTAssertEqual(place.status, 400, place.body)
        let placeError = try XCTUnwrap((place.json as? [String: Any])?["error"] as? [String: Any], place.body)
        XCTAssertEqual(placeError["message"] as? String, "give either at=LAT,LON or region=ID, not both")

        let page = try server.get("/api/v1/products?perPage=0&lang=ru")
        let pageError = try XCTUnwrap((page.json as? [String: Any])?["error"] as? [String: Any], page.body)
        XCTAssertEqual(pageError["message"] as? String, "perPage=: нужно число не меньше 1, а не «0»")
    }

    func testErrorsCarryTheCLIsMessageAndStatus() throws {
        // Several pests match "rust": 409 with the candidates; the CLI exits 4 with the same message.
        let ambiguous = try server.get("/api/v1/products?pest=rust")
        XCTAssertEqual(ambiguous.status, 409, ambiguous.body)
        let error = try XCTUnwrap((ambiguous.json as? [String: Any])?["error"] as? [String: Any])
        XCTAssertEqual(error["exitStatus"] as? Int, 4)
        let candidates = try XCTUnwrap(error["candidates"] as? [[String: Any]])
        XCTAssertGreaterThan(candidates.count, 1)
        let cli = try server.cli(["--catalog", Self.catalog, "products", "--pest", "rust"])
        XCTAssertEqual(cli.status, 4)
        XCTAssertEqual("agro: " + (error["message"] as? String ?? "") + "\n", cli.stderr)
        for candidate in candidates {
            XCTAssertTrue(cli.stderr.contains("(\(candidate["id"] as? String ?? "?"))"), "\(candidate)")
        }

        // Nothing matches: 404 with the closest names, exit status 3.
        let unknown = try server.get("/api/v1/product/septorria%20killer%20xyz")
        XCTAssertEqual(unknown.status, 404)
        let missing = try XCTUnwrap((unknown.json as? [String: Any])?["error"] as? [String: Any])
        XCTAssertEqual(missing["exitStatus"] as? Int, 3)
        XCTAssertNotNil(missing["suggestions"] as? [Any])
        let cliMissing = try server.cli(["--catalog", Self.catalog, "product", "septorria killer xyz"])
        XCTAssertEqual(cliMissing.status, 3)
        XCTAssertEqual("agro: " + (missing["message"] as? String ?? "") + "\n", cliMissing.stderr)

        let badStage = try server.get("/api/v1/scheme/winter%20wheat?stage=120")
        XCTAssertEqual(badStage.status, 400)
        let badKind = try server.get("/api/v1/pests?kind=dragon")
        XCTAssertEqual(badKind.status, 400)
        XCTAssertEqual(try server.get("/api/v1/search").status, 400)
        XCTAssertEqual(try server.get("/api/v1/uses").status, 400)
        XCTAssertEqual(try server.get("/api/v1/uses?culture=wheat&sort=price").status, 400)
        XCTAssertEqual(try server.get("/api/v1/contacts?near=91,0").status, 400)
        let nowhere = try server.get("/api/v1/no-such-thing")
        XCTAssertEqual(nowhere.status, 404)
        XCTAssertEqual(((nowhere.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String, "noSuchEndpoint")
    }

    func testCatalogReportsIdentityAndVersion() throws {
        let info = try XCTUnwrap(try server.get("/api/v1/catalog").json as? [String: Any])
        let cli = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try cliJSON(["catalog", "info"]).utf8)) as? [String: Any])
        XCTAssertEqual(NSDictionary(dictionary: info), NSDictionary(dictionary: try XCTUnwrap(cli["info"] as? [String: Any])))
        XCTAssertNotNil(info["identity"] as? String)
        XCTAssertNotNil(info["version"] as? Int)
    }

    /// Every path openapi.json documents answers, and every path the server routes is documented.
    func testOpenAPIDescribesTheRoutes() throws {
        let answer = try server.get("/api/v1/openapi.json")
        XCTAssertEqual(answer.status, 200)
        let document = try XCTUnwrap(answer.json as? [String: Any])
        XCTAssertEqual((document["openapi"] as? String)?.hasPrefix("3."), true)
        let paths = try XCTUnwrap(document["paths"] as? [String: Any])
        XCTAssertEqual(Set(paths.keys), Set(APIRoutes.paths))
        let examples = [
            "{id}": try firstID("/api/v1/products?perPage=1"), "{culture}": "winter%20wheat",
            "{region}": try firstID("/api/v1/regions?perPage=1"),
        ]
        // The journal's paths answer with `--journal` or `--farm-journal` only: JournalAPITests and
        // FarmJournalAPITests ask them.
        let journal = Set(APIRoutes.journalPaths + APIRoutes.farmPaths)
        for (path, value) in paths where !path.contains("weather") && !journal.contains(path) {
            guard let operation = (value as? [String: Any])?["get"] as? [String: Any] else {
                // The plan check takes its plan as a POST body: WebFieldPagesTests posts plans.
                XCTAssertNotNil((value as? [String: Any])?["post"], path)
                continue
            }
            var target = path
            for (placeholder, example) in examples { target = target.replacingOccurrences(of: placeholder, with: example) }
            if path == "/api/v1/news/{id}" { target = "/api/v1/news/" + (try firstID("/api/v1/news?perPage=1")) }
            if path == "/api/v1/substance/{id}" { target = "/api/v1/substance/" + (try firstID("/api/v1/substances?perPage=1")) }
            if path == "/api/v1/culture/{id}" { target = "/api/v1/culture/" + (try firstID("/api/v1/cultures?perPage=1")) }
            if path == "/api/v1/pest/{id}" { target = "/api/v1/pest/" + (try firstID("/api/v1/pests?perPage=1")) }
            // Required query parameters get a plausible value.
            let required = ((operation["parameters"] as? [[String: Any]]) ?? [])
                .filter { $0["in"] as? String == "query" && $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
            let values = [
                "q": "wheat", "near": "51.17,71.45", "product": "tebuconazole-250-ec", "dose": "0.75", "area": "10",
                "water": "200", "tank": "1000",
            ]
            if !required.isEmpty { target += "?" + required.map { "\($0)=\(values[$0] ?? "x")" }.joined(separator: "&") }
            // `uses` needs a pest or a culture (either one, so neither is required alone).
            if path == "/api/v1/uses" { target += "?culture=winter%20wheat" }
            let response = try server.get(target)
            XCTAssertEqual(response.status, 200, "\(target): \(response.body.prefix(300))")
        }
    }
}
