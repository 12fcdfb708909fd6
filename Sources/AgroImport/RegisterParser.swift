import Foundation

/// One streaming pass over the register XML, collecting a `RegisterDocument`.
///
/// The element vocabulary is small and unambiguous once the enclosing record is known, so a
/// few "current record" slots replace a full element stack. Both published variants are
/// read: the 2024 one carries the substance type as element text, the 2026 one as attribute.
struct RegisterParser {
    let path: String
    var progress: (@Sendable (SRPPPImportProgress) -> Void)?

    /// A metadata key as written, upper-cased: the 2026 file writes some GUID references in
    /// lower case while the rows they refer to are in upper case, and GUIDs ignore case.
    static func key(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        let trimmed = text.trimmedASCIIWhitespace
        return trimmed.utf8.contains(where: { (0x61...0x7A).contains($0) }) ? trimmed.uppercased() : trimmed
    }

    func parse(_ reader: XMLStreamReader) throws -> RegisterDocument {
        var document = RegisterDocument()
        var sawRoot = false
        var table: String?
        var detail: RegisterDocument.Detail?
        var holder: RegisterDocument.Holder?
        var product: RegisterDocument.Product?
        var ingredient: RegisterDocument.Ingredient?
        var indication: RegisterDocument.Indication?
        /// Where text nodes go: the holder name or the 2024 substance type.
        enum TextTarget { case holderName, substanceType }
        var textTarget: TextTarget?
        var elements = 0

        func end(_ name: String) {
            switch name {
            case "MetaData": table = nil
            case "Detail":
                if let finished = detail, let table { document.metadata[table, default: [:]][finished.key] = finished }
                detail = nil
            case "PermissionHolder":
                if let finished = holder, product == nil { document.holders[finished.key] = finished }
                holder = nil
            case "Name", "SubstanceType": textTarget = nil
            case "Ingredient":
                if let finished = ingredient { product?.ingredients.append(finished) }
                ingredient = nil
            case "Indication":
                if let finished = indication { product?.indications.append(finished) }
                indication = nil
            case "Product", "Parallelimport":
                if let finished = product {
                    if finished.isParallelImport { document.parallelImports.append(finished) }
                    else { document.products.append(finished) }
                }
                product = nil
            default: break
            }
        }

        func next() throws -> Bool {
            do {
                return try reader.read(path: path)
            } catch let SRPPPImportError.malformedXML(_, _, message) where !sawRoot {
                // Garbage from the first byte: some other kind of file, not a damaged register.
                throw SRPPPImportError.notThisRegister(path: path, reason: "it is not XML (\(message))")
            }
        }

        while try next() {
            switch reader.kind {
            case .element:
                let name = reader.name
                let empty = reader.isEmptyElement
                elements += 1
                if elements % 200_000 == 0 { progress?(.reading(elements: elements)) }
                if !sawRoot {
                    guard name == "PublicationData" else {
                        throw SRPPPImportError.notThisRegister(
                            path: path, reason: "its root element is <\(name)>, not <PublicationData>")
                    }
                    sawRoot = true
                    continue
                }
                let attributes = reader.attributes()
                let key = Self.key(attributes["primaryKey"])
                if indication != nil {
                    switch name {
                    case "Measure": indication?.measureKey = key
                    case "TimeMeasure": indication?.timeMeasureKey = key
                    case "ApplicationArea": indication?.applicationAreaKey = key
                    case "ApplicationComment": indication?.commentKey = key
                    case "CultureForm": indication?.cultureFormKeys.append(key)
                    case "Culture":
                        indication?.cultures.append(.init(key: key, additionalTextKey: Self.key(attributes["additionalTextPrimaryKey"])))
                    case "Pest":
                        indication?.pests.append(.init(
                            key: key, additionalTextKey: Self.key(attributes["additionalTextPrimaryKey"]),
                            type: attributes["type"] ?? ""))
                    case "Obligation": indication?.obligationKeys.append(key)
                    default: break
                    }
                } else if ingredient != nil {
                    switch name {
                    case "Substance": ingredient?.substanceKey = key
                    case "SubstanceType":
                        if let type = attributes["SubstanceType"] { ingredient?.type = type } else { textTarget = .substanceType }
                    default: break
                    }
                } else if product != nil {
                    switch name {
                    case "ProductCategory": product?.categoryKeys.append(key)
                    case "FormulationCode": product?.formulationKeys.append(key)
                    case "DangerSymbol": product?.dangerSymbolKeys.append(key)
                    case "SignalWords": product?.signalWordKeys.append(key)
                    case "CodeR": product?.codeRKeys.append(key)
                    case "CodeS": product?.codeSKeys.append(key)
                    case "PermissionHolderKey": product?.holderKeys.append(key)
                    case "Ingredient":
                        ingredient = .init(
                            type: "", percent: attributes["inPercent"] ?? "",
                            gramsPerLitre: attributes["inGrammPerLitre"] ?? "",
                            additionalTextKey: Self.key(attributes["additionalTextPrimaryKey"]))
                    case "Indication":
                        indication = .init(
                            line: reader.line,
                            dosageFrom: attributes["dosageFrom"] ?? "", dosageTo: attributes["dosageTo"] ?? "",
                            expenditureFrom: attributes["expenditureForm"] ?? "",
                            expenditureTo: attributes["expenditureTo"] ?? "",
                            waitingPeriod: attributes["waitingPeriod"] ?? "")
                    default: break
                    }
                } else if holder != nil {
                    if name == "Name" { textTarget = .holderName }
                } else if detail != nil {
                    switch name {
                    case "Description":
                        let language = attributes["language"] ?? ""
                        let text = (attributes["value"] ?? "").trimmedASCIIWhitespace
                        // A description may repeat (2026): the first non-empty one counts.
                        if !text.isEmpty, detail?.texts[language] == nil { detail?.texts[language] = text }
                    case "Code":
                        let code = (attributes["value"] ?? "").trimmedASCIIWhitespace
                        if !code.isEmpty, detail?.code == nil { detail?.code = code }
                    case "Parent": if !key.isEmpty { detail?.parents.append(key) }
                    default: break
                    }
                } else {
                    switch name {
                    case "MetaData": table = attributes["name"]
                    case "Detail" where table != nil:
                        let iupac = attributes["iupacName"]?.trimmedASCIIWhitespace
                        detail = .init(key: key, iupacName: iupac?.isEmpty == false ? iupac : nil)
                    case "PermissionHolder" where table != nil: holder = .init(key: key)
                    case "Products": document.declaredProducts = attributes["numberOfProducts"].flatMap { Int($0) }
                    case "Parallelimports":
                        document.declaredParallelImports = attributes["numberOfParallelimports"].flatMap { Int($0) }
                    case "Product", "Parallelimport":
                        var started = RegisterDocument.Product(isParallelImport: name == "Parallelimport", line: reader.line)
                        started.id = attributes["id"] ?? ""
                        started.wNbr = attributes["wNbr"] ?? ""
                        started.name = attributes["name"] ?? ""
                        started.soldOutDeadline = attributes["soldoutDeadline"] ?? ""
                        started.exhaustionDeadline = attributes["exhaustionDeadline"] ?? ""
                        started.isSalePermission = attributes["isSalePermission"] == "true"
                        started.admissionNumber = attributes["admissionnumber"] ?? ""
                        started.producingCountryKey = Self.key(attributes["producingCountryPrimaryKey"])
                        product = started
                    default: break
                    }
                }
                if empty { end(name) }
            case .endElement:
                end(reader.name)
            case .text:
                switch textTarget {
                case .holderName: holder?.name += reader.value
                case .substanceType: ingredient?.type += reader.value.trimmedASCIIWhitespace
                case nil: break
                }
            case .other:
                break
            }
        }
        guard sawRoot else { throw SRPPPImportError.notThisRegister(path: path, reason: "it holds no XML element") }
        guard document.declaredProducts != nil || !document.products.isEmpty, !document.metadata.isEmpty else {
            throw SRPPPImportError.notThisRegister(path: path, reason: "it has no <Products> or no <MetaData> section")
        }
        progress?(.reading(elements: elements))
        return document
    }
}
