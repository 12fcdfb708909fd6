import AgroCLI
import AgroDomain
import AgroPresentation
import AgroWeather
import Foundation
import XCTest

/// Plan findings in the interface language: the CLI words each `PlanFindingKind` from
/// Localizable, English word for word as the library's message, Russian from ru.json.
final class FindingWordingTests: XCTestCase {
    private static let localizable = CLIRunner.root.appendingPathComponent("Localizable")
    let cli = CLIRunner()

    private func table(_ locale: String) throws -> [String: String] {
        let data = try Data(contentsOf: Self.localizable.appendingPathComponent("\(locale).json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    /// `key`'s string in `table` with `{i}` replaced by `arguments[i]`, written here rather than
    /// through the program's localizer.
    private func fill(_ table: [String: String], _ key: String, _ arguments: [String]) throws -> String {
        var text = try XCTUnwrap(table[key], "no string \(key)")
        for (index, argument) in arguments.enumerated() { text = text.replacingOccurrences(of: "{\(index)}", with: argument) }
        return text
    }

    /// One value of every kind, with the edge wordings (several ranges, seed treatments, no total).
    private let kinds: [PlanFindingKind] = {
        let qoi = ModeOfAction(scheme: "FRAC", group: "11")
        let date = PlanDate("2026-06-01")!, harvest = PlanDate("2026-07-28")!
        return [
            .registrationExpired(product: "Alpha", expiry: "2026-01-31", date: date),
            .notRegisteredOnCulture(product: "Alpha", culture: "Winter wheat"),
            .noPestNamed(product: "Alpha", culture: "Winter wheat"),
            .notRegisteredAgainstPests(product: "Alpha", culture: "Winter wheat", pests: ["Septoria", "Rust"]),
            .doseNotComparable(product: "Alpha", dose: Dose(from: 2, to: nil, unit: "l/t"), registeredUnits: ["%", "l/ha"]),
            .doseOutsideRange(
                product: "Alpha", dose: Dose(from: 1.25, to: nil, unit: "l/ha"),
                registered: [Dose(from: 0.5, to: 0.75, unit: "l/ha"), Dose(from: 1, to: nil, unit: "l/ha")]),
            .stageOutsideWindow(product: "Alpha", bbch: 75, windows: [BBCHRange(from: 30, to: 39), BBCHRange(from: 61, to: 61)]),
            .preHarvestInterval(product: "Alpha", days: 13, harvest: harvest, required: 20),
            .productApplications(product: "Alpha", count: 3, limit: 2),
            .interval(product: "Alpha", days: 7, previous: 1, required: 21),
            .substanceApplications(substance: "Azoxystrobin", count: 3, limit: 2),
            .consecutiveOverLimit(group: qoi, applications: [2, 3, 4], limit: 2),
            .consecutive(group: qoi, applications: [1, 2]),
            .groupApplications(group: qoi, count: 3, limit: 2),
            .groupShareOverLimit(group: qoi, count: 3, total: 3, percent: 100, limitPercent: 50),
            .groupShareHigh(group: qoi, count: 2, total: 3, percent: 67),
            .unknownGroup(substance: "Sulphur", id: "sulphur"),
            .substanceTotal(substance: "Azoxystrobin", gramsPerHectare: 159.6049, applications: 2, seedTreatments: 1),
            .substanceTotal(substance: "Azoxystrobin", gramsPerHectare: nil, applications: 1, seedTreatments: 0),
        ]
    }()

    func testEnglishWordingIsTheLibrarysMessageAndRussianIsItsOwn() throws {
        let english = FindingWording(strings: Localizer(locale: "en", directory: Self.localizable))
        let russian = FindingWording(strings: Localizer(locale: "ru", directory: Self.localizable))
        let kazakh = FindingWording(strings: Localizer(locale: "kk", directory: Self.localizable))
        for kind in kinds {
            XCTAssertEqual(english.text(kind), kind.message)
            let text = russian.text(kind)
            XCTAssertFalse(text.contains("finding."), "unknown key in \(text)")
            XCTAssertFalse(text.contains("{"), "unfilled argument in \(text)")
            XCTAssertNotEqual(text, kind.message)
            XCTAssertNotNil(text.range(of: "[а-яё]", options: .regularExpression), text)
            // Kazakh words every finding itself: no Russian fallback, letters only Kazakh has.
            let kk = kazakh.text(kind)
            XCTAssertFalse(kk.contains("finding."), "unknown key in \(kk)")
            XCTAssertFalse(kk.contains("{"), "unfilled argument in \(kk)")
            XCTAssertNotEqual(kk, text)
            XCTAssertNotNil(kk.range(of: "[әғқңөұүһі]", options: .regularExpression), kk)
        }
    }

    func testSourcesInEnglishAreTheLibrarysAndInRussianTheirOwn() throws {
        let english = FindingWording(strings: Localizer(locale: "en", directory: Self.localizable))
        let russian = FindingWording(strings: Localizer(locale: "ru", directory: Self.localizable))
        let sources: [PlanFindingSource] = [
            .uses([
                PlanUseSource(use: "u-1", product: "Alpha", registration: "KZ-1"),
                PlanUseSource(use: "u-2", product: "Beta", registration: nil),
            ]),
            .catalogUses(product: "Alpha"), .registration("KZ-1"), .label, .guidance, .catalogSubstance("sulphur"),
        ]
        for source in sources {
            XCTAssertEqual(english.source(source), source.text)
            let text = russian.source(source)
            XCTAssertNotEqual(text, source.text)
            XCTAssertFalse(text.contains("finding.") || text.contains("{"), text)
        }
        // The catalog's own words stay as the catalog gives them.
        XCTAssertEqual(russian.source(.content("FRAC QoI Working Group")), "FRAC QoI Working Group")
        XCTAssertEqual(english.source(.guidance), PlanCheck.resistanceGuidance)
    }

    /// A tank's bad numbers and a bad plan file in the language of the command line.
    func testTankAndPlanFileErrorsInRussian() throws {
        let ru = try table("ru")
        let tank = try cli.run([
            "tank", "--product", "tebuconazole-250-ec", "--dose", "0.75", "--area", "0",
            "--water", "200", "--tank", "3000", "--lang", "ru",
        ])
        XCTAssertEqual(tank.status, 64)
        XCTAssertEqual(tank.stderr, "agro: " + (try fill(ru, "error.TankError.notPositive", ["--area", "0"])) + "\n")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agro-findings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.csv")
        try Data("culture,product,dose\nwinter-wheat,x,1\n".utf8).write(to: plan)
        let result = try cli.run(["plan", "check", plan.path, "--lang", "ru"])
        XCTAssertEqual(result.status, 64)
        let reason = try fill(ru, "error.PlanFileError.missingColumn", ["unit"])
        XCTAssertEqual(result.stderr, "agro: " + (try fill(ru, "error.PlanFileError", [reason])) + "\n")
    }

    func testRussianNumbersAndPluralForms() throws {
        let ru = try table("ru")
        let russian = FindingWording(strings: Localizer(locale: "ru", directory: Self.localizable))
        // 1.25 l/ha against 0.5-0.75 l/ha: decimal comma, en dash, unit from ru.json.
        let unit = try XCTUnwrap(ru["unit.l/ha"])
        XCTAssertEqual(
            russian.text(
                .doseOutsideRange(
                    product: "Alpha", dose: Dose(from: 1.25, to: nil, unit: "l/ha"),
                    registered: [Dose(from: 0.5, to: 0.75, unit: "l/ha")])),
            try fill(ru, "finding.doseOutsideRange", ["Alpha", "1,25 \(unit)", "0,5–0,75 \(unit)"]))
        // 21 takes the "one" form (21 день), 7 and 20 "many" (7 дней), 3 "few" (3 дня).
        XCTAssertEqual(
            russian.text(.interval(product: "Alpha", days: 3, previous: 1, required: 21)),
            try fill(
                ru, "finding.interval",
                ["Alpha", fill(ru, "finding.days.few", ["3"]), "1", fill(ru, "finding.daysAtLeast.one", ["21"])]))
        XCTAssertEqual(
            russian.text(.preHarvestInterval(product: "Alpha", days: 7, harvest: PlanDate("2026-07-28")!, required: 20)),
            try fill(
                ru, "finding.preHarvestInterval",
                ["Alpha", fill(ru, "finding.days.many", ["7"]), "28.07.2026", fill(ru, "finding.days.many", ["20"])]))
        // Dates as a Russian reader writes them, day first.
        XCTAssertEqual(
            russian.text(.registrationExpired(product: "Alpha", expiry: "2026-01-31", date: PlanDate("2026-06-01")!)),
            try fill(ru, "finding.registrationExpired", ["Alpha", "31.01.2026", "01.06.2026"]))
        XCTAssertEqual(
            russian.text(.substanceTotal(substance: "Azoxystrobin", gramsPerHectare: 22.5, applications: 1, seedTreatments: 0)),
            try fill(ru, "finding.substanceTotal.one", ["1", "Azoxystrobin", fill(ru, "finding.gramsPerHectare", ["22,5"])]))
    }

    func testPlanCheckInRussianPrintsRussianFindings() throws {
        let ru = try table("ru")
        let plan = DecisionCommandsTests.examples.appendingPathComponent("winter-wheat-kz-fails.json").path
        // The failing example of docs/decisions.md: QoI (FRAC 11) three times with a limit of two
        // and a share of at most 50 %, lambda-cyhalothrin 13 days before a harvest its 20-day
        // interval forbids.
        let result = try cli.run(["plan", "check", plan, "--lang", "ru", "--format", "json"])
        XCTAssertEqual(result.status, 20, result.stderr)
        XCTAssertEqual(result.stderr, "agro: " + (try fill(ru, "plan.violations.few", ["4"])) + "\n")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(document["findings"] as? [[String: Any]])
        let messages = findings.compactMap { $0["message"] as? String }
        XCTAssertEqual(messages.count, findings.count)
        let expected = [
            try fill(ru, "finding.groupApplications", ["FRAC 11", "3", "2"]),
            try fill(ru, "finding.groupShareOverLimit.few", ["3", "FRAC 11", "3", "FRAC", "100", "50"]),
        ]
        for text in expected { XCTAssertTrue(messages.contains(text), "\(text) not in \(messages)") }
        // The product's name comes from the catalog; the rest of the line from ru.json.
        let phi = try fill(
            ru, "finding.preHarvestInterval",
            [
                "", fill(ru, "finding.days.many", ["13"]), "28.07.2026",
                fill(ru, "finding.days.many", ["20"]),
            ])
        XCTAssertTrue(messages.contains { $0.hasSuffix(phi) }, "\(phi) not in \(messages)")
        // No finding is left in English.
        for message in messages {
            XCTAssertNil(message.range(of: "application|registered|season", options: .regularExpression), message)
        }
        // The table prints the same words (wrapped): one short line of them.
        let table = try cli.run(["plan", "check", plan, "--lang", "ru"], extraEnvironment: ["COLUMNS": "200"])
        XCTAssertEqual(table.status, 20, table.stderr)
        XCTAssertTrue(table.stdout.contains(expected[0]), table.stdout)
        // The plan's area (120 ha in the file) and the label source, from ru.json.
        XCTAssertTrue(table.stdout.contains(" · " + (try fill(ru, "plan.area", ["120"])) + " · "), table.stdout)
        XCTAssertTrue(table.stdout.contains(try fill(ru, "plan.source", [fill(ru, "finding.source.label", [])])), table.stdout)
    }

    /// The table names each finding's rule in the reader's language (glossary: срок ожидания,
    /// күту мерзімі, норма, мөлшер, резистентность); JSON and CSV keep the codes.
    func testPlanCheckTableNamesTheRuleInTheLanguage() throws {
        let plan = CLIRunner.root.appendingPathComponent("Database/examples/winter-wheat-kz-fails.json").path
        let russian = try cli.run(["plan", "check", plan, "--lang", "ru"])
        XCTAssertEqual(russian.status, 20, russian.stderr)
        for label in ["[срок ожидания]", "[норма]", "[резистентность]"] {
            XCTAssertTrue(russian.stdout.contains(label), label + "\n" + russian.stdout)
        }
        let kazakh = try cli.run(["plan", "check", plan, "--lang", "kk"])
        for label in ["[күту мерзімі]", "[мөлшер]", "[резистенттілік]"] {
            XCTAssertTrue(kazakh.stdout.contains(label), label + "\n" + kazakh.stdout)
        }
        let english = try cli.run(["plan", "check", plan, "--lang", "en"])
        XCTAssertTrue(english.stdout.contains("[PHI]"), english.stdout)
        for output in [russian.stdout, kazakh.stdout, english.stdout] {
            XCTAssertNil(output.range(of: #"\[[a-z]+(_[a-z]+)+\]"#, options: .regularExpression), output)
        }
        let csv = try cli.run(["plan", "check", plan, "--lang", "ru", "--format", "csv"])
        XCTAssertTrue(csv.stdout.contains(",pre_harvest_interval,"), csv.stdout)
        XCTAssertTrue(csv.stdout.contains(",dose,"), csv.stdout)
        XCTAssertFalse(csv.stdout.contains("срок ожидания,"), csv.stdout)
    }
}

/// Spray reasons in the person's language and units: snow named as snow, wind in m/s or mph.
final class SprayReasonWordingTests: XCTestCase {
    private static let localizable = CLIRunner.root.appendingPathComponent("Localizable")

    func testSnowAndWindAreWordedInTheLanguageAndUnits() throws {
        let kazakh = Localizer(locale: "kk", directory: Self.localizable)
        var snow = SprayFinding(rule: .rain, verdict: .avoid, value: 4, unit: "mm", threshold: 2, text: "snow 4 mm")
        snow.snow = true
        let words = WeatherWording.sprayFinding(snow, rainfastHours: 2, kazakh)
        XCTAssertTrue(words.contains("қар"), words)
        XCTAssertFalse(words.contains("жаңбыр"), words)
        // 36 km/h at the boom is 10 m/s, 22.4 mph.
        let wind = SprayFinding(rule: .gust, verdict: .avoid, value: 36, unit: "km/h", threshold: 30, text: "")
        let russian = Localizer(locale: "ru", directory: Self.localizable)
        XCTAssertEqual(WeatherWording.sprayFinding(wind, rainfastHours: 2, units: .metric, russian), "порывы 10 м/с выше 8,3 м/с")
        let english = Localizer(locale: "en", directory: Self.localizable)
        XCTAssertEqual(
            WeatherWording.sprayFinding(wind, rainfastHours: 2, units: .imperial, english), "gusts 22.4 mph above 18.6 mph")
    }
}
