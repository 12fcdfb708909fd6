import AgroContent
import AgroDomain
import AgroStore
import XCTest

/// Checks the demo content in Database/content against the requirements for the bundled
/// catalog, reading the JSON sources directly (not through the program).
final class BundledCatalogTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let content = root.appendingPathComponent("Database/content")

    func entries(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.content.appendingPathComponent(file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    func testTheCommittedCatalogIsBuiltFromTheCommittedSources() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agro-bundled-\(UUID()).sqlite").path
        try ContentBuilder(sourceDirectory: Self.content).build(to: out)
        let committed = FileManager.default.contents(atPath: Self.root.appendingPathComponent("Database/catalog.sqlite").path)
        XCTAssertEqual(
            FileManager.default.contents(atPath: out), committed,
            "Database/catalog.sqlite is stale: run agro catalog build Database/content --out Database/catalog.sqlite")
    }

    func testTheSchemaFileMatchesTheProgram() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Database/schema.sql"), encoding: .utf8)
        XCTAssertEqual(file, CatalogSchema.script, "Database/schema.sql is stale: run agro catalog schema > Database/schema.sql")
    }

    func testVolumes() throws {
        let cultures = try entries("cultures.json")
        XCTAssertGreaterThanOrEqual(cultures.filter { !(($0["stages"] as? [Any]) ?? []).isEmpty }.count, 12)
        XCTAssertGreaterThanOrEqual(try entries("pests.json").count, 60)
        XCTAssertGreaterThanOrEqual(try entries("products.json").count, 40)
        XCTAssertGreaterThanOrEqual(try entries("uses.json").count, 200)
        XCTAssertGreaterThanOrEqual(Set(try entries("schemes.json").compactMap { $0["culture"] as? String }).count, 6)
        XCTAssertGreaterThanOrEqual(try entries("news.json").count, 12)
        let regions = try entries("regions.json")
        XCTAssertEqual(regions.filter { $0["kind"] as? String == "region" }.count, 17)
        XCTAssertEqual(regions.filter { $0["kind"] as? String == "city" }.count, 3)
        for region in regions {
            let centre = try XCTUnwrap(region["centre"] as? [String: Any])
            let lat = try XCTUnwrap(centre["lat"] as? Double), lon = try XCTUnwrap(centre["lon"] as? Double)
            XCTAssertTrue((40.5...55.5).contains(lat) && (46.5...87.5).contains(lon), "\(region["id"] ?? "") lies in Kazakhstan")
        }
    }

    func testContactsArePlainlyFictional() throws {
        for file in ["representatives.json", "distributors.json"] {
            for entry in try entries(file) {
                if let email = entry["email"] as? String { XCTAssertTrue(email.hasSuffix("@example.com"), email) }
            }
        }
        let readme = try String(contentsOf: Self.content.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("demo"))
        XCTAssertTrue(readme.contains("no substitute for the label"))
    }

    /// Every name and title has ru and en (the two complete languages of the demo).
    func testEveryNameHasRussianAndEnglish() throws {
        for file in ["cultures.json", "pests.json", "products.json", "substances.json", "regions.json", "news.json"] {
            for entry in try entries(file) {
                let text = try XCTUnwrap((entry["name"] ?? entry["title"]) as? [String: String], "\(file) \(entry["id"] ?? "")")
                XCTAssertNotNil(text["ru"], "\(file) \(entry["id"] ?? "") has ru")
                XCTAssertNotNil(text["en"], "\(file) \(entry["id"] ?? "") has en")
            }
        }
    }

    /// Wherever the catalog content has a Russian text it has a Kazakh one, in every file but
    /// the news (their own test below): names, descriptions, notes, statements, addresses.
    func testEveryRussianTextHasKazakh() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.content.path)
            .filter { $0.hasSuffix(".json") && $0 != "news.json" }.sorted()
        XCTAssertTrue(files.contains("uses.json") && files.contains("hazard-statements.json"), "\(files)")
        var russian = 0
        var missing: [String] = []
        for file in files {
            let texts = try localizedTexts(file)
            russian += texts.filter { $0.text["ru"] != nil }.count
            missing += Self.withoutKazakh(texts)
        }
        // The demo has about 1400 Russian texts outside the news: a walk that found none proves nothing.
        XCTAssertGreaterThan(russian, 1000)
        XCTAssertEqual(missing, [], "\(missing.count) Russian texts have no Kazakh")
    }

    /// The news titles and summaries in Kazakh too (their HTML bodies are checked by the news tests).
    func testEveryRussianNewsTextHasKazakh() throws {
        let texts = try localizedTexts("news.json")
        XCTAssertGreaterThanOrEqual(texts.filter { $0.text["ru"] != nil }.count, 24)
        let missing = Self.withoutKazakh(texts)
        XCTAssertEqual(missing, [], "\(missing.count) Russian news texts have no Kazakh")
    }

    /// A Kazakh text is not the Russian one copied: once it has four words, it uses letters
    /// only Kazakh has. Names may equal the Russian (active substances, people, brands).
    func testKazakhTextsAreWrittenInKazakh() throws {
        let kazakhLetters = Set("әғқңөұүһіӘҒҚҢӨҰҮҺІ")
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.content.path).filter({ $0.hasSuffix(".json") }) {
            for (path, text) in try localizedTexts(file) where !path.hasSuffix(".name") && !path.hasSuffix(".title") {
                guard let kk = text["kk"], kk.split(separator: " ").count >= 4 else { continue }
                XCTAssertTrue(kk.contains { kazakhLetters.contains($0) }, "\(path): \(kk)")
                XCTAssertNotEqual(kk, text["ru"], "\(path) copies the Russian")
            }
        }
    }

    /// A pest's Kazakh name does not borrow a word of its Russian name (дурнишник, ежовник,
    /// пьявица, кузька were): only the loanwords of Latin genus and disease names that Kazakh
    /// agronomic texts print as Russian does (glossary.md, "pest names kept as loans").
    func testKazakhPestNamesUseNoRussianWords() throws {
        let sharedLoanwords: Set = [
            "альтернариоз", "амброзия", "гельминтоспориоз", "кохия", "латук", "пиренофороз", "стагоноспороз",
            "фомопсис",
        ]
        func words(_ text: String) -> Set<String> {
            Set(text.lowercased().split { !$0.isLetter }.map(String.init))
        }
        let names = try localizedTexts("pests.json").filter { $0.path.hasSuffix(".name") }
        XCTAssertGreaterThan(names.count, 90)
        for (path, text) in names {
            let kk = try XCTUnwrap(text["kk"], path)
            let ru = try XCTUnwrap(text["ru"], path)
            XCTAssertEqual(words(kk).intersection(words(ru)).subtracting(sharedLoanwords), [], "\(path): \(kk)")
        }
    }

    /// Every localized text of a content file (an object whose keys are all locales of the
    /// catalog and whose values are all strings), with where it is: `file id.key.key[i]`.
    func localizedTexts(_ file: String) throws -> [(path: String, text: [String: String])] {
        let locales = Set(try XCTUnwrap(catalogHeader()["locales"] as? [String]))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.content.appendingPathComponent(file)))
        var found: [(String, [String: String])] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if !object.isEmpty, Set(object.keys).isSubset(of: locales), let text = object as? [String: String] {
                    found.append((path, text))
                    return
                }
                let id = (object["id"] ?? object["code"]).map { " \($0)" } ?? ""
                for (key, child) in object { walk(child, path + id + "." + key) }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, "\(path)[\(index)]") }
            }
        }
        walk(json, file)
        return found
    }

    func catalogHeader() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.content.appendingPathComponent("catalog.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The places of the texts that have Russian and no (or a blank) Kazakh.
    static func withoutKazakh(_ texts: [(path: String, text: [String: String])]) -> [String] {
        texts.filter { $0.text["ru"] != nil && ($0.text["kk"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
            .map(\.path).sorted()
    }
}
