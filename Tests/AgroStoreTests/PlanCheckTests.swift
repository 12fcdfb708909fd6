import AgroDomain
import AgroStore
import Foundation
import XCTest

/// Every plan rule on `DecisionFixture`, each expectation worked out by hand from the rule and
/// the fixture's records.
final class PlanCheckTests: XCTestCase {
    var catalog: SQLiteCatalog { DecisionFixture.catalog }

    typealias A = SeasonPlan.Application

    private func check(_ applications: [A], harvest: String? = "2026-07-30", culture: String = "winter-wheat") throws
        -> PlanReport
    {
        let plan = SeasonPlan(culture: culture, harvest: harvest.flatMap(PlanDate.init), area: 50, applications: applications)
        return try PlanCheck.run(plan, in: catalog, locale: "en").1
    }

    private func errors(_ report: PlanReport, _ rule: PlanRule) -> [PlanFinding] {
        report.findings.filter { $0.rule == rule && $0.severity == .error }
    }

    /// The check grows linearly with the plan: ten times the applications take about ten
    /// times as long, not a hundred (25,000 took 10 s when it was quadratic). A ratio measured
    /// in one run with a wide margin, not a speed target.
    func testTheCheckIsLinearInTheApplications() throws {
        func seconds(_ count: Int) throws -> Double {
            let applications = (0..<count).map { _ in A(product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]) }
            let start = Date()
            let report = try check(applications, harvest: nil)
            // Every application past the second is over u1's allowance of 2.
            XCTAssertEqual(errors(report, .applications).count, count - 2)
            return Date().timeIntervalSince(start)
        }
        _ = try seconds(500)
        let small = try seconds(2_500), large = try seconds(25_000)
        XCTAssertLessThan(large / small, 30, "2,500: \(small) s, 25,000: \(large) s")
    }

    func testAPlanWithAByteOrderMarkOrAListIsReadAsJSON() throws {
        let json = #"{"culture": "winter-wheat", "applications": [{"product": "p-tebu", "dose": 0.8, "unit": "l/ha"}]}"#
        let plain = try SeasonPlan.parse(Data(json.utf8), fileName: "-")
        let marked = try SeasonPlan.parse(Data([0xEF, 0xBB, 0xBF] + Array(json.utf8)), fileName: "plan.json")
        XCTAssertEqual(marked.applications.count, 1)
        XCTAssertEqual(marked.culture, plain.culture)
        XCTAssertEqual(try SeasonPlan.parse(Data([0xEF, 0xBB, 0xBF] + Array(json.utf8)), fileName: "-").applications.count, 1)
        XCTAssertThrowsError(try SeasonPlan.parse(Data("[\(json)]".utf8), fileName: "-")) { error in
            let message = (error as? PlanFileError)?.message ?? ""
            XCTAssertTrue(message.contains("the JSON is a list"), message)
            XCTAssertFalse(message.lowercased().contains("csv") || message.contains("column"), message)
        }
    }

    func testAGoodPlanPasses() throws {
        let report = try check([
            A(date: PlanDate("2026-05-01"), bbch: 31, product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            A(date: PlanDate("2026-06-01"), bbch: 45, product: "p-lambda", dose: 150, unit: "ml/ha", pests: ["aphid"]),
        ])
        XCTAssertTrue(report.passed, "\(report.findings)")
        XCTAssertEqual(report.violations, 0)
    }

    func testRegistrationOnCultureAgainstPestAndOnDate() throws {
        let report = try check([
            // p-prothio is registered on potato only.
            A(date: PlanDate("2026-05-01"), product: "p-prothio", dose: 0.5, unit: "l/ha", pests: ["rust"]),
            // p-tebu on wheat, but against rust and septoria, not aphids.
            A(date: PlanDate("2026-05-20"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["aphid"]),
            // p-old's registration expired on 2024-12-31.
            A(date: PlanDate("2026-06-01"), bbch: 40, product: "p-old", dose: 0.5, unit: "l/ha", pests: ["rust"]),
        ])
        XCTAssertEqual(errors(report, .registration).map(\.application), [1, 2, 3])
        XCTAssertTrue(errors(report, .registration)[2].message.contains("2024-12-31"))
        XCTAssertEqual(errors(report, .registration)[2].source, "registration O-1")
    }

    func testDoseWithUnitConversion() throws {
        let report = try check(
            [
                // 1.2 l/ha above u1's 0.5-1 l/ha.
                A(date: PlanDate("2026-05-01"), product: "p-tebu", dose: 1.2, unit: "l/ha", pests: ["rust"]),
                // 800 ml/ha = 0.8 l/ha: inside.
                A(date: PlanDate("2026-05-20"), product: "p-tebu", dose: 800, unit: "ml/ha", pests: ["rust"]),
                // 0.2 l/ha = 200 ml/ha: at the top of u6's 150-200 ml/ha.
                A(date: PlanDate("2026-06-01"), product: "p-lambda", dose: 0.2, unit: "L/ha", pests: ["aphid"]),
                // kg cannot be compared with litres: a warning, not a violation.
                A(date: PlanDate("2026-06-20"), product: "p-lambda", dose: 0.2, unit: "kg/ha", pests: ["aphid"]),
            ], harvest: nil)
        XCTAssertEqual(errors(report, .dose).map(\.application), [1])
        XCTAssertEqual(errors(report, .dose).first?.source, "use u1 of Tebu 250 EC, registration T-1")
        XCTAssertEqual(report.findings.filter { $0.rule == .dose && $0.severity == .warning }.map(\.application), [4])
    }

    func testStageWindow() throws {
        let report = try check(
            [
                A(bbch: 65, product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),  // u1: 30-59
                A(bbch: 59, product: "p-azoxy", dose: 0.8, unit: "l/ha", pests: ["rust"]),  // u3: 30-61
            ], harvest: nil)
        XCTAssertEqual(errors(report, .stage).map(\.application), [1])
    }

    func testApplicationsPerProductAndInterval() throws {
        let report = try check([
            A(date: PlanDate("2026-05-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            // 9 days after the first: u1 asks for 14.
            A(date: PlanDate("2026-05-10"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            // Third application: u1 allows 2.
            A(date: PlanDate("2026-06-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
        ])
        XCTAssertEqual(errors(report, .interval).map(\.application), [2])
        XCTAssertTrue(errors(report, .interval)[0].message.contains("9 days"))
        XCTAssertEqual(errors(report, .applications).map(\.application), [3])
    }

    func testApplicationsPerSubstanceAcrossProducts() throws {
        // Tebuconazole three times: twice p-tebu (u1 allows 2), once p-tebu-generic (u2 allows 1).
        // No product exceeds its own allowance; the substance exceeds the largest one, 2.
        let report = try check([
            A(date: PlanDate("2026-05-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            A(date: PlanDate("2026-05-20"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            A(date: PlanDate("2026-06-10"), product: "p-tebu-generic", dose: 0.8, unit: "l/ha", pests: ["rust"]),
        ])
        let found = errors(report, .applications)
        XCTAssertEqual(found.map(\.application), [3])
        XCTAssertTrue(found[0].message.hasPrefix("Tebuconazole"))
    }

    func testPreHarvestInterval() throws {
        // Harvest 2026-07-30; p-lambda's PHI is 20 days: 07-20 is 10 days before, 07-10 is 20.
        let report = try check([
            A(date: PlanDate("2026-07-10"), product: "p-lambda", dose: 150, unit: "ml/ha", pests: ["aphid"]),
            A(date: PlanDate("2026-07-20"), product: "p-lambda", dose: 150, unit: "ml/ha", pests: ["aphid"]),
        ])
        XCTAssertEqual(errors(report, .preHarvestInterval).map(\.application), [2])
        XCTAssertTrue(errors(report, .preHarvestInterval)[0].message.contains("10 days"))
    }

    func testResistanceGroupLimitsShareAndConsecutive() throws {
        // FRAC 11 three times on winter wheat (a cereal): the cereals limit allows 2, the share
        // limit 50 %; 3 of 3 FRAC applications is 100 %. The herbicide-free plan has FRAC only.
        let report = try check(
            [
                A(date: PlanDate("2026-05-01"), bbch: 31, product: "p-azoxy", dose: 0.8, unit: "l/ha", pests: ["rust"]),
                A(date: PlanDate("2026-05-25"), bbch: 39, product: "p-pyra", dose: 1.0, unit: "l/ha", pests: ["septoria"]),
                A(date: PlanDate("2026-06-20"), bbch: 55, product: "p-azoxy", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            ], harvest: nil)
        let resistance = errors(report, .resistance)
        XCTAssertEqual(resistance.map(\.application), [3, nil])
        XCTAssertEqual(resistance.map(\.source), ["test: QoI in cereals", "test: QoI share"])
        XCTAssertTrue(resistance[1].message.contains("3 of 3"))
        // No consecutive limit applies to FRAC 11: a warning for the run 1, 2, 3.
        let warnings = report.findings.filter { $0.rule == .resistance && $0.severity == .warning }
        XCTAssertEqual(warnings.map(\.application), [2])
        XCTAssertEqual(warnings.first?.source, PlanCheck.resistanceGuidance)
    }

    func testCultureLimitDoesNotApplyElsewhereAndOtherSchemesDoNotBreakARun() throws {
        // The FRAC 3 consecutive limit is for potato only: on winter wheat two DMI sprays give a
        // warning; the insecticide between them (IRAC) does not break the FRAC run.
        let report = try check(
            [
                A(date: PlanDate("2026-05-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
                A(date: PlanDate("2026-05-10"), product: "p-lambda", dose: 150, unit: "ml/ha", pests: ["aphid"]),
                A(date: PlanDate("2026-06-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"]),
            ], harvest: nil)
        XCTAssertEqual(errors(report, .resistance), [])
        let warnings = report.findings.filter { $0.rule == .resistance && $0.severity == .warning }
        XCTAssertEqual(warnings.map(\.application), [3])
        XCTAssertTrue(warnings[0].message.contains("(1, 3)"))
    }

    func testUnknownGroupsAreNamed() throws {
        let report = try check([A(bbch: 25, product: "p-pgr", dose: 1.5, unit: "l/ha", pests: ["lodging"])], harvest: nil)
        let infos = report.findings.filter { $0.rule == .resistance && $0.severity == .info }
        XCTAssertEqual(infos.count, 1)
        XCTAssertTrue(infos[0].message.contains("Chlormequat chloride"))
        XCTAssertTrue(report.passed)
    }

    func testSeasonTotalsOfActiveSubstance() throws {
        // Tebuconazole: 0.8 l/ha × 250 g/l + 1.0 l/ha × 250 g/l = 450 g/ha.
        // Lambda: 150 ml/ha = 0.15 l/ha × 50 g/l = 7.5 g/ha.
        let report = try check([
            A(
                date: PlanDate("2026-05-01"), product: "p-tebu", dose: 0.8, unit: "l/ha", pests: ["rust"],
                partners: [SeasonPlan.Partner(product: "p-lambda", dose: 150, unit: "ml/ha", pests: ["aphid"])]),
            A(date: PlanDate("2026-06-01"), product: "p-tebu", dose: 1.0, unit: "l/ha", pests: ["rust"]),
        ])
        let totals = Dictionary(uniqueKeysWithValues: report.totals.map { ($0.substanceID, $0) })
        XCTAssertEqual(try XCTUnwrap(totals["tebuconazole"]?.gramsPerHectare), 450, accuracy: 1e-9)
        XCTAssertEqual(totals["tebuconazole"]?.applications, 2)
        XCTAssertEqual(try XCTUnwrap(totals["lambda-cyhalothrin"]?.gramsPerHectare), 7.5, accuracy: 1e-9)
        XCTAssertEqual(report.findings.filter { $0.rule == .substanceTotal }.count, 2)
        // The tank partner belongs to application 1: the incompatibility is the tank's business,
        // the plan's findings are about rules; p-tebu and p-lambda are both registered.
        XCTAssertTrue(report.passed, "\(report.findings)")
    }

    func testUnknownNamesFailWithTheCatalogsError() throws {
        XCTAssertThrowsError(try check([A(product: "no-such-product", dose: 1, unit: "l/ha")])) { error in
            switch error as? CatalogError {
            case .unknownName?, .notFound?: break
            default: XCTFail("expected a catalog's not-found error, got \(error)")
            }
        }
    }

    // MARK: - Plan files

    func testCSVAndJSONReadTheSamePlan() throws {
        let json = """
            {"culture": "winter-wheat", "sowing": "2025-09-10", "harvest": "2026-07-30", "area": 50,
             "applications": [
               {"date": "2026-05-01", "bbch": 31, "product": "p-tebu", "dose": 0.8, "unit": "l/ha", "pests": ["rust", "septoria"],
                "partners": [{"product": "p-lambda", "dose": 150, "unit": "ml/ha", "pests": ["aphid"]}]},
               {"bbch": 45, "product": "p-azoxy", "dose": 0.9, "unit": "l/ha"}
             ]}
            """
        let csv = """
            culture,sowing,harvest,area,application,date,bbch,product,dose,unit,pests
            winter-wheat,2025-09-10,2026-07-30,50,1,2026-05-01,31,p-tebu,0.8,l/ha,rust;septoria
            ,,,,1,,,p-lambda,150,ml/ha,aphid
            ,,,,2,,45,p-azoxy,"0,9",l/ha,

            """
        let fromJSON = try SeasonPlan.parse(Data(json.utf8), fileName: "plan.json")
        let fromCSV = try SeasonPlan.parse(Data(csv.utf8), fileName: "plan.csv")
        XCTAssertEqual(fromJSON, fromCSV)
        XCTAssertEqual(fromCSV.applications.count, 2)
        XCTAssertEqual(fromCSV.applications[0].partners.map(\.product), ["p-lambda"])
        XCTAssertEqual(fromCSV.sowing, PlanDate("2025-09-10"))
    }

    func testBadPlansGetOneClearReason() {
        let cases: [(String, String, String)] = [
            ("{", "p.json", "not valid JSON"),
            (#"{"culture": "x", "applications": []}"#, "p.json", "no applications"),
            (#"{"culture": "x", "applications": [{"product": "p", "dose": -1, "unit": "l/ha"}]}"#, "p.json", "positive"),
            (
                #"{"culture": "x", "applications": [{"product": "p", "dose": 1, "unit": "l/ha", "date": "2026-02-30"}]}"#,
                "p.json", "YYYY-MM-DD"
            ),
            (#"{"culture": "x", "applications": [{"dose": 1, "unit": "l/ha"}]}"#, "p.json", "missing \"product\""),
            ("culture,product,dose,unit\nx,p,abc,l/ha\n", "p.csv", "line 2: dose \"abc\" is not a number"),
            ("product,dose\np,1\n", "p.csv", "lacks the column \"culture\""),
        ]
        for (text, name, expected) in cases {
            XCTAssertThrowsError(try SeasonPlan.parse(Data(text.utf8), fileName: name), text) { error in
                let message = (error as? PlanFileError)?.message ?? ""
                XCTAssertTrue(message.contains(expected), "\(message) lacks \(expected)")
                XCTAssertNotNil(error as? PlanFileError, "\(error)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    // MARK: - Units and dates

    func testDoseUnitsConvertWhereTheyCan() throws {
        let ml = try XCTUnwrap(DoseUnit("ml/ha")), l = try XCTUnwrap(DoseUnit("L/ha")), kg = try XCTUnwrap(DoseUnit("kg/ha"))
        let g = try XCTUnwrap(DoseUnit("g/ha")), lt = try XCTUnwrap(DoseUnit("l/t"))
        XCTAssertEqual(try XCTUnwrap(ml.convert(300, to: l)), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(kg.convert(0.02, to: g)), 20, accuracy: 1e-12)
        XCTAssertNil(l.convert(1, to: kg))
        XCTAssertNil(l.convert(1, to: lt))
        XCTAssertNil(DoseUnit("%"))
        XCTAssertNil(DoseUnit("g/hl"))
    }

    func testPlanDatesCountDays() throws {
        XCTAssertNil(PlanDate("2026-02-29"))
        XCTAssertNotNil(PlanDate("2024-02-29"))
        XCTAssertNil(PlanDate("2026-7-1"))
        XCTAssertEqual(try XCTUnwrap(PlanDate("1970-01-01")).day, 0)
        XCTAssertEqual(try XCTUnwrap(PlanDate("2026-07-30")).day - XCTUnwrap(PlanDate("2026-07-20")).day, 10)
        // 2024 is a leap year: 366 days to the same date in 2025.
        XCTAssertEqual(try XCTUnwrap(PlanDate("2025-03-01")).day - XCTUnwrap(PlanDate("2024-03-01")).day, 365)
        XCTAssertEqual(try XCTUnwrap(PlanDate("2025-01-01")).day - XCTUnwrap(PlanDate("2024-01-01")).day, 366)
        XCTAssertEqual(PlanDate("2026-11-24")?.description, "2026-11-24")
    }
}
