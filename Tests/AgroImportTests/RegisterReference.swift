import CLibXML2
import Foundation

/// The register read independently of the importer, to compute the answers the catalog must
/// give: a plain element-by-element walk over libxml2's reader on the whole XML in memory,
/// written for the tests (Foundation's XMLParser on Linux gives up on these files).
final class RegisterReference {
    struct Indication {
        var cultures: [String] = []
        var pests: [String] = []
        var obligations: [String] = []
        var waitingPeriod = ""
        /// Pest key -> PEST_FULL_EFFECT, PEST_PARTIAL_EFFECT, PEST_SIDE_EFFECT.
        var pestTypes: [String: String] = [:]
        var cultureForms: [String] = []
        var dosageFrom = "", expenditureFrom = ""
    }

    struct Product {
        var isParallelImport: Bool
        var registerID: String
        var wNbr: String
        var name: String
        var isSalePermission: Bool
        /// (substance key, substance type)
        var ingredients: [(String, String)] = []
        var indications: [Indication] = []

        /// The catalog id the importer documents: wNbr, or the parallel-import permission id.
        var catalogID: String { isParallelImport ? registerID : wNbr }
    }

    private(set) var products: [Product] = []
    /// Metadata row keys per table.
    private(set) var tables: [String: [String]] = [:]
    /// First non-empty name per language, per table and key.
    private(set) var names: [String: [String: [String: String]]] = [:]
    private(set) var parents: [String: [String]] = [:]
    private(set) var declaredProducts = 0

    private var table: String?
    private var detailKey: String?
    private var current: Product?
    private var indication: Indication?
    private var ingredient: (String, String)?
    private var readingSubstanceType = false

    /// Parses `data` (the XML bytes).
    init(data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let base = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
            guard
                let reader = xmlReaderForMemory(
                    base, Int32(bytes.count), "reference.xml", nil,
                    Int32(XML_PARSE_HUGE.rawValue))
            else {
                throw NSError(domain: "RegisterReference", code: 1)
            }
            defer { xmlFreeTextReader(reader) }
            func string(_ pointer: UnsafePointer<xmlChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
            var status = xmlTextReaderRead(reader)
            while status == 1 {
                let type = xmlTextReaderNodeType(reader)
                let name = string(xmlTextReaderConstLocalName(reader))
                if type == Int32(XML_READER_TYPE_ELEMENT.rawValue) {
                    let empty = xmlTextReaderIsEmptyElement(reader) == 1
                    var attributes: [String: String] = [:]
                    while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                        attributes[string(xmlTextReaderConstLocalName(reader))] = string(xmlTextReaderConstValue(reader))
                    }
                    xmlTextReaderMoveToElement(reader)
                    start(name, attributes)
                    if empty { end(name) }
                } else if type == Int32(XML_READER_TYPE_END_ELEMENT.rawValue) {
                    end(name)
                } else if type == Int32(XML_READER_TYPE_TEXT.rawValue) {
                    characters(string(xmlTextReaderConstValue(reader)))
                }
                status = xmlTextReaderRead(reader)
            }
            if status != 0 { throw NSError(domain: "RegisterReference", code: 2) }
        }
    }

    private func start(_ name: String, _ attributes: [String: String]) {
        // GUID keys ignore case; the 2026 file writes a few references in lower case.
        let key = (attributes["primaryKey"] ?? "").uppercased()
        if indication != nil {
            switch name {
            case "Culture": indication?.cultures.append(key)
            case "Pest":
                indication?.pests.append(key)
                indication?.pestTypes[key] = attributes["type"] ?? ""
            case "CultureForm": indication?.cultureForms.append(key)
            case "Obligation": indication?.obligations.append(key)
            default: break
            }
            return
        }
        switch name {
        case "Products": declaredProducts = Int(attributes["numberOfProducts"] ?? "") ?? -1
        case "MetaData": table = attributes["name"]
        case "Detail":
            if let table {
                detailKey = key
                tables[table, default: []].append(key)
            }
        case "Description":
            if let table, let detailKey, let locale = attributes["language"] {
                let value = (attributes["value"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                if !value.isEmpty, names[table]?[detailKey]?[locale] == nil {
                    names[table, default: [:]][detailKey, default: [:]][locale] = value
                }
            }
        case "Parent":
            if table == "Culture", let detailKey { parents[detailKey, default: []].append(key) }
        case "Product", "Parallelimport":
            current = Product(
                isParallelImport: name == "Parallelimport", registerID: attributes["id"] ?? "",
                wNbr: attributes["wNbr"] ?? "", name: attributes["name"] ?? "",
                isSalePermission: attributes["isSalePermission"] == "true")
        case "Indication":
            if current != nil {
                indication = Indication(
                    waitingPeriod: attributes["waitingPeriod"] ?? "", dosageFrom: attributes["dosageFrom"] ?? "",
                    expenditureFrom: attributes["expenditureForm"] ?? "")
            }
        case "Ingredient": ingredient = ("", "")
        case "SubstanceType":
            if let type = attributes["SubstanceType"] { ingredient?.1 = type } else { readingSubstanceType = true }
        case "Substance": ingredient?.0 = key
        default: break
        }
    }

    private func characters(_ string: String) {
        if readingSubstanceType { ingredient?.1 += string.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private func end(_ name: String) {
        switch name {
        case "MetaData": table = nil
        case "Detail": detailKey = nil
        case "SubstanceType": readingSubstanceType = false
        case "Ingredient":
            if let ingredient { current?.ingredients.append(ingredient) }
            ingredient = nil
        case "Indication":
            if let indication { current?.indications.append(indication) }
            indication = nil
        case "Product", "Parallelimport":
            if let current { products.append(current) }
            current = nil
        default: break
        }
    }

    // MARK: - Answers

    /// The culture and every group above it.
    func ancestorsOrSelf(_ culture: String) -> Set<String> {
        var seen: Set<String> = [culture]
        var queue = [culture]
        while let next = queue.popLast() {
            for parent in parents[next] ?? [] where seen.insert(parent).inserted { queue.append(parent) }
        }
        return seen
    }

    /// Catalog ids of products with a use against `pest` (if given) on `culture` or a group
    /// above it (if given).
    func productIDs(pest: String?, culture: String?) -> Set<String> {
        let covering = culture.map(ancestorsOrSelf)
        var result = Set<String>()
        for product in products {
            let matches = product.indications.contains { indication in
                (pest.map { indication.pests.contains($0) } ?? true)
                    && (covering.map { !$0.isDisjoint(with: indication.cultures) } ?? true)
            }
            if matches { result.insert(product.catalogID) }
        }
        return result
    }

    /// Catalog ids of products listing `substance` as active substance, safener or synergist.
    func productIDs(substance: String) -> Set<String> {
        let listed: Set<String> = ["ACTIVE_INGREDIENT", "SAFENER", "SYNERGIST"]
        return Set(
            products.filter { product in
                product.ingredients.contains { $0.0 == substance && listed.contains($0.1) }
            }.map(\.catalogID))
    }

    /// The key of the row of `table` whose name in `locale` is `name`.
    func key(in table: String, named name: String, locale: String = "de") -> String? {
        names[table]?.first { $0.value[locale] == name }?.key
    }

    /// The XML bytes of a register file: plain, inside a zip, or xz-compressed.
    static func xmlData(of url: URL) throws -> Data {
        let arguments: [String]
        switch url.pathExtension {
        case "zip": arguments = ["unzip", "-p", url.path, "*.xml"]
        case "xz": arguments = ["xz", "-dc", url.path]
        default: return try Data(contentsOf: url)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
