import Foundation
import XCTest

/// The keys of every catalog command's JSON, checked against the table of docs/json-keys.md,
/// written here by hand: renaming a Swift property must not change them.
///
/// Each object kind lists the keys it may have and those it must have (optional fields are
/// left out when empty). The sample entities come from the content sources.
final class JSONContractTests: XCTestCase {
    let cli = CLIRunner()

    struct Shape {
        var allowed: Set<String>
        var required: Set<String>
    }

    static let envelope = Shape(allowed: ["items", "page", "perPage", "total"], required: ["items", "page", "perPage", "total"])
    static let ref = Shape(allowed: ["id", "name"], required: ["id", "name"])
    static let productSummary = Shape(
        allowed: ["id", "name", "category", "formulation", "company", "registrationNumber", "registrationExpiry", "ingredients"],
        required: ["id", "name", "category", "registrationNumber", "ingredients"])
    static let ingredient = Shape(allowed: ["substance", "concentration", "unit", "modeOfAction"], required: ["substance"])
    static let modeOfAction = Shape(allowed: ["scheme", "group"], required: ["scheme", "group"])
    static let product = Shape(
        allowed: [
            "id", "name", "category", "formulation", "company", "registrationNumber", "registrationExpiry", "origin",
            "originalProduct", "soldOutDeadline", "exhaustionDeadline", "ingredients", "hazard", "links", "sections", "uses",
        ],
        required: ["id", "name", "category", "origin", "ingredients", "hazard", "links", "sections", "uses"])
    static let hazard = Shape(
        allowed: ["pictograms", "signalWord", "hazardStatements", "precautionaryStatements"],
        required: ["pictograms", "hazardStatements", "precautionaryStatements"])
    static let statement = Shape(allowed: ["code", "text"], required: ["code", "text"])
    static let use = Shape(
        allowed: [
            "id", "product", "cultures", "pests", "dose", "water", "phiDays", "maxApplications", "intervalDays", "bbch",
            "applicationArea", "notes", "obligations",
        ],
        required: ["id", "product", "cultures", "pests", "dose", "water", "obligations"])
    static let usePest = Shape(allowed: ["pest", "effect"], required: ["pest", "effect"])
    static let dose = Shape(allowed: ["from", "to", "unit"], required: [])
    static let bbch = Shape(allowed: ["from", "to"], required: ["from", "to"])
    static let pest = Shape(
        allowed: ["id", "name", "kind", "latinName", "eppoCode", "description", "images"],
        required: ["id", "name", "kind", "images"])
    static let substance = Shape(
        allowed: ["id", "name", "iupacName", "casNumber", "modeOfAction", "description"], required: ["id", "name"])
    static let culture = Shape(
        allowed: ["id", "name", "latinName", "eppoCode", "description", "parents", "children", "growthStages"],
        required: ["id", "name", "parents", "children", "growthStages"])
    static let cultureRow = Shape(allowed: ["id", "name", "parentIds", "depth"], required: ["id", "name", "parentIds", "depth"])
    static let scheme = Shape(
        allowed: ["id", "culture", "title", "description", "stages"], required: ["id", "culture", "title", "stages"])
    static let stage = Shape(allowed: ["bbch", "name", "treatments"], required: ["bbch", "name", "treatments"])
    static let treatment = Shape(allowed: ["product", "dose", "pests", "note"], required: ["product", "dose", "pests"])
    static let region = Shape(
        allowed: ["id", "name", "kind", "centre", "centreName"], required: ["id", "name", "kind", "centre"])
    static let coordinates = Shape(allowed: ["latitude", "longitude"], required: ["latitude", "longitude"])
    static let representative = Shape(
        allowed: ["id", "region", "name", "position", "phone", "email", "photo", "location"], required: ["id", "region", "name"])
    static let distributor = Shape(
        allowed: ["id", "region", "name", "address", "phone", "email", "website"], required: ["id", "region", "name"])
    static let searchHit = Shape(allowed: ["kind", "id", "name", "detail", "rank"], required: ["kind", "id", "name", "rank"])
    static let catalogInfo = Shape(
        allowed: ["identity", "title", "version", "schemaVersion", "builtAt", "locales", "attribution"],
        required: ["identity", "title", "version", "schemaVersion", "builtAt", "locales"])
    static let localeChain = Shape(allowed: ["locales", "fallbacks"], required: ["locales", "fallbacks"])

    /// Checks one object's keys; returns it for checking its members.
    @discardableResult
    func check(_ value: Any?, _ shape: Shape, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Any]
    {
        guard let object = value as? [String: Any] else {
            XCTFail("\(what) is not an object: \(String(describing: value))", file: file, line: line)
            return [:]
        }
        let keys = Set(object.keys)
        XCTAssertEqual(keys.subtracting(shape.allowed), [], "\(what): keys outside the contract", file: file, line: line)
        XCTAssertEqual(shape.required.subtracting(keys), [], "\(what): required keys missing", file: file, line: line)
        return object
    }

    /// Checks every element of an array member; fails when it is empty, so no loop passes vacuously.
    func checkEach(
        _ value: Any?, _ shape: Shape, _ what: String, file: StaticString = #filePath, line: UInt = #line,
        then: ([String: Any]) -> Void = { _ in }
    ) {
        let array = value as? [Any] ?? []
        XCTAssertFalse(array.isEmpty, "\(what): nothing to check", file: file, line: line)
        for (index, element) in array.enumerated() { then(check(element, shape, "\(what)[\(index)]", file: file, line: line)) }
    }

    func list(_ arguments: [String], _ item: Shape, then: ([String: Any]) -> Void = { _ in }) throws {
        let document = try cli.json(arguments + ["--all", "--lang", "en"])
        check(document, Self.envelope, arguments.joined(separator: " "))
        checkEach(document["items"], item, arguments.joined(separator: " ") + " items", then: then)
    }

    func checkUse(_ use: [String: Any]) {
        check(use["product"], Self.ref, "use.product")
        check(use["dose"], Self.dose, "use.dose")
        check(use["water"], Self.dose, "use.water")
        if let bbch = use["bbch"] { check(bbch, Self.bbch, "use.bbch") }
        for culture in use["cultures"] as? [Any] ?? [] { check(culture, Self.ref, "use.cultures[]") }
        for pest in use["pests"] as? [Any] ?? [] {
            check(check(pest, Self.usePest, "use.pests[]")["pest"], Self.ref, "use.pests[].pest")
        }
    }

    static func entries(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: CLIRunner.root.appendingPathComponent("Database/content/" + file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]], file)
    }

    static func firstID(_ file: String) throws -> String {
        try XCTUnwrap(try entries(file).first?["id"] as? String, file)
    }

    func testLists() throws {
        try list(["products"], Self.productSummary) { item in
            checkEach(item["ingredients"], Self.ingredient, "products.ingredients") { ingredient in
                check(ingredient["substance"], Self.ref, "ingredient.substance")
            }
        }
        try list(["substances"], Self.substance)
        try list(["pests"], Self.pest)
        try list(["cultures"], Self.cultureRow)
        try list(["regions"], Self.region) { check($0["centre"], Self.coordinates, "region.centre") }
        try list(["search", "wheat"], Self.searchHit)
        try list(["products", "--letters"], Self.ref)
    }

    func testProductCard() throws {
        // A product with uses that carry a pre-harvest interval, so the renamed keys show up.
        let id = try XCTUnwrap(
            try Self.entries("uses.json").first { $0["phi"] != nil && $0["interval"] != nil }?["product"] as? String)
        let document = check(try cli.json(["product", id, "--lang", "en"]), Self.product, "product")
        check(document["hazard"], Self.hazard, "product.hazard")
        checkEach(document["ingredients"], Self.ingredient, "product.ingredients") { ingredient in
            if let moa = ingredient["modeOfAction"] { check(moa, Self.modeOfAction, "ingredient.modeOfAction") }
        }
        var sawPHI = false
        checkEach(document["uses"], Self.use, "product.uses") { use in
            checkUse(use)
            sawPHI = sawPHI || use["phiDays"] != nil
        }
        XCTAssertTrue(sawPHI, "a use of \(id) has phiDays")
    }

    func testPestSubstanceCultureAndSchemeCards() throws {
        let pest = try cli.json(["pest", try Self.firstID("pests.json"), "--lang", "en"])
        XCTAssertEqual(Set(pest.keys), ["pest", "uses"])
        check(pest["pest"], Self.pest, "pest.pest")
        checkEach(pest["uses"], Self.use, "pest.uses") { checkUse($0) }

        let substance = try cli.json(["substance", try Self.firstID("substances.json"), "--lang", "en"])
        XCTAssertEqual(Set(substance.keys), ["substance", "products"])
        check(substance["substance"], Self.substance, "substance.substance")
        checkEach(substance["products"], Self.productSummary, "substance.products")

        let cultureID = try XCTUnwrap(try Self.entries("schemes.json").first?["culture"] as? String)
        let culture = try cli.json(["culture", cultureID, "--lang", "en"])
        XCTAssertEqual(Set(culture.keys), ["culture", "products", "pests", "schemes"])
        check(culture["culture"], Self.culture, "culture.culture")
        checkEach(culture["schemes"], Self.scheme, "culture.schemes")

        let result = try cli.run(["scheme", cultureID, "--lang", "en", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        checkEach(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), Self.scheme, "scheme") { scheme in
            check(scheme["culture"], Self.ref, "scheme.culture")
            checkEach(scheme["stages"], Self.stage, "scheme.stages") { stage in
                check(stage["bbch"], Self.bbch, "stage.bbch")
                for treatment in stage["treatments"] as? [Any] ?? [] {
                    let object = check(treatment, Self.treatment, "stage.treatments[]")
                    check(object["product"], Self.ref, "treatment.product")
                    check(object["dose"], Self.dose, "treatment.dose")
                }
            }
        }
    }

    func testFavorites() throws {
        XCTAssertEqual(try cli.run(["favorites", "add", try Self.firstID("products.json")]).status, 0)
        try list(
            ["favorites", "list"],
            Shape(
                allowed: ["kind", "id", "name", "available", "addedAt"], required: ["kind", "id", "name", "available", "addedAt"])
        )
    }

    func testContactsAndCatalogInfo() throws {
        let region = try XCTUnwrap(try Self.entries("representatives.json").first?["region"] as? String)
        let contacts = try cli.json(["contacts", region, "--lang", "en"])
        XCTAssertEqual(Set(contacts.keys), ["region", "representatives", "distributors"])
        check(contacts["region"], Self.region, "contacts.region")
        checkEach(contacts["representatives"], Self.representative, "contacts.representatives") {
            check($0["region"], Self.ref, "representative.region")
        }

        let info = try cli.json(["catalog", "info"])
        XCTAssertEqual(Set(info.keys), ["path", "size", "contentHash", "info"])
        check(check(info["info"], Self.catalogInfo, "catalog info")["locales"], Self.localeChain, "catalog info locales")
    }

    // MARK: - Decisions (the keys a client of the decisions reads: productId, registrationNumber,
    // dose {from,to,unit} as on the card,
    // phiDays, maxApplications, bbch {from,to}, groups)

    static let useRow = Shape(
        allowed: [
            "id", "name", "productId", "registrationNumber", "registrationExpiry", "ingredients", "groups", "dose", "water",
            "phiDays", "maxApplications", "intervalDays", "bbch", "applicationArea", "cultures", "pests", "expired",
            "outsideStage", "member",
        ],
        // A comparison row keeps every column: the keys are always there, null where the catalog has nothing.
        required: [
            "id", "name", "productId", "registrationNumber", "registrationExpiry", "ingredients", "groups", "dose", "water",
            "phiDays", "maxApplications", "intervalDays", "bbch", "applicationArea", "cultures", "pests", "expired",
            "outsideStage", "member",
        ])
    static let useIngredient = Shape(
        allowed: ["substanceId", "name", "concentration", "unit", "group"], required: ["substanceId", "name"])
    static let doseRange = Shape(allowed: ["from", "to", "unit"], required: ["unit"])
    static let planReport = Shape(
        allowed: ["culture", "findings", "totals", "violations", "passed"],
        required: ["findings", "totals", "violations", "passed"])
    static let finding = Shape(
        allowed: ["application", "rule", "severity", "message", "source"], required: ["rule", "severity", "message"])
    static let substanceTotal = Shape(
        allowed: ["substanceId", "name", "gramsPerHectare", "applications", "seedTreatments"],
        required: ["substanceId", "name", "applications"])
    static let tankDocument = Shape(allowed: ["plan", "warnings"], required: ["plan", "warnings"])
    static let tankPlan = Shape(
        allowed: ["area", "water", "tank", "totalWater", "loads", "fullLoads", "lastLoadWater", "areaPerFullLoad", "products"],
        required: ["area", "water", "tank", "totalWater", "loads", "fullLoads", "lastLoadWater", "areaPerFullLoad", "products"])
    static let tankProduct = Shape(
        allowed: ["productId", "name", "unit", "perFullLoad", "lastLoad", "total", "substances"],
        required: ["productId", "name", "unit", "perFullLoad", "lastLoad", "total", "substances"])
    static let tankSubstance = Shape(allowed: ["substanceId", "name", "grams"], required: ["substanceId", "name"])

    /// A spray use from the sources with a pest, a culture and a pre-harvest interval.
    private func sampleUse() throws -> (product: String, culture: String, pest: String, dose: Double, unit: String) {
        let use = try XCTUnwrap(
            try Self.entries("uses.json").first {
                // A spray (dose per hectare), which `agro tank` also takes.
                $0["phi"] != nil && ($0["unit"] as? String)?.hasSuffix("/ha") == true
                    && ($0["cultures"] as? [String])?.isEmpty == false && ($0["pests"] as? [Any])?.isEmpty == false
            })
        let culture = try XCTUnwrap((use["cultures"] as? [String])?.first)
        let pests = try XCTUnwrap(use["pests"] as? [Any])
        let pest = try XCTUnwrap((pests.first as? String) ?? ((pests.first as? [String: Any])?["pest"] as? String))
        // The registered dose: its lower end, or the dose itself.
        let dose = try XCTUnwrap((use["dose"] as? [Double])?.first ?? (use["dose"] as? Double))
        return (try XCTUnwrap(use["product"] as? String), culture, pest, dose, try XCTUnwrap(use["unit"] as? String))
    }

    func testUses() throws {
        let sample = try sampleUse()
        var sawPHI = false
        try list(["uses", "--pest", sample.pest, "--culture", sample.culture], Self.useRow) { row in
            check(row["dose"], Self.doseRange, "uses.dose")
            if let water = row["water"], !(water is NSNull) { check(water, Self.doseRange, "uses.water") }
            if let bbch = row["bbch"], !(bbch is NSNull) { check(bbch, Self.bbch, "uses.bbch") }
            checkEach(row["ingredients"], Self.useIngredient, "uses.ingredients")
            checkEach(row["cultures"], Self.ref, "uses.cultures")
            checkEach(row["pests"], Self.ref, "uses.pests")
            XCTAssertNotNil(row["groups"] as? [String], "uses.groups is a list of codes")
            sawPHI = sawPHI || row["phiDays"] is NSNumber
        }
        XCTAssertTrue(sawPHI, "a use against \(sample.pest) on \(sample.culture) has phiDays")
    }

    /// One vocabulary: a use's fields (dose, water, BBCH window, PHI, interval, application area)
    /// have the same keys and values on the product card and in the use comparison.
    func testAUseHasTheSameKeysOnTheCardAndInTheComparison() throws {
        let sample = try sampleUse()
        let rows = try XCTUnwrap(
            try cli.json(["uses", "--pest", sample.pest, "--culture", sample.culture, "--all"])["items"] as? [[String: Any]])
        let row = try XCTUnwrap(rows.first { $0["productId"] as? String == sample.product }, "\(rows)")
        let card = try cli.json(["product", sample.product])
        let use = try XCTUnwrap((card["uses"] as? [[String: Any]])?.first { $0["id"] as? String == row["id"] as? String })
        var compared = 0
        for key in ["dose", "water", "bbch", "phiDays", "maxApplications", "intervalDays", "applicationArea"] {
            guard let value = use[key], !(value is NSNull) else { continue }
            let other = try XCTUnwrap(row[key], key)
            if let object = value as? [String: Any] {
                let rowObject = try XCTUnwrap(other as? [String: Any], key)
                // Only the ends the card has: the comparison writes a single dose as both ends.
                XCTAssertTrue(Set(object.keys).isSubset(of: Set(rowObject.keys)), "\(key): \(object) vs \(rowObject)")
                XCTAssertEqual((object["from"] as? NSNumber)?.doubleValue, (rowObject["from"] as? NSNumber)?.doubleValue, key)
            } else {
                XCTAssertEqual("\(value)", "\(other)", key)
            }
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 3, "\(use)")
        // And the value is the source's (uses.json: "dose" is [from, to] or one number).
        let source = try XCTUnwrap(try Self.entries("uses.json").first { $0["id"] as? String == row["id"] as? String })
        let from = (source["dose"] as? [Double])?.first ?? (source["dose"] as? Double)
        XCTAssertEqual(((row["dose"] as? [String: Any])?["from"] as? NSNumber)?.doubleValue, from)
    }

    func testPlanCheckAndTank() throws {
        // The failing example plan: findings and totals both present; exit status 20.
        let plan = CLIRunner.root.appendingPathComponent("Database/examples/winter-wheat-kz-fails.json").path
        let result = try cli.run(["plan", "check", plan, "--format", "json", "--lang", "en"])
        XCTAssertEqual(result.status, 20, result.stderr)
        let report = check(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), Self.planReport, "plan check")
        checkEach(report["findings"], Self.finding, "plan check findings")
        checkEach(report["totals"], Self.substanceTotal, "plan check totals")

        let sample = try sampleUse()
        let tank = check(
            try cli.json([
                "tank", "--product", sample.product, "--dose", "\(sample.dose)", "--unit", sample.unit, "--area", "10", "--water",
                "200",
                "--tank", "3000", "--lang", "en",
            ]),
            Self.tankDocument, "tank")
        let loads = check(tank["plan"], Self.tankPlan, "tank.plan")
        checkEach(loads["products"], Self.tankProduct, "tank.plan.products") { product in
            checkEach(product["substances"], Self.tankSubstance, "tank.plan.products.substances")
        }
    }
}
