import AgroDomain
import AgroImport
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

/// A real register file imported once per test run, with its independent reading.
final class ImportedRegister: @unchecked Sendable {
    let file: URL
    let report: SRPPPImportReport
    let catalog: SQLiteCatalog
    let reference: RegisterReference

    private static let lock = NSLock()
    /// Each file is imported once per run; a failure is kept too, so it is not retried per test.
    nonisolated(unsafe) private static var cache: [String: Result<ImportedRegister, any Error>] = [:]

    static func load(_ name: String) throws -> ImportedRegister {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[name] { return try cached.get() }
        let result = Result { try make(name) }
        cache[name] = result
        return try result.get()
    }

    private static func make(_ name: String) throws -> ImportedRegister {
        // The published files, next to the repository (never copied into it).
        let file = try SharedFixtures.file("data/srppp/" + name)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-import-tests-\(ProcessInfo.processInfo.processIdentifier)")
        if !FileManager.default.fileExists(atPath: directory.path) {
            XCTestObservationCenter.shared.addTestObserver(RemoveAtEnd(directory: directory))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent(name + ".sqlite").path
        let report = try SRPPPImporter().importFile(at: file.path, to: output)
        return ImportedRegister(
            file: file, report: report, catalog: try SQLiteCatalog(path: output),
            reference: try RegisterReference(data: RegisterReference.xmlData(of: file)))
    }

    private init(file: URL, report: SRPPPImportReport, catalog: SQLiteCatalog, reference: RegisterReference) {
        self.file = file
        self.report = report
        self.catalog = catalog
        self.reference = reference
    }
}

/// Removes the imported catalogs when the test run ends.
private final class RemoveAtEnd: NSObject, XCTestObservation {
    let directory: URL
    init(directory: URL) { self.directory = directory }
    func testBundleDidFinish(_ testBundle: Bundle) {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The checks run on each published version.
enum RegisterChecks {
    static func counts(_ r: ImportedRegister) throws {
        let ref = r.reference
        let registered = ref.products.filter { !$0.isParallelImport }
        let parallel = ref.products.filter(\.isParallelImport)
        XCTAssertEqual(r.report.products, registered.count)
        XCTAssertEqual(r.report.products, ref.declaredProducts)
        XCTAssertEqual(r.report.salePermissions, registered.filter(\.isSalePermission).count)
        XCTAssertEqual(r.report.parallelImports, parallel.count)
        XCTAssertEqual(r.report.productUses, registered.reduce(0) { $0 + $1.indications.count })
        XCTAssertEqual(r.report.parallelImportUses, parallel.reduce(0) { $0 + $1.indications.count })
        XCTAssertEqual(r.report.cultures, ref.tables["Culture"]?.count)
        XCTAssertEqual(r.report.pests, ref.tables["Pest"]?.count)
        XCTAssertEqual(r.report.substances, ref.tables["Substance"]?.count)
        let all = try r.catalog.products(ProductFilter(), page: .all, locale: "de")
        XCTAssertEqual(all.total, ref.products.count)
        XCTAssertEqual(try r.catalog.cultures(locale: "de").count, ref.tables["Culture"]?.count)
    }

    /// For a spread of (pest, culture) pairs taken from the register's own uses, with the
    /// culture replaced by one of its members where it has any, so that groups must resolve.
    static func pestCulturePairs(_ r: ImportedRegister) throws {
        let ref = r.reference
        var children: [String: [String]] = [:]
        for (culture, parents) in ref.parents { for parent in parents { children[parent, default: []].append(culture) } }
        let indications = ref.products.flatMap(\.indications).filter { !$0.pests.isEmpty && !$0.cultures.isEmpty }
        XCTAssertFalse(indications.isEmpty)
        var checked = 0, resolvedThroughGroup = 0
        let stride = max(1, indications.count / 40)
        for index in Swift.stride(from: 0, to: indications.count, by: stride) {
            let indication = indications[index]
            let pest = indication.pests[0]
            let group = indication.cultures[0]
            let culture = children[group]?.sorted().first ?? group
            let expected = ref.productIDs(pest: pest, culture: culture)
            let actual = try r.catalog.products(ProductFilter(pest: pest, culture: culture), page: .all, locale: "de")
            XCTAssertEqual(Set(actual.items.map(\.id)), expected, "pest \(pest) culture \(culture)")
            XCTAssertEqual(actual.total, expected.count)
            if culture != group { resolvedThroughGroup += 1 }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 30)
        XCTAssertGreaterThan(resolvedThroughGroup, 0, "the sample must exercise culture groups")
    }

    /// `products --culture Weizen` includes uses registered on Getreide.
    static func cultureGroups(_ r: ImportedRegister) throws {
        let ref = r.reference
        let wheat = try XCTUnwrap(ref.key(in: "Culture", named: "Weizen"))
        let cereals = try XCTUnwrap(ref.key(in: "Culture", named: "Getreide"))
        XCTAssertTrue(ref.ancestorsOrSelf(wheat).contains(cereals))
        let matches = try r.catalog.lookup("Weizen", kind: .culture, locale: "de")
        XCTAssertEqual(matches.first?.id, wheat)
        let expected = ref.productIDs(pest: nil, culture: wheat)
        let onCerealsOnly = ref.products.filter { product in
            product.indications.contains { $0.cultures.contains(cereals) }
                && !product.indications.contains { $0.cultures.contains(wheat) }
        }.map(\.catalogID)
        XCTAssertFalse(onCerealsOnly.isEmpty)
        let actual = Set(try r.catalog.products(ProductFilter(culture: wheat), page: .all, locale: "de").items.map(\.id))
        XCTAssertEqual(actual, expected)
        XCTAssertTrue(Set(onCerealsOnly).isSubset(of: actual))
    }

    static func substances(_ r: ImportedRegister) throws {
        let ref = r.reference
        let keys = (ref.tables["Substance"] ?? []).sorted()
        var nonEmpty = 0
        for key in Swift.stride(from: 0, to: keys.count, by: max(1, keys.count / 30)).map({ keys[$0] }) {
            let expected = ref.productIDs(substance: key)
            let actual = try r.catalog.products(ProductFilter(substance: key), page: .all, locale: "de")
            XCTAssertEqual(Set(actual.items.map(\.id)), expected, "substance \(key)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        XCTAssertGreaterThan(nonEmpty, 5)
    }

    /// A registered product, a sale permission and a parallel import: their uses are the
    /// register's indications, in order, with cultures, pests, obligations and waiting period.
    static func productUses(_ r: ImportedRegister) throws {
        let ref = r.reference
        let samples = [
            ref.products.filter { !$0.isParallelImport && !$0.isSalePermission }.max {
                $0.indications.count < $1.indications.count
            },
            ref.products.first { $0.isSalePermission && $0.indications.count > 1 },
            ref.products.first { $0.isParallelImport && $0.indications.count > 1 },
            ref.products.first { product in
                product.indications.contains { !$0.cultureForms.isEmpty }
                    && product.indications.flatMap { $0.pestTypes.values }.contains("PEST_PARTIAL_EFFECT")
            },
        ].compactMap { $0 }
        XCTAssertEqual(samples.count, 4)
        for product in samples {
            let uses = try r.catalog.uses(UseFilter(product: product.catalogID), locale: "de")
            XCTAssertEqual(uses.count, product.indications.count, product.catalogID)
            for (use, indication) in zip(uses, product.indications) {
                XCTAssertEqual(Set(use.cultures.map(\.id)), Set(indication.cultures), use.id)
                XCTAssertEqual(Set(use.pests.map(\.pest.id)), Set(indication.pests), use.id)
                // Obligations missing from the metadata are data errors and not shown.
                let known = Set(ref.tables["Obligation"] ?? [])
                XCTAssertEqual(use.obligations.count, indication.obligations.filter(known.contains).count, use.id)
                // Effect per pest as the register types it.
                let effects: [String: PestEffect] = [
                    "PEST_FULL_EFFECT": .full, "PEST_PARTIAL_EFFECT": .partial, "PEST_SIDE_EFFECT": .sideEffect,
                ]
                for target in use.pests {
                    XCTAssertEqual(target.effect, effects[indication.pestTypes[target.pest.id] ?? ""], use.id)
                }
                // The amount per area when the register gives one, else the spray concentration.
                let amount = Double(indication.expenditureFrom) ?? Double(indication.dosageFrom)
                XCTAssertEqual(use.dose.from, amount, use.id)
                // Field or greenhouse, in the application area.
                for form in indication.cultureForms {
                    let name = try XCTUnwrap(ref.names["CultureForm"]?[form]?["de"])
                    XCTAssertTrue(use.applicationArea?.contains(name) == true, "\(use.id): \(name)")
                }
                if let days = Int(indication.waitingPeriod) {
                    XCTAssertTrue(use.phiDays == days || use.phiDays == days * 7, use.id)
                } else {
                    XCTAssertNil(use.phiDays, use.id)
                }
            }
            let card = try XCTUnwrap(try r.catalog.product(id: product.catalogID, locale: "de"))
            XCTAssertEqual(card.name, product.name.trimmingCharacters(in: .whitespaces))
            switch (product.isParallelImport, product.isSalePermission) {
            case (true, _):
                XCTAssertEqual(card.origin, .parallelImport)
                XCTAssertEqual(card.originalProduct?.id, product.wNbr)
            case (false, true):
                // W-6649-1 is sold under the registration of W-6649.
                let base = String(product.wNbr[..<product.wNbr.lastIndex(of: "-")!])
                let original = ref.products.first { !$0.isParallelImport && !$0.isSalePermission && $0.wNbr == base }
                XCTAssertNotNil(original)
                XCTAssertEqual(card.origin, .salePermission)
                XCTAssertEqual(card.originalProduct?.id, original?.wNbr)
            default:
                XCTAssertEqual(card.origin, .registered)
                XCTAssertEqual(card.registrationNumber, "W-\(product.wNbr)")
            }
        }
    }

    static func search(_ r: ImportedRegister) throws {
        let ref = r.reference
        let beetle = try XCTUnwrap(ref.key(in: "Pest", named: "Kartoffelkäfer"))
        let hits = try r.catalog.search("Kartoffelkafer", kinds: [.pest], page: .all, locale: "de")
        XCTAssertTrue(hits.items.contains { $0.id == beetle })
        let potatoes = try XCTUnwrap(ref.key(in: "Culture", named: "pommes de terre", locale: "fr"))
        let french = try r.catalog.search("pomme de terre", kinds: [.culture], page: .all, locale: "fr")
        XCTAssertTrue(french.items.contains { $0.id == potatoes })
    }

    /// "W-6151" and "6151" both find the product registered as W-6151.
    static func registrationNumbers(_ r: ImportedRegister) throws {
        let product = try XCTUnwrap(r.reference.products.first { !$0.isParallelImport && !$0.isSalePermission })
        let typed = try r.catalog.lookup("W-\(product.wNbr)", kind: .product, locale: "de")
        XCTAssertEqual(typed.map(\.id), [product.wNbr])
        let bare = try r.catalog.lookup(product.wNbr, kind: .product, locale: "de")
        XCTAssertEqual(bare.first?.id, product.wNbr)
        let found = try r.catalog.search(product.wNbr, kinds: [.product], page: .all, locale: "de")
        XCTAssertTrue(found.items.contains { $0.id == product.wNbr })
    }

    /// English names are mostly empty in the register: they read as German.
    static func englishFallback(_ r: ImportedRegister) throws {
        let ref = r.reference
        let pest = try XCTUnwrap(ref.names["Pest"]?.first { $0.value["en"] == nil && $0.value["de"] != nil })
        let english = try XCTUnwrap(try r.catalog.pest(id: pest.key, locale: "en"))
        XCTAssertEqual(english.name, pest.value["de"])
        let info = try r.catalog.catalogInfo()
        XCTAssertEqual(info.identity, "ch.blv.srppp")
        XCTAssertTrue(info.attribution?.contains("psm.admin.ch") == true)
    }
}

final class Register2024Tests: XCTestCase {
    static let file = "Daten_Pflanzenschutzmittelverzeichnis_2024-12-16.zip"
    func register() throws -> ImportedRegister { try ImportedRegister.load(Self.file) }

    func testCounts() throws { try RegisterChecks.counts(register()) }
    func testPestCulturePairs() throws { try RegisterChecks.pestCulturePairs(register()) }
    func testCultureGroups() throws { try RegisterChecks.cultureGroups(register()) }
    func testSubstances() throws { try RegisterChecks.substances(register()) }
    func testProductUses() throws { try RegisterChecks.productUses(register()) }
    func testSearch() throws { try RegisterChecks.search(register()) }
    func testRegistrationNumbers() throws { try RegisterChecks.registrationNumbers(register()) }
    func testEnglishFallback() throws { try RegisterChecks.englishFallback(register()) }

    func testVersionFromPublicationDate() throws {
        let r = try register()
        XCTAssertEqual(r.report.version, 20241216)
        XCTAssertEqual(try r.catalog.catalogInfo().version, 20241216)
    }

    func testLatinPestNames() throws {
        let r = try register()
        let (key, names) = try XCTUnwrap(r.reference.names["Pest"]?.first { $0.value["lt"] != nil })
        XCTAssertEqual(try r.catalog.pest(id: key, locale: "de")?.latinName, names["lt"])
    }
}

final class Register2026Tests: XCTestCase {
    static let file = "PublicationData_2026_02_03.xml.xz"
    func register() throws -> ImportedRegister { try ImportedRegister.load(Self.file) }

    func testCounts() throws { try RegisterChecks.counts(register()) }
    func testPestCulturePairs() throws { try RegisterChecks.pestCulturePairs(register()) }
    func testCultureGroups() throws { try RegisterChecks.cultureGroups(register()) }
    func testSubstances() throws { try RegisterChecks.substances(register()) }
    func testProductUses() throws { try RegisterChecks.productUses(register()) }
    func testSearch() throws { try RegisterChecks.search(register()) }
    func testRegistrationNumbers() throws { try RegisterChecks.registrationNumbers(register()) }
    func testEnglishFallback() throws { try RegisterChecks.englishFallback(register()) }

    func testVersionFromPublicationDate() throws {
        // Read outside the assertion: a missing register's XCTSkip must skip, not fail.
        let r = try register()
        XCTAssertEqual(r.report.version, 20260203)
    }

    /// The plain XML is read metadata first (the tables at its end before the products), the
    /// published `.xz` in one pass: the same report, data errors and all, and the same catalog.
    func testPlainFileReadsLikePublished() throws {
        let r = try register()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agro-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("PublicationData_2026_02_03.xml")
        XCTAssertTrue(FileManager.default.createFile(atPath: plain.path, contents: nil))
        let output = try FileHandle(forWritingTo: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xz", "-dc", "--", r.file.path]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        XCTAssertEqual(process.terminationStatus, 0, "xz -dc")

        let catalogPath = directory.appendingPathComponent("plain.sqlite").path
        var report = try SRPPPImporter().importFile(at: plain.path, to: catalogPath)
        report.catalogPath = r.report.catalogPath
        XCTAssertEqual(report, r.report)
        let catalog = try SQLiteCatalog(path: catalogPath)
        let products = try catalog.products(ProductFilter(), page: .all, locale: "de").items
        XCTAssertEqual(products, try r.catalog.products(ProductFilter(), page: .all, locale: "de").items)
        // A sale permission: its original is resolved against every product of the register.
        let sample = try XCTUnwrap(products.first { $0.id.contains("-") && $0.registrationNumber?.hasPrefix("W-") == true })
        XCTAssertEqual(try catalog.product(id: sample.id, locale: "fr"), try r.catalog.product(id: sample.id, locale: "fr"))
        XCTAssertEqual(
            try catalog.uses(UseFilter(product: sample.id), locale: "it"),
            try r.catalog.uses(UseFilter(product: sample.id), locale: "it"))
    }
}
