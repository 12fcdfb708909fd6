import AgroCLI
import AgroContent
import AgroDomain
import AgroImport
import AgroNews
import AgroPostgres
import AgroPresentation
import AgroStore
import AgroUpdate
import AgroWeather
import Foundation
import XCTest

@testable import agro_full

/// The program's table of library errors: every case has the exit status docs/cli.md
/// ("Exit status") and docs/weather.md document, English words equal to the
/// library's own, and Russian words of its own.
final class ErrorWordingTests: XCTestCase {
    private static let localizable = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Localizable")
    private let wordings: [any ErrorWording] = [CatalogErrorWording(), ServiceErrorWording()]

    /// One value of every case (both variants of a case worded two ways), with its status as
    /// docs/cli.md gives it.
    private let rows: [(error: any UserFacingError, status: Int32)] = {
        let match = EntityRef(id: "p1", name: "Alpha")
        let libraries: [(error: any UserFacingError, status: Int32)] = [
            (CatalogError.notFound(kind: .product, id: "x"), 3),
            (CatalogError.ambiguous(kind: .pest, text: "rust", candidates: [match, match]), 4),
            (CatalogError.unknownName(kind: .culture, text: "Wheet", suggestions: []), 3),
            (CatalogError.unknownName(kind: .culture, text: "Wheet", suggestions: [match]), 3),
            (CatalogError.missing(path: "/c.sqlite"), 66),
            (CatalogError.corrupt(path: "/c.sqlite", reason: "not a database"), 66),
            (CatalogError.schemaTooNew(path: "/c.sqlite", found: 9, supported: 2), 67),
            (SchemeError.none(culture: "Rice", available: ["Wheat", "Maize"]), 3),
            (CoordinateError.badFormat("51"), 64),
            (CoordinateError.notANumber(part: "abc", what: "latitude"), 64),
            (CoordinateError.notANumber(part: "abc", what: "longitude"), 64),
            (CoordinateError.latitudeOutOfRange(91.5), 64),
            (CoordinateError.longitudeOutOfRange(-181), 64),
            (CatalogSelectionError.noCatalog("no bundled catalog"), 66),
            (UserStoreError.unusable(path: "/u.sqlite", reason: "locked"), 74),
            (CatalogWriterError.cultureCycle(cultureID: "a"), 65),
            (CatalogWriterError.cannotWrite(path: "/c.sqlite", reason: "disk full"), 73),
            (UpdateError.noServer, 94),
            (UpdateError.noTrustedKeys, 94),
            (UpdateError.insecureServer(url: "http://h"), 94),
            (UpdateError.invalidServerURL("ftp://h"), 94),
            (UpdateError.invalidSetting(name: "update.deadline", value: "-1"), 94),
            (UpdateError.keyFile(path: "/k.pub", reason: "cannot read the file"), 94),
            (UpdateError.unreachable(url: "https://h", reason: "refused"), 90),
            (UpdateError.timedOut(url: "https://h"), 90),
            (UpdateError.httpStatus(url: "https://h/manifest.json", status: 500), 90),
            (UpdateError.manifestInvalid("no file"), 91),
            (UpdateError.unsigned, 91),
            (UpdateError.untrustedKey(keyID: "0123456789abcdef"), 91),
            (UpdateError.badSignature(keyID: "0123456789abcdef"), 91),
            (UpdateError.expired(expiresAt: "2026-01-01T00:00:00Z"), 93),
            (UpdateError.notNewer(identity: "demo", offered: 1, installed: 2), 92),
            (UpdateError.identityMismatch(offered: "a", installed: "b"), 91),
            (UpdateError.downgrade(identity: "demo", offered: 2, highest: 3), 97),
            (UpdateError.identityNotPinned(offered: "a", pinned: "b"), 98),
            (UpdateError.versionJump(identity: "demo", offered: 500, highest: 3, maxStep: 10), 91),
            (UpdateError.schemaTooNew(found: 9, supported: 2), 67),
            (UpdateError.truncated(expected: 100, received: 40), 91),
            (UpdateError.tooLarge(declared: 100), 91),
            (
                UpdateError.checksumMismatch(
                    what: "catalog", expected: String(repeating: "a", count: 64), actual: String(repeating: "b", count: 64)), 91
            ),
            (UpdateError.sizeMismatch(what: "catalog", expected: 100, actual: 99), 91),
            (UpdateError.decompression("bad header"), 91),
            (UpdateError.catalogRejected("schema"), 91),
            (UpdateError.deltaFailed("a conflict"), 91),
            (UpdateError.noPreviousCatalog, 95),
            (UpdateError.verificationFailed(path: "/c.sqlite", reason: "integrity"), 96),
            (UpdateError.io(path: "/d", reason: "read-only"), 73),
            (UpdateError.busy(path: "/d"), 73),
            (UpdateError.notGreaterThanPublished(version: 1, newest: 2), 64),
            (UpdateError.publishIdentityMismatch(catalog: "a", published: "b"), 64),
            (WeatherError.noAPIKey, 80),
            (WeatherError.stalled(retryAfter: 30), 85),
            (WeatherError.keyRejected(serverMessage: "Invalid API key.\nSee docs"), 81),
            (WeatherError.keyRejected(serverMessage: nil), 81),
            (WeatherError.notFound(serverMessage: "city not found"), 82),
            (WeatherError.rateLimited(retryAfter: 90, serverMessage: nil), 83),
            (WeatherError.rateLimited(retryAfter: 120, serverMessage: "slow down"), 83),
            (WeatherError.rateLimited(retryAfter: 7200, serverMessage: nil), 83),
            (WeatherError.rateLimited(retryAfter: nil, serverMessage: nil), 83),
            (WeatherError.serverError(status: 503), 84),
            (WeatherError.requestRefused(status: 400, serverMessage: "bad lat"), 89),
            (WeatherError.timeout(seconds: 1, url: "http://h"), 85),
            (WeatherError.timeout(seconds: 0.5, url: "http://h"), 85),
            (WeatherError.noNetwork(reason: "connection refused", url: "http://h"), 86),
            (WeatherError.malformedAnswer(detail: "main.temp"), 87),
            (WeatherError.nothingCached(place: "51.00,7.00"), 88),
            (WeatherError.invalidBaseURL("ftp://h"), 64),
            (FeedError.invalidURL("ftp://h"), 64),
            (FeedError.unreachable(url: "https://h/f", reason: "refused"), 74),
            (FeedError.httpStatus(url: "https://h/f", status: 404), 74),
            (FeedError.notAFeed(url: "https://h/f"), 65),
            (FeedError.malformed(url: "https://h/f", reason: "no channel"), 65),
            (FeedError.notFetched(url: "https://h/f"), 74),
            (FeedError.config(path: "/f.json", reason: "not JSON"), 74),
            (FeedError.cache(path: "/cache", reason: "read-only"), 73),
            (PostgresStoreError.invalidURL("postgres://h"), 64),
            (PostgresStoreError.schemaTooNew(found: 3, known: 1), 103),
            (SRPPPImportError.cannotOpen(path: "/r.xml", reason: "missing"), 74),
            (SRPPPImportError.notThisRegister(path: "/r.xml", reason: "root is html"), 65),
            (SRPPPImportError.malformedXML(path: "/r.xml", line: 12, message: "tag mismatch"), 65),
            (SRPPPImportError.malformedXML(path: "/r.xml", line: 0, message: "tag mismatch"), 65),
            (SRPPPImportError.decompressionFailed(path: "/r.zip", tool: "unzip", message: ""), 65),
            (SRPPPImportError.decompressionFailed(path: "/r.zip", tool: "unzip", message: "bad CRC"), 65),
            (SRPPPImportError.toolMissing(tool: "xz"), 1),
            (SRPPPImportError.toolMissing(tool: "unzip"), 1),
            (SRPPPImportError.versionUnknown(path: "/r.xml"), 64),
            (SRPPPImportError.cannotWrite(path: "/c.sqlite", reason: "disk full"), 73),
            (TankError(.notPositive(option: "area", value: 0)), 64),
            (TankError(.notComputable(area: 1, water: 1e-300, tank: 1e300)), 64),
            (TankError(.noProduct), 64),
            (TankError(.tooManyLoads(area: 1e300, water: 2.5, tank: 3000)), 64),
            (TankError(.doseNotPositive(product: "Alpha", dose: -0.5)), 64),
            (TankError(.notPerHectare(unit: "l/t")), 64),
            (TankError(.doseCountMismatch), 64),
            (TankError(.unitCountMismatch), 64),
            (
                TankError(
                    .doseOutsideRange(
                        product: "Alpha", dose: 1.5, unit: "l/ha",
                        registered: [Dose(from: 0.5, to: 1, unit: "l/ha"), Dose(from: 0.8, to: nil, unit: "l/ha")])), 64
            ),
            (PlanFileError(.invalidJSON), 64),
            (PlanFileError(.malformed(detail: "The given data was not valid JSON.", path: ["applications", "2"])), 64),
            (PlanFileError(.missingKey("dose", path: ["applications", "1"])), 64),
            (PlanFileError(.missingKey("culture", path: [])), 64),
            (PlanFileError(.wrongType(path: ["area"])), 64),
            (PlanFileError(.missingValue(path: ["applications", "1", "unit"])), 64),
            (PlanFileError(.notAPlan("unexpected end")), 64),
            (PlanFileError(.emptyCulture), 64),
            (PlanFileError(.areaNotPositive), 64),
            (PlanFileError(.noApplications), 64),
            (PlanFileError(.harvestBeforeSowing(harvest: PlanDate("2026-07-28")!, sowing: PlanDate("2026-09-10")!)), 64),
            (PlanFileError(.doseNotPositive(application: 2)), 64),
            (PlanFileError(.stageOutOfRange(application: 2, bbch: 120)), 64),
            (PlanFileError(.emptyFile), 64),
            (PlanFileError(.missingColumn("dose")), 64),
            (PlanFileError(.notANumber(line: 3, column: "dose", text: "abc")), 64),
            (PlanFileError(.notADate(line: 3, column: "date", text: "28.07.2026")), 64),
            (PlanFileError(.missingField(line: 3, column: "product")), 64),
            (PlanFileError(.notAStage(line: 3, text: "late")), 64),
            (PlanFileError(.tooManyApplications(count: 501, maximum: 500)), 64),
            (ContentBuildError(problems: []), 65),
            (ContentBuildError(problems: [ContentProblem(file: "uses.json", entry: "u1", problem: "unknown product")]), 65),
            (
                ContentBuildError(problems: [
                    ContentProblem(file: "uses.json", entry: "u1", problem: "unknown product"),
                    ContentProblem(file: "pests.json", entry: nil, problem: "not JSON"),
                ]), 65
            ),
        ]
        return libraries + ErrorWordingTests.requestErrors.map { (error: $0 as any UserFacingError, status: Int32(64)) }
            + ErrorWordingTests.usageErrors.map { (error: $0 as any UserFacingError, status: Int32(64)) }
    }()

    /// One value of every case of `RequestError`: all are bad usage.
    private static let requestErrors: [RequestError] = [
        .notALetter("ab"), .pestOrCultureNeeded, .stageOutOfRange(120),
        .unknownValue(.sort, value: "price", valid: ["name", "dose", "phi"]), .unknownGroup("XYZ 9"),
        .notBoth(.at, .region), .notBoth(.contactsRegion, .near), .oneNeeded(.at, .region), .needs(.product, .spray),
        .missing(.q), .belowMinimum(.perPage, value: "0", minimum: 1), .outOfRange(.stage, value: "120", minimum: 0, maximum: 99),
        .unexpectedArguments(["--forcast"], command: "agro weather"), .notAList(command: "agro product"),
        .fileTooLarge(path: "/plan.json", mebibytes: 4),
    ]

    /// One value of every kind of `UsageError` (a command line the parser refuses): all are bad usage.
    private static let usageErrors: [UsageError] = [
        .unknownOption("--bogus", suggestion: nil), .unknownOption("--pag", suggestion: "--page"), .unknownCommand("prodcts"),
        .unexpectedArguments(["a", "b"]), .missingArgument("<product>"), .missingValue(option: "--lang"),
        .invalidValue(option: "--per-page", value: "x", valid: []),
        .invalidValue(option: "--format", value: "xml", valid: ["table", "json", "csv"]),
        .takesNoValue(option: "--all", value: "yes"), .givenTwice("--all"), .missingSubcommand,
        .outOfRange(option: "--port", value: "99999", minimum: 0, maximum: 65535),
        .belowMinimum(option: "--width", value: "3", minimum: 10),
        .secondsOutOfRange(option: "--header-timeout", value: "0", maximum: 3600), .unreadable,
    ].map { UsageError($0, command: "agro products") }

    private func report(_ error: any UserFacingError, locale: String) -> ErrorReport? {
        let strings = Localizer(locale: locale, directory: Self.localizable)
        return wordings.lazy.compactMap { $0.report(error, strings: strings) }.first
    }

    func testEveryCaseHasItsDocumentedStatus() {
        for (error, status) in rows {
            XCTAssertEqual(report(error, locale: "en")?.status.rawValue, status, "\(error)")
        }
    }

    func testEnglishWordingIsTheLibrarysMessage() {
        for (error, _) in rows {
            XCTAssertEqual(report(error, locale: "en")?.message, error.message, "\(error)")
        }
    }

    /// Russian has a string of its own for every error key English has, and every message
    /// comes out with its placeholders filled.
    func testRussianWordingIsComplete() throws {
        func table(_ locale: String) throws -> [String: String] {
            let data = try Data(contentsOf: Self.localizable.appendingPathComponent("\(locale).json"))
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String])
        }
        let english = try table("en"), russian = try table("ru")
        let keys = english.keys.filter { $0.hasPrefix("error.") || $0.hasPrefix("kinds.") }
        XCTAssertGreaterThan(keys.count, 80)
        for key in keys {
            XCTAssertNotNil(russian[key], key)
            // Only the quotes around the server's words read the same.
            if key != "error.WeatherError.serverSaid" { XCTAssertNotEqual(russian[key], english[key], key) }
        }
        var worded = 0
        for (error, _) in rows {
            guard let message = report(error, locale: "ru")?.message else { return XCTFail("\(error)") }
            XCTAssertNil(message.range(of: #"\{\d\}"#, options: .regularExpression), message)
            XCTAssertFalse(message.hasPrefix("error."), message)
            if message != error.message { worded += 1 }
        }
        // All but the one the sources word themselves (a single content problem).
        XCTAssertEqual(worded, rows.count - 1)
    }

    /// A request's error names its parameters as the front that received it spells them (a
    /// flag on the command line, a query parameter on the web), in the request's language.
    func testRequestErrorsNameTheParametersAsTheFrontSpellsThem() throws {
        let english = Localizer(locale: "en", directory: Self.localizable)
        let russian = Localizer(locale: "ru", directory: Self.localizable)
        let letter = RequestError.notALetter("ab")
        let wording = CatalogErrorWording()
        XCTAssertEqual(
            wording.report(letter, strings: english, spelling: .commandLine)?.message,
            "--letter takes one letter or digit, not \"ab\"")
        XCTAssertEqual(
            wording.report(letter, strings: english, spelling: .query)?.message, "letter= takes one letter or digit, not \"ab\"")
        XCTAssertEqual(
            wording.report(RequestError.notBoth(.at, .region), strings: english, spelling: .query)?.message,
            "give either at=LAT,LON or region=ID, not both")
        XCTAssertEqual(
            wording.report(RequestError.belowMinimum(.perPage, value: "0", minimum: 1), strings: english, spelling: .commandLine)?
                .message, "--per-page must be 1 or more, not \"0\"")
        for error in Self.requestErrors {
            // The CLI's own refusals (words a command does not take, a CSV of one record) name
            // the command; every other names parameters only.
            if case .unexpectedArguments = error { continue }
            if case .notAList = error { continue }
            for strings in [english, russian] {
                let web = try XCTUnwrap(wording.report(error, strings: strings, spelling: .query)?.message)
                XCTAssertFalse(web.contains("--"), web)
            }
            let ru = try XCTUnwrap(wording.report(error, strings: russian, spelling: .query)?.message)
            XCTAssertNotNil(ru.range(of: "[а-яё]", options: .regularExpression), ru)
        }
    }

    /// A manifest's expiry reads as a time stamp of the language, not the manifest's ISO form.
    func testAnExpiredManifestNamesItsTimeAsTheLanguageWritesIt() throws {
        let expired = UpdateError.expired(expiresAt: "2026-03-07T09:30:00Z")
        XCTAssertEqual(
            report(expired, locale: "en")?.message,
            "the server's manifest expired at 2026-03-07 09:30 UTC: the publisher must publish again; nothing was changed")
        for locale in ["ru", "kk"] {
            let message = try XCTUnwrap(report(expired, locale: locale)?.message)
            XCTAssertTrue(message.contains("07.03.2026 09:30 UTC"), message)
            XCTAssertFalse(message.contains("T09"), message)
        }
    }

    func testKazakhHasItsOwnWording() {
        let message = report(UpdateError.noPreviousCatalog, locale: "kk")?.message
        XCTAssertEqual(message, "қайтатын алдыңғы каталог жоқ")
    }

    /// Through the programs: the message in the language of the command line (flag, then the
    /// environment), the status from the table, on both sides of the split.
    func testTheProgramsWordErrorsInTheInterfaceLanguage() throws {
        let runner = CLIRunner()
        let query = try runner.run(["--lang", "ru", "product", "no-such-product"])
        XCTAssertEqual(query.status, 3)
        XCTAssertEqual(query.stderr, "agro: не найдено: препарат \"no-such-product\"\n")
        let english = try runner.run(["product", "no-such-product"])
        XCTAssertEqual(english.stderr, "agro: no product matches \"no-such-product\"\n")

        let update = try runner.run(["db", "rollback"], extraEnvironment: ["AGRO_LANG": "ru"])
        XCTAssertEqual(update.status, 95, update.stderr)
        XCTAssertEqual(update.stderr, "agro: нет предыдущего каталога, к которому можно вернуться\n")
    }
}
