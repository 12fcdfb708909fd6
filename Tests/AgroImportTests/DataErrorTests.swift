import AgroDomain
import AgroImport
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

/// Hand-made registers: data errors are counted and skipped; other files fail at once.
final class DataErrorTests: ImportTestCase {
    private func write(_ text: String, as name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// One product with two uses: the first refers to a culture that is not in the metadata
    /// and has an unparsable dose; the second is clean.
    private let broken = """
        <?xml version="1.0" encoding="UTF-8"?>
        <PublicationData>
          <Products numberOfProducts="1">
            <Product id="1" wNbr="1234" name="Testprodukt  " exhaustionDeadline="" soldoutDeadline="" isSalePermission="false">
              <ProductInformation>
                <CodeS primaryKey="X1"/>
                <Ingredient inPercent="12.5" additionalTextPrimaryKey="">
                  <SubstanceType SubstanceType="ACTIVE_INGREDIENT"/>
                  <Substance primaryKey="S1"/>
                </Ingredient>
                <Indication dosageFrom="zwei" dosageTo="" waitingPeriod="3" expenditureForm="" expenditureTo="">
                  <Culture primaryKey="C-missing" additionalTextPrimaryKey=""/>
                  <Pest primaryKey="P1" additionalTextPrimaryKey="" type="PEST_FULL_EFFECT"/>
                </Indication>
                <Indication dosageFrom="0.5" dosageTo="" waitingPeriod="" expenditureForm="" expenditureTo="">
                  <Culture primaryKey="C2" additionalTextPrimaryKey=""/>
                  <Pest primaryKey="P1" additionalTextPrimaryKey="" type="PEST_PARTIAL_EFFECT"/>
                </Indication>
              </ProductInformation>
            </Product>
          </Products>
          <MetaData name="Culture" numberOfRows="2">
            <Detail primaryKey="C1"><Description value="Getreide" language="de"/></Detail>
            <Detail primaryKey="C2"><Parent primaryKey="C1"/><Description value="Weizen" language="de"/><Description value="" language="en"/></Detail>
          </MetaData>
          <MetaData name="CodeS" numberOfRows="1">
            <Detail primaryKey="X1"><Description value="Nur für den berufsmässigen Verwender." language="de"/></Detail>
          </MetaData>
          <MetaData name="Pest" numberOfRows="1">
            <Detail primaryKey="P1"><Description value="Blattläuse" language="de"/></Detail>
          </MetaData>
          <MetaData name="Substance" numberOfRows="1">
            <Detail primaryKey="S1" iupacName="test acid"><Description value="Testsäure" language="de"/></Detail>
          </MetaData>
        </PublicationData>
        """

    func testDataErrorsAreCountedAndDoNotStopTheImport() throws {
        let input = try write(broken, as: "broken.xml")
        let output = directory.appendingPathComponent("c.sqlite").path
        let report = try SRPPPImporter(options: .init(version: 7)).importFile(at: input, to: output)

        let missing = try XCTUnwrap(report.dataErrors.first { $0.kind == "missing Culture key" })
        XCTAssertEqual(missing.count, 1)
        XCTAssertTrue(missing.examples.first?.lowercased().contains("c-missing") == true)
        let number = try XCTUnwrap(report.dataErrors.first { $0.kind == "unparsable number" })
        XCTAssertEqual(number.count, 1)
        XCTAssertTrue(number.examples.first?.contains("zwei") == true)
        // Each example says where: the product, the use's place in it, a line (libxml2's, as
        // far as it has read).
        let place = "product W-1234, indication 1 (line "
        XCTAssertTrue(number.examples.first?.hasPrefix(place) == true)
        XCTAssertTrue(number.examples.first?.hasSuffix("): dosageFrom=\"zwei\"") == true)
        XCTAssertTrue(missing.examples.first?.hasPrefix(place) == true)
        XCTAssertTrue(missing.examples.first?.contains(") refers to Culture ") == true)
        XCTAssertEqual(report.dataErrorCount, 2)
        XCTAssertTrue(report.summary.contains("2 data errors"))

        let catalog = try SQLiteCatalog(path: output)
        XCTAssertEqual(try catalog.catalogInfo().version, 7)
        let product = try XCTUnwrap(try catalog.product(id: "1234", locale: "de"))
        XCTAssertEqual(product.name, "Testprodukt")
        XCTAssertEqual(product.registrationNumber, "W-1234")
        XCTAssertEqual(product.ingredients.first?.concentration, 12.5)
        // A phrase the register gives without a code still shows, under a made-up "S-" code.
        let phrases = product.hazard.hazardStatements + product.hazard.precautionaryStatements
        let phrase = try XCTUnwrap(phrases.first { $0.text == "Nur für den berufsmässigen Verwender." })
        XCTAssertTrue(phrase.code.hasPrefix("S-"))
        let uses = try catalog.uses(UseFilter(product: "1234"), locale: "de")
        XCTAssertEqual(uses.count, 2)
        XCTAssertEqual(uses[0].cultures, [])
        XCTAssertTrue(uses[0].dose.isEmpty)
        XCTAssertEqual(uses[0].phiDays, 3)
        XCTAssertEqual(uses[1].dose, Dose(from: 0.5, to: nil, unit: "%"))
        XCTAssertEqual(uses[1].pests.first?.effect, .partial)
        // The use on Weizen is found from Weizen; the culture reads in English as German.
        let wheat = try catalog.products(ProductFilter(culture: "C2"), page: .all, locale: "en")
        XCTAssertEqual(wheat.items.map(\.id), ["1234"])
        XCTAssertEqual(try catalog.culture(id: "C2", locale: "en")?.name, "Weizen")
        XCTAssertTrue(try catalog.products(ProductFilter(culture: "C1"), page: .all, locale: "de").items.isEmpty)
    }

    func testAWaitingPeriodBeyondAnyIntegerIsADataError() throws {
        // The second use's waiting period: a valid number that no Int holds (it trapped).
        let input = try write(
            broken.replacingOccurrences(of: "waitingPeriod=\"\"", with: "waitingPeriod=\"1e300\""), as: "huge.xml")
        let output = directory.appendingPathComponent("c.sqlite").path
        let report = try SRPPPImporter(options: .init(version: 7)).importFile(at: input, to: output)
        let number = try XCTUnwrap(report.dataErrors.first { $0.kind == "unparsable number" })
        XCTAssertEqual(number.count, 2)
        XCTAssertTrue(number.examples.contains { $0.contains("1e300") })
        let uses = try SQLiteCatalog(path: output).uses(UseFilter(product: "1234"), locale: "de")
        XCTAssertEqual(uses.map(\.phiDays), [3, nil])
    }

    func testCompressedInputReadsLikePlain() throws {
        let input = try write(broken, as: "PublicationData_2025_03_04.xml")
        try SharedFixtures.tool("/usr/bin/xz")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xz")
        process.arguments = ["-k", input]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "xz -k")
        let report = try SRPPPImporter().importFile(at: input + ".xz", to: directory.appendingPathComponent("x.sqlite").path)
        XCTAssertEqual(report.version, 20250304)
        XCTAssertEqual(report.products, 1)
        XCTAssertEqual(report.uses, 2)
    }

    func testOtherXMLIsNotTheRegister() throws {
        let input = try write("<?xml version=\"1.0\"?><html><body>hello</body></html>", as: "page.xml")
        XCTAssertThrowsError(
            try SRPPPImporter(options: .init(version: 1)).importFile(
                at: input, to: directory.appendingPathComponent("c.sqlite").path)
        ) { error in
            guard case SRPPPImportError.notThisRegister = error else { return XCTFail("\(error)") }
            XCTAssertTrue((error as? SRPPPImportError)?.message.contains("<html>") == true)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("c.sqlite").path))
    }

    func testBinaryFileIsNotTheRegister() throws {
        let url = directory.appendingPathComponent("image.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: url)
        XCTAssertThrowsError(
            try SRPPPImporter(options: .init(version: 1)).importFile(
                at: url.path, to: directory.appendingPathComponent("c.sqlite").path)
        ) { error in
            guard case SRPPPImportError.notThisRegister = error else { return XCTFail("\(error)") }
        }
    }

    func testTruncatedRegisterIsDamaged() throws {
        let cut = String(broken.prefix(broken.count / 2))
        let input = try write(cut, as: "cut.xml")
        XCTAssertThrowsError(
            try SRPPPImporter(options: .init(version: 1)).importFile(
                at: input, to: directory.appendingPathComponent("c.sqlite").path)
        ) { error in
            guard case SRPPPImportError.malformedXML = error else { return XCTFail("\(error)") }
        }
    }

    /// A billion-laughs document is refused at once: the import expands no entity a document
    /// declares (the register declares none), so a reference to one is an error naming it.
    func testEntityExpansionIsRefused() throws {
        var dtd = "<!DOCTYPE PublicationData [<!ENTITY a0 \"aaaaaaaaaa\">"
        for level in 1...9 { dtd += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        dtd += "]>"
        let input = try write(
            "<?xml version=\"1.0\"?>" + dtd + "<PublicationData><Products numberOfProducts=\"1\">"
                + "<Product id=\"1\" wNbr=\"1\" name=\"&a9;\"/></Products></PublicationData>",
            as: "bomb.xml")
        XCTAssertThrowsError(
            try SRPPPImporter(options: .init(version: 1)).importFile(
                at: input, to: directory.appendingPathComponent("c.sqlite").path)
        ) { error in
            let failure = error as? SRPPPImportError
            switch failure {
            case .notThisRegister?, .malformedXML?, .decompressionFailed?: break
            default: XCTFail("\(error)")
            }
            XCTAssertTrue(failure?.message.lowercased().contains("entity 'a9'") == true, "\(error)")
        }
    }

    func testMissingFile() {
        XCTAssertThrowsError(
            try SRPPPImporter().importFile(at: directory.appendingPathComponent("none.xml").path, to: "/dev/null")
        ) {
            guard case .cannotOpen? = $0 as? SRPPPImportError else { return XCTFail("\($0)") }
        }
    }

    func testVersionNeededWithoutDateInName() throws {
        let input = try write(broken, as: "register.xml")
        XCTAssertThrowsError(try SRPPPImporter().importFile(at: input, to: directory.appendingPathComponent("c.sqlite").path)) {
            XCTAssertEqual($0 as? SRPPPImportError, .versionUnknown(path: input))
        }
    }
}

extension DataErrorTests {
    /// Digits of other scripts match `\d` and `isNumber` but are no version: the name tells
    /// nothing, and the import asks for --version instead of trapping.
    func testFileNameWithNonASCIIDigits() throws {
        for name in ["srppp_٢٠٢٤-٠١-٠١.xml", "srppp_２０２４０１０１.xml", "2024٠١٠١.xml"] {
            let input = directory.appendingPathComponent(name).path
            try Data("<root/>".utf8).write(to: URL(fileURLWithPath: input))
            XCTAssertThrowsError(try SRPPPImporter().importFile(at: input, to: directory.appendingPathComponent("c.sqlite").path))
            {
                XCTAssertEqual($0 as? SRPPPImportError, .versionUnknown(path: input), name)
            }
        }
    }
}
