import Foundation
import XCTest

/// The catalog commands end to end, through the built binary and the bundled catalog.
/// Expected answers are computed here from the JSON sources in Database/content.
final class CatalogCommandsTests: XCTestCase {
    let cli = CLIRunner()
    static let content = CLIRunner.root.appendingPathComponent("Database/content")

    static func entries(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: content.appendingPathComponent(file))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// The culture and every group above it, from cultures.json.
    static func ancestry(_ culture: String) throws -> Set<String> {
        var parents: [String: [String]] = [:]
        for entry in try entries("cultures.json") { parents[entry["id"] as! String] = entry["parents"] as? [String] ?? [] }
        var found: Set<String> = [culture], stack = [culture]
        while let next = stack.popLast() {
            for parent in parents[next] ?? [] where found.insert(parent).inserted { stack.append(parent) }
        }
        return found
    }

    /// Product ids with a use matching the pest and the culture (or a group above it).
    static func expectedProducts(pest: String?, culture: String?) throws -> Set<String> {
        let cultures = try culture.map(ancestry)
        var ids = Set<String>()
        for use in try entries("uses.json") {
            let pests = (use["pests"] as? [Any] ?? []).compactMap {
                ($0 as? String) ?? (($0 as? [String: Any])?["pest"] as? String)
            }
            let useCultures = Set(use["cultures"] as? [String] ?? [])
            if let pest, !pests.contains(pest) { continue }
            if let cultures, useCultures.isDisjoint(with: cultures) { continue }
            ids.insert(use["product"] as! String)
        }
        return ids
    }

    func ids(_ document: [String: Any]) -> Set<String> {
        Set((document["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
    }

    func testProductsListIsAPageDocument() throws {
        let document = try cli.json(["products", "--per-page", "7", "--page", "2"])
        XCTAssertEqual(document["page"] as? Int, 2)
        XCTAssertEqual(document["perPage"] as? Int, 7)
        XCTAssertEqual(document["total"] as? Int, try Self.entries("products.json").count)
        let items = try XCTUnwrap(document["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 7)
        for item in items {
            XCTAssertNotNil(item["id"] as? String)
            XCTAssertNotNil(item["name"] as? String)
            XCTAssertTrue(item.keys.contains("registrationNumber"), "\(item)")
        }
    }

    func testCultureFilterIncludesGroups() throws {
        let expected = try Self.expectedProducts(pest: nil, culture: "winter-wheat")
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(ids(try cli.json(["products", "--culture", "winter wheat", "--all"])), expected)
        // The same culture named in Russian, in another word order.
        XCTAssertEqual(ids(try cli.json(["products", "--culture", "пшеница озимая", "--all"])), expected)
    }

    func testPestAndCultureTogether() throws {
        let pairs = [
            ("zymoseptoria-tritici", "winter-wheat"), ("avena-fatua", "spring-barley"), ("leptinotarsa-decemlineata", "potato"),
        ]
        let pests = Set(try Self.entries("pests.json").compactMap { $0["id"] as? String })
        for (pest, culture) in pairs {
            // Every pair must be in the content and have products: an empty answer on both
            // sides would prove nothing.
            XCTAssertTrue(pests.contains(pest), "\(pest) is in pests.json")
            let expected = try Self.expectedProducts(pest: pest, culture: culture)
            XCTAssertFalse(expected.isEmpty, "\(pest) on \(culture) has products in uses.json")
            let found = ids(try cli.json(["products", "--pest", pest, "--culture", culture, "--all"]))
            XCTAssertEqual(found, expected, "\(pest) on \(culture)")
        }
    }

    func testLettersAndLetterFilter() throws {
        let letters = try cli.json(["products", "--letters", "--all", "--lang", "en"])
        let all = (letters["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let names = try Self.entries("products.json").compactMap { ($0["name"] as? [String: String])?["en"] }
        let expected = Set(
            names.compactMap { name in
                name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                    .first { $0.isLetter || $0.isNumber }.map { String($0).uppercased() }
            })
        XCTAssertEqual(Set(all), expected)
        let withT = try cli.json(["products", "--letter", "t", "--all", "--lang", "en"])
        XCTAssertEqual(withT["total"] as? Int, names.filter { $0.uppercased().hasPrefix("T") }.count)
    }

    func testCSVHasAHeaderAndOneLinePerItem() throws {
        let result = try cli.run(["products", "--format", "csv", "--all"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.lines.count, try Self.entries("products.json").count + 1)
    }

    func testTablePagesHaveAFooter() throws {
        let total = try Self.entries("products.json").count
        let pages = (total + 9) / 10
        let result = try cli.run(["products", "--per-page", "10", "--page", "2", "--lang", "en"])
        XCTAssertEqual(result.lines.last, "Page 2 of \(pages) · \(total) items")
        // One item is one item, in each language's own form.
        XCTAssertEqual(try cli.run(["favorites", "add", "glyphosate-360-sl"]).status, 0)
        XCTAssertEqual(try cli.run(["favorites", "list", "--lang", "en"]).lines.last, "Page 1 of 1 · 1 item")
        XCTAssertEqual(try cli.run(["favorites", "list", "--lang", "kk"]).lines.last, "1-бет, барлығы 1 бет · 1 жазба")
        let past = try cli.run(["products", "--per-page", "10", "--page", "\(pages + 3)", "--lang", "en"])
        XCTAssertEqual(past.status, 0)
        XCTAssertTrue(past.stdout.contains("past the end"), past.stdout)
        let pastJSON = try cli.json(["products", "--per-page", "10", "--page", "\(pages + 3)"])
        XCTAssertEqual((pastJSON["items"] as? [Any])?.count, 0)
        XCTAssertEqual(pastJSON["total"] as? Int, total)
        let empty = try cli.run(["products", "--pest", "heterodera-schachtii", "--lang", "en"])
        XCTAssertEqual(empty.status, 0)
        XCTAssertTrue(empty.stdout.contains("Nothing found."), empty.stdout)
    }

    func testUnknownAndAmbiguousNames() throws {
        let unknown = try cli.run(["products", "--culture", "wheet", "--lang", "en"])
        XCTAssertEqual(unknown.status, 3)
        XCTAssertTrue(unknown.stderr.contains("closest"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("(wheat)"), unknown.stderr)
        XCTAssertEqual(unknown.stderr.lines.count, 1)
        let ambiguous = try cli.run(["products", "--pest", "rust", "--lang", "en"])
        XCTAssertEqual(ambiguous.status, 4, ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("matches several pests"), ambiguous.stderr)
        XCTAssertEqual(ambiguous.stderr.lines.count, 1)
    }

    func testBadUsageExits64() throws {
        for arguments in [
            ["products", "--page", "0"], ["products", "--per-page", "-1"], ["scheme", "wheat", "--stage", "120"],
            ["products", "--format", "xml"], ["products", "--letter", "ab"], ["nonsense"],
        ] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Fatal error"))
        }
    }

    func testMissingAndCorruptCatalogsSaySoAndHowToRepair() throws {
        let missing = try cli.run(["--catalog", "/nonexistent/c.sqlite", "products"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("agro catalog build"), missing.stderr)
        let junk = cli.home.appendingPathComponent("junk.sqlite")
        try Data(repeating: 0x42, count: 10_000).write(to: junk)
        let corrupt = try cli.run(["--catalog", junk.path, "products"])
        XCTAssertEqual(corrupt.status, 66)
        XCTAssertEqual(corrupt.stderr.lines.count, 1, corrupt.stderr)
        XCTAssertTrue(corrupt.stderr.contains("unusable"), corrupt.stderr)
    }

    func testInjectionAttemptsInEveryTextArgument() throws {
        let catalog = CLIRunner.root.appendingPathComponent("Database/catalog.sqlite")
        let before = try Data(contentsOf: catalog)
        let attempts = ["'; DROP TABLE products; --", "\" OR 1=1 --", "%", "_", "x') OR ('1'='1", "NEAR(\"a\" b)*"]
        for text in attempts {
            for arguments in [
                ["products", "--pest", text], ["products", "--culture", text], ["products", "--substance", text],
                ["products", "--company", text], ["products", "--category", text], ["product", text],
                ["pest", text], ["culture", text], ["substance", text], ["scheme", text], ["contacts", text],
            ] {
                let result = try cli.run(arguments)
                XCTAssertTrue([3, 4, 64].contains(result.status), "\(arguments): \(result.status) \(result.stderr)")
                XCTAssertEqual(result.stderr.lines.count, 1, "\(arguments)")
            }
            let search = try cli.run(["search", text])
            XCTAssertEqual(search.status, 0, search.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: catalog), before, "the catalog is never written")
        XCTAssertEqual(try cli.json(["products", "--all"])["total"] as? Int, try Self.entries("products.json").count)
    }

    func testProductCardByRegistrationNumber() throws {
        let product = try XCTUnwrap(try Self.entries("products.json").first { $0["registration"] != nil })
        let number = try XCTUnwrap((product["registration"] as? [String: Any])?["number"] as? String)
        let card = try cli.json(["product", number])
        XCTAssertEqual(card["id"] as? String, product["id"] as? String)
        let uses = try XCTUnwrap(card["uses"] as? [[String: Any]])
        let expected = try Self.entries("uses.json").filter { $0["product"] as? String == product["id"] as? String }
        XCTAssertEqual(Set(uses.compactMap { $0["id"] as? String }), Set(expected.compactMap { $0["id"] as? String }))
    }

    func testPictogramsAreNamedFromTheAssets() throws {
        let product = try XCTUnwrap(
            try Self.entries("products.json").first {
                (($0["hazard"] as? [String: Any])?["pictograms"] as? [String])?.isEmpty == false
            })
        let code = try XCTUnwrap(((product["hazard"] as? [String: Any])?["pictograms"] as? [String])?.first)
        let assets =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: CLIRunner.root.appendingPathComponent("Assets/ghs-pictograms.json")))
            as? [String: [String: String]]
        let name = try XCTUnwrap(assets?[code]?["en"])
        let card = try cli.run(["product", product["id"] as! String, "--lang", "en"])
        XCTAssertTrue(card.stdout.contains("\(code) (\(name))"), card.stdout)
    }

    /// The card writes the formulation as the reader's language does: in Russian and Kazakh the
    /// abbreviation the product's own name ends with ("... 250 г/л КЭ"), then the code; one
    /// product of each formulation. An expired registration's date is written 30.06.2025.
    func testFormulationAndExpiryInTheReadersLanguage() throws {
        var seen = Set<String>()
        for product in try Self.entries("products.json") {
            guard let code = product["formulation"] as? String, seen.insert(code).inserted else { continue }
            let names = try XCTUnwrap(product["name"] as? [String: String])
            for locale in ["ru", "kk"] {
                let abbreviation = try XCTUnwrap(names[locale]?.split(separator: " ").last)
                let card = try cli.run(["product", product["id"] as! String, "--lang", locale]).stdout
                let line = try XCTUnwrap(card.split(separator: "\n").first { $0.contains(", \(code))") }, card)
                XCTAssertTrue(line.contains(" \(abbreviation) ("), "\(code) in \(locale): \(line)")
            }
            let english = try cli.run(["product", product["id"] as! String, "--lang", "en"]).stdout
            XCTAssertTrue(english.contains(" \(code) ("), english)
        }
        XCTAssertGreaterThan(seen.count, 5)

        let expired = try XCTUnwrap(
            try Self.entries("products.json").first {
                (($0["registration"] as? [String: Any])?["expires"] as? String ?? "9999") < "2026-01-01"
            })
        let iso = try XCTUnwrap((expired["registration"] as? [String: Any])?["expires"] as? String)
        let parts = iso.split(separator: "-")
        let card = try cli.run(["product", expired["id"] as! String, "--lang", "ru"]).stdout
        XCTAssertTrue(card.contains("\(parts[2]).\(parts[1]).\(parts[0]) (срок истёк)"), card)
        XCTAssertFalse(card.contains(iso), card)
    }

    /// The culture card's growth stages and scheme stages start their names in one column,
    /// whatever the width of their BBCH range ("BBCH 0–9" beside "BBCH 10–19").
    func testCultureCardAlignsItsStages() throws {
        let card = try cli.run(["culture", "winter-wheat", "--lang", "ru"]).stdout
        let starts = card.split(separator: "\n").filter { $0.hasPrefix("  BBCH ") }.map { line in
            line.distance(from: line.startIndex, to: line.range(of: #"^  BBCH \S+ +"#, options: .regularExpression)!.upperBound)
        }
        XCTAssertGreaterThan(starts.count, 10, card)
        XCTAssertEqual(Set(starts).count, 1, card)
    }

    /// Every name in the assets of names per code is there in each interface language, so a
    /// Kazakh reader never gets the Russian one by fallback.
    func testAssetNamesInEveryLanguage() throws {
        for file in ["ghs-pictograms.json", "formulations.json"] {
            let assets = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: CLIRunner.root.appendingPathComponent("Assets/\(file)")))
                    as? [String: [String: String]])
            XCTAssertFalse(assets.isEmpty, file)
            for (code, names) in assets {
                XCTAssertEqual(Set(names.keys), ["en", "ru", "kk"], "\(file): \(code)")
            }
        }
    }

    func testInterfaceLanguageFromTheEnvironmentAndFallback() throws {
        let russian = try cli.run(["products", "--per-page", "2"], extraEnvironment: ["LANG": "ru_RU.UTF-8"])
        XCTAssertTrue(russian.stdout.hasPrefix("Название"), russian.stdout)
        // kk has its own words for the columns (Russian filled in while Kazakh was partial).
        let kazakh = try cli.run(["products", "--per-page", "2", "--lang", "kk"])
        XCTAssertTrue(kazakh.stdout.hasPrefix("Атауы"), kazakh.stdout)
        XCTAssertTrue(kazakh.stdout.contains("Тіркеу"), kazakh.stdout)
        XCTAssertFalse(kazakh.stdout.contains("Регистрация"), kazakh.stdout)
        let flagWins = try cli.run(["products", "--per-page", "2", "--lang", "en"], extraEnvironment: ["AGRO_LANG": "ru"])
        XCTAssertTrue(flagWins.stdout.hasPrefix("Name"), flagWins.stdout)
        let agroLang = try cli.run(
            ["products", "--per-page", "2"], extraEnvironment: ["AGRO_LANG": "ru", "LANG": "en_US.UTF-8"])
        XCTAssertTrue(agroLang.stdout.hasPrefix("Название"), agroLang.stdout)
    }

    /// docs/cli.md, "Files": `config.json` may set `lang`; the flag and `AGRO_LANG` take precedence.
    func testTheConfigFileSetsTheLanguage() throws {
        let runner = CLIRunner()
        try runner.writeConfig(#"{"lang": "ru"}"#)
        let configured = try runner.run(["products", "--per-page", "2"])
        XCTAssertTrue(configured.stdout.hasPrefix("Название"), configured.stdout)
        let flagWins = try runner.run(["products", "--per-page", "2", "--lang", "en"])
        XCTAssertTrue(flagWins.stdout.hasPrefix("Name"), flagWins.stdout)
        let environmentWins = try runner.run(["products", "--per-page", "2"], extraEnvironment: ["AGRO_LANG": "kk"])
        XCTAssertTrue(environmentWins.stdout.hasPrefix("Атауы"), environmentWins.stdout)
    }

    func testSchemeTimelineAndStageFilter() throws {
        let schemes = try Self.entries("schemes.json")
        let scheme = try XCTUnwrap(schemes.first { $0["culture"] as? String == "winter-wheat" } ?? schemes.first)
        let culture = try XCTUnwrap(scheme["culture"] as? String)
        let stages = try XCTUnwrap(scheme["stages"] as? [[String: Any]])
        let result = try cli.run(["scheme", culture, "--lang", "en"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("BBCH"))
        for stage in stages {
            let name = try XCTUnwrap((stage["name"] as? [String: String])?["en"])
            XCTAssertTrue(result.stdout.contains(name), name)
        }
        // Only the stages that include BBCH 31.
        let at31 = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(try cli.run(["scheme", culture, "--stage", "31", "--format", "json"]).stdout.utf8)) as? [[String: Any]]
        )
        let expected = stages.filter { stage in
            let bbch = stage["bbch"] as? [Int] ?? [(stage["bbch"] as? Int) ?? -1, (stage["bbch"] as? Int) ?? -1]
            return bbch[0] <= 31 && 31 <= bbch[1]
        }.count
        XCTAssertEqual((at31.first?["stages"] as? [Any])?.count, expected)
    }

    /// schemes.json: scheme-maize's pre-emergence stage is BBCH 0-8; `number.range` is an en
    /// dash in ru.json and kk.json, none in en.json (a hyphen).
    func testSchemeStagesUseTheLanguagesRangeSign() throws {
        let russian = try cli.run(["scheme", "maize", "--lang", "ru"])
        XCTAssertEqual(russian.status, 0, russian.stderr)
        XCTAssertTrue(russian.stdout.contains("(BBCH 0–8)"), russian.stdout)
        XCTAssertFalse(russian.stdout.contains("BBCH 0-8"), russian.stdout)
        let kazakh = try cli.run(["scheme", "maize", "--lang", "kk"])
        XCTAssertTrue(kazakh.stdout.contains("(BBCH 0–8)"), kazakh.stdout)
        let english = try cli.run(["scheme", "maize", "--lang", "en"])
        XCTAssertTrue(english.stdout.contains("(BBCH 0-8)"), english.stdout)
        XCTAssertFalse(english.stdout.contains("BBCH 0–8"), english.stdout)
        // The culture card lists the same stage.
        let card = try cli.run(["culture", "maize", "--lang", "ru"])
        XCTAssertTrue(card.stdout.contains("BBCH 0–8  "), card.stdout)
        // JSON keeps the numbers.
        let json = try cli.run(["scheme", "maize", "--format", "json", "--lang", "ru"]).stdout
        XCTAssertFalse(json.contains("BBCH 0–8"), json)
    }

    func testCultureTreeAndSearch() throws {
        let tree = try cli.run(["cultures", "--all", "--lang", "en"])
        XCTAssertTrue(tree.stdout.contains("└─ "), tree.stdout)
        let search = try cli.json(["search", "TEBUCON", "--lang", "ru"])
        let kinds = (search["items"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        XCTAssertTrue(kinds.contains("substance"))
        XCTAssertTrue(kinds.contains("product"))
        let nothing = try cli.run(["search", "\"*()", "--lang", "en"])
        XCTAssertEqual(nothing.status, 0)
    }

    /// EPPO codes: the search finds a culture by its code in any case; the cards show it, and
    /// their JSON carries it as `eppoCode`.
    func testEPPOCodesOnCardsAndInSearch() throws {
        for text in ["TRZAW", "trzaw"] {
            let search = try cli.json(["search", text, "--lang", "en"])
            let items = search["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(items.map { "\($0["kind"] ?? ""):\($0["id"] ?? "")" }, ["culture:winter-wheat"], text)
        }
        let culture = try cli.json(["culture", "winter-wheat", "--lang", "en"])
        XCTAssertEqual((culture["culture"] as? [String: Any])?["eppoCode"] as? String, "TRZAW")
        let pest = try cli.json(["pest", "puccinia-striiformis", "--lang", "en"])
        XCTAssertEqual((pest["pest"] as? [String: Any])?["eppoCode"] as? String, "PUCCST")
        let group = try cli.json(["culture", "cereals", "--lang", "en"])
        XCTAssertNil((group["culture"] as? [String: Any])?["eppoCode"], "a group without a code has no key")

        let card = try cli.run(["culture", "TRZAS", "--lang", "ru"])
        XCTAssertEqual(card.status, 0, card.stderr)
        XCTAssertTrue(card.stdout.contains("Пшеница яровая"), card.stdout)
        XCTAssertNotNil(card.stdout.range(of: #"Код EPPO +TRZAS"#, options: .regularExpression), card.stdout)
        let pestCard = try cli.run(["pest", "zymoseptoria-tritici", "--lang", "kk"]).stdout
        XCTAssertNotNil(pestCard.range(of: #"EPPO коды +SEPTTR"#, options: .regularExpression), pestCard)
    }

    func testRegionsAndContacts() throws {
        let regions = try cli.json(["regions", "--all"])
        XCTAssertEqual(regions["total"] as? Int, try Self.entries("regions.json").count)
        let contacts = try cli.run(["contacts", "KZ-AKM", "--format", "json"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contacts.stdout.utf8)) as? [String: Any])
        let representatives = try Self.entries("representatives.json").filter { $0["region"] as? String == "KZ-AKM" }
        XCTAssertEqual((document["representatives"] as? [Any])?.count, representatives.count)
    }
}

extension CLIRunner.Result {
    var lines: [String] { stdout.lines }
}
