import AgroDomain
import AgroStore
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroImport

/// A plain register file is read metadata first (the tables at its end, then the products as
/// they come); a compressed one in one pass. Both must give the same catalog and report,
/// whatever the order of the records in the file.
final class MetadataFirstTests: ImportTestCase {
    private let cultureAndPest = """
          <MetaData name="Culture" numberOfRows="1">
            <Detail primaryKey="C1"><Description value="Weizen" language="de"/></Detail>
          </MetaData>
          <MetaData name="Pest" numberOfRows="1">
            <Detail primaryKey="P1"><Description value="Blattläuse" language="de"/></Detail>
          </MetaData>
        """

    /// A register whose sale permission "5-1" comes before its registered product "5", with
    /// a parallel import of "5" and one of a product the register does not have; `tables`
    /// goes where the metadata belongs (after the products), `early` before the products.
    private func register(early: String = "", tables: String? = nil) -> String {
        let metadata = tables ?? cultureAndPest
        func product(_ wNbr: String, sale: Bool, culture: String) -> String {
            """
                <Product id="\(wNbr)" wNbr="\(wNbr)" name="Mittel \(wNbr)" exhaustionDeadline="" soldoutDeadline="" isSalePermission="\(sale)">
                  <ProductInformation>
                    <Indication dosageFrom="0.5" dosageTo="" waitingPeriod="" expenditureForm="" expenditureTo="">
                      <Culture primaryKey="\(culture)" additionalTextPrimaryKey=""/>
                      <Pest primaryKey="P1" additionalTextPrimaryKey="" type="PEST_FULL_EFFECT"/>
                    </Indication>
                  </ProductInformation>
                </Product>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <PublicationData>
            \(early)
              <Products numberOfProducts="2">
            \(product("5-1", sale: true, culture: "C1"))
            \(product("5", sale: false, culture: "C-missing"))
              </Products>
              <Parallelimports>
                <Parallelimport id="F-1" wNbr="5" name="Import 5"><ProductInformation/></Parallelimport>
                <Parallelimport id="F-2" wNbr="9" name="Import 9"><ProductInformation/></Parallelimport>
              </Parallelimports>
            \(metadata)
            </PublicationData>
            """
    }

    /// Where `RegisterLayout` finds the tables of `text`, as a plain file.
    private func metadataOffset(_ text: String) throws -> Int? {
        let path = directory.appendingPathComponent("layout.xml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        return RegisterLayout.find(in: descriptor)?.metadataOffset
    }

    func testTheTablesAreFoundFromTheEnd() throws {
        let text = register()
        let first = try XCTUnwrap(text.range(of: "<MetaData")).lowerBound
        XCTAssertEqual(try metadataOffset(text), text.utf8.distance(from: text.startIndex, to: first))
        // Not laid out as the register is: no tables after the products, or something else
        // between the products and the tables.
        XCTAssertNil(try metadataOffset(register(tables: "")))
        XCTAssertNil(try metadataOffset(register(tables: "<Other/>\n" + cultureAndPest)))
    }

    func testBothPassesCountEveryTable() throws {
        // A table holding an element the parser does not know, with text (as in 2024): the
        // reader passes on its start but not its end tag.
        let text = register(
            tables: cultureAndPest.replacingOccurrences(
                of: #"language="de"/></Detail>"#, with: #"language="de"/><Remark>alt</Remark></Detail>"#))
        let path = directory.appendingPathComponent("passes.xml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let layout = try XCTUnwrap(RegisterLayout.find(in: descriptor))

        let tables = XMLNodeStream(
            source: XMLByteSource(fileDescriptor: descriptor, head: layout.head, tailFrom: layout.metadataOffset),
            documentName: "passes.xml", path: path)
        defer { tables.stop() }
        let metadata = try RegisterParser(path: path, part: .metadata).parse(tables)
        XCTAssertEqual(metadata.tableCount, 2)
        XCTAssertEqual(metadata.table("Pest")["P1"]?.texts["de"], "Blattläuse")

        let reader = XMLNodeStream(source: XMLByteSource(fileDescriptor: descriptor), documentName: "passes.xml", path: path)
        defer { reader.stop() }
        var handed: [String] = []
        let products = try RegisterParser(path: path, part: .products).parse(reader) { product in
            handed.append(product.isParallelImport ? product.id : product.wNbr)
            return true
        }
        XCTAssertEqual(products.skippedTables, 2)
        XCTAssertTrue(products.metadata.isEmpty)
        XCTAssertEqual(handed, ["5-1", "5", "F-1", "F-2"])
    }

    /// Imports `text` as a plain file and as an `.xz` file.
    private func importBoth(_ text: String) throws -> (plain: SRPPPImportReport, packed: SRPPPImportReport) {
        let input = directory.appendingPathComponent("register.xml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        try SharedFixtures.tool("/usr/bin/xz")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xz")
        process.arguments = ["-k", "-f", input]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "xz -k")
        let importer = SRPPPImporter(options: .init(version: 1))
        let plain = try importer.importFile(at: input, to: directory.appendingPathComponent("plain.sqlite").path)
        let packed = try importer.importFile(at: input + ".xz", to: directory.appendingPathComponent("packed.sqlite").path)
        return (plain, packed)
    }

    func testRecordsBeforeTheProductTheyDeriveFromKeepTheirOriginal() throws {
        let (plain, packed) = try importBoth(register())
        XCTAssertEqual(plain.products, 2)
        XCTAssertEqual(plain.salePermissions, 1)
        XCTAssertEqual(plain.parallelImports, 2)
        XCTAssertEqual(plain.dataErrors, packed.dataErrors)
        // The parallel import of the unknown product, and the use on the missing culture.
        XCTAssertEqual(plain.dataErrors.map(\.kind), ["missing Culture key", "missing original product"])
        let catalog = try SQLiteCatalog(path: directory.appendingPathComponent("plain.sqlite").path)
        XCTAssertEqual(try catalog.product(id: "5-1", locale: "de")?.originalProduct?.id, "5")
        XCTAssertEqual(try catalog.product(id: "F-1", locale: "de")?.originalProduct?.id, "5")
        XCTAssertNil(try catalog.product(id: "F-2", locale: "de")?.originalProduct)
        XCTAssertEqual(try catalog.uses(UseFilter(product: "5-1"), locale: "de").first?.cultures.map(\.id), ["C1"])
    }

    func testTablesBeforeTheProductsAreRead() throws {
        // The culture table before the products, the pest table at the end: the scan from the
        // end finds only the latter, so the file is read in one pass after all.
        let culture = """
              <MetaData name="Culture" numberOfRows="1">
                <Detail primaryKey="C1"><Description value="Weizen" language="de"/></Detail>
              </MetaData>
            """
        let pest = """
              <MetaData name="Pest" numberOfRows="1">
                <Detail primaryKey="P1"><Description value="Blattläuse" language="de"/></Detail>
              </MetaData>
            """
        let (plain, packed) = try importBoth(register(early: culture, tables: pest))
        XCTAssertEqual(plain.cultures, 1)
        XCTAssertEqual(plain.pests, 1)
        XCTAssertEqual(plain.dataErrors, packed.dataErrors)
        XCTAssertEqual(plain.dataErrors.map(\.kind), ["missing Culture key", "missing original product"])
    }

    func testDamagedMetadataIsReportedWithItsLine() throws {
        // An unclosed element in the last table: the metadata pass fails, and the error is the
        // one of reading the whole file, with the line in the file.
        let damaged = register().replacingOccurrences(
            of: #"<Detail primaryKey="P1">"#, with: #"<Detail primaryKey="P1"><Broken>"#)
        let line = damaged.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("<Broken>") }.map { $0 + 1 }
        XCTAssertThrowsError(try importBoth(damaged)) { error in
            guard case let SRPPPImportError.malformedXML(_, errorLine, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(errorLine, line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("plain.sqlite").path))
    }

    func testDamagedProductsLeaveNoCatalog() throws {
        // The products pass fails after the writer has started: nothing is left behind.
        let damaged = register().replacingOccurrences(
            of: #"isSalePermission="false">"#, with: #"isSalePermission="false"><Unclosed>"#)
        XCTAssertThrowsError(try importBoth(damaged)) { error in
            guard case SRPPPImportError.malformedXML = error else { return XCTFail("\(error)") }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertFalse(files.contains { $0.hasPrefix("plain.sqlite") }, "\(files)")
    }
}
