import Foundation

/// One streaming pass over the register XML, collecting a `RegisterDocument`.
///
/// The element vocabulary is small and unambiguous once the enclosing record is known, so a
/// few "current record" slots replace a full element stack. Both published variants are
/// read: the 2024 one carries the substance type as element text, the 2026 one as attribute.
struct RegisterParser {
    /// What of the document a pass reads.
    enum Part {
        /// Everything, in one pass.
        case whole
        /// The `<MetaData>` tables only: the pass over `RegisterLayout.head` and the file's tail.
        case metadata
        /// The products and parallel imports; the `<MetaData>` tables (read before, by the
        /// `.metadata` pass) are skipped and only counted.
        case products
    }

    let path: String
    var progress: (@Sendable (SRPPPImportProgress) -> Void)?
    var part: Part = .whole

    /// A metadata key as written, upper-cased: the 2026 file writes some GUID references in
    /// lower case while the rows they refer to are in upper case, and GUIDs ignore case.
    /// `XMLNodeStream` applies it to the key attributes (`XMLName.isKey`) as it reads them.
    static func key(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        var trimmed = text.trimmedASCIIWhitespace
        let hasLowercase = trimmed.withUTF8 { bytes in bytes.contains { $0 &- 0x61 < 26 } }
        return hasLowercase ? trimmed.uppercased() : trimmed
    }

    /// Reads the document; every finished product and parallel import goes to `product` as
    /// soon as its end tag is read (whole documents keep them in `products` and
    /// `parallelImports` when `product` returns false).
    ///
    /// - Throws: `SRPPPImportError.notThisRegister` or `.malformedXML`.
    func parse(
        _ reader: XMLNodeStream, product handOver: (RegisterDocument.Product) -> Bool = { _ in false }
    ) throws -> RegisterDocument {
        var document = RegisterDocument()
        /// Products seen, kept or handed over.
        var productCount = 0
        /// Inside a `<MetaData>` table that a `.products` pass skips.
        var skipping = false
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
        var attributes = XMLAttributes()

        func end(_ name: XMLName) {
            switch name {
            case .metaData: table = nil
            case .detail:
                if let finished = detail, let table { document.metadata[table, default: [:]][finished.key] = finished }
                detail = nil
            case .permissionHolder:
                if let finished = holder, product == nil { document.holders[finished.key] = finished }
                holder = nil
            case .nameElement, .substanceType: textTarget = nil
            case .ingredient:
                if let finished = ingredient { product?.ingredients.append(finished) }
                ingredient = nil
            case .indication:
                if let finished = indication { product?.indications.append(finished) }
                indication = nil
            case .product, .parallelimport:
                if let finished = product {
                    productCount += 1
                    if !handOver(finished) {
                        if finished.isParallelImport {
                            document.parallelImports.append(finished)
                        } else {
                            document.products.append(finished)
                        }
                    }
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
            if skipping {
                // Inside a table the metadata pass has read, up to its end tag (tables do not
                // nest; the reader passes on the end tags of known elements only, and an
                // element written `<x/>` has one too).
                if reader.kind == .endElement, reader.knownName == .metaData { skipping = false }
                continue
            }
            switch reader.kind {
            case .element:
                let name = reader.knownName
                elements += 1
                if elements % 200_000 == 0 { progress?(.reading(elements: elements)) }
                if part == .products, name == .metaData, sawRoot {
                    document.skippedTables += 1
                    skipping = true
                    continue
                }
                if !sawRoot {
                    guard name == .publicationData else {
                        throw SRPPPImportError.notThisRegister(
                            path: path, reason: "its root element is <\(reader.name)>, not <PublicationData>")
                    }
                    sawRoot = true
                    continue
                }
                reader.readAttributes(into: &attributes)
                // Key attributes come normalized by `Self.key` (see `XMLName.isKey`).
                let key = attributes.key(.primaryKey)
                if indication != nil {
                    switch name {
                    case .measure: indication?.measureKey = key
                    case .timeMeasure: indication?.timeMeasureKey = key
                    case .applicationArea: indication?.applicationAreaKey = key
                    case .applicationComment: indication?.commentKey = key
                    case .cultureForm: indication?.cultureFormKeys.append(key)
                    case .culture:
                        indication?.cultures.append(
                            .init(key: key, additionalTextKey: attributes.key(.additionalTextPrimaryKey)))
                    case .pest:
                        indication?.pests.append(
                            .init(
                                key: key, additionalTextKey: attributes.key(.additionalTextPrimaryKey),
                                type: attributes[.type] ?? ""))
                    case .obligation: indication?.obligationKeys.append(key)
                    default: break
                    }
                } else if ingredient != nil {
                    switch name {
                    case .substance: ingredient?.substanceKey = key
                    case .substanceType:
                        if let type = attributes[.substanceType] { ingredient?.type = type } else { textTarget = .substanceType }
                    default: break
                    }
                } else if product != nil {
                    switch name {
                    case .productCategory: product?.categoryKeys.append(key)
                    case .formulationCode: product?.formulationKeys.append(key)
                    case .dangerSymbol: product?.dangerSymbolKeys.append(key)
                    case .signalWords: product?.signalWordKeys.append(key)
                    case .codeR: product?.codeRKeys.append(key)
                    case .codeS: product?.codeSKeys.append(key)
                    case .permissionHolderKey: product?.holderKeys.append(key)
                    case .ingredient:
                        ingredient = .init(
                            type: "", percent: attributes[.inPercent] ?? "",
                            gramsPerLitre: attributes[.inGrammPerLitre] ?? "")
                    case .indication:
                        indication = .init(
                            line: reader.line,
                            dosageFrom: attributes[.dosageFrom] ?? "", dosageTo: attributes[.dosageTo] ?? "",
                            expenditureFrom: attributes[.expenditureForm] ?? "",
                            expenditureTo: attributes[.expenditureTo] ?? "",
                            waitingPeriod: attributes[.waitingPeriod] ?? "")
                    default: break
                    }
                } else if holder != nil {
                    if name == .nameElement { textTarget = .holderName }
                } else if detail != nil {
                    switch name {
                    case .description:
                        let locale = attributes[.language] ?? ""
                        let text = (attributes[.value] ?? "").trimmedASCIIWhitespace
                        // A description may repeat (2026): the first non-empty one counts.
                        if !text.isEmpty, detail?.texts[locale] == nil { detail?.texts[locale] = text }
                    case .code:
                        let code = (attributes[.value] ?? "").trimmedASCIIWhitespace
                        if !code.isEmpty, detail?.code == nil { detail?.code = code }
                    case .parent: if !key.isEmpty { detail?.parents.append(key) }
                    default: break
                    }
                } else {
                    switch name {
                    case .metaData:
                        table = attributes[.name]
                        document.tableCount += 1
                    case .detail where table != nil:
                        let iupac = attributes[.iupacName]?.trimmedASCIIWhitespace
                        detail = .init(key: key, iupacName: iupac?.isEmpty == false ? iupac : nil)
                    case .permissionHolder where table != nil: holder = .init(key: key)
                    case .products: document.declaredProducts = attributes[.numberOfProducts].flatMap { Int($0) }
                    case .product, .parallelimport:
                        var started = RegisterDocument.Product(isParallelImport: name == .parallelimport, line: reader.line)
                        started.id = attributes[.id] ?? ""
                        started.wNbr = attributes[.wNbr] ?? ""
                        started.name = attributes[.name] ?? ""
                        started.soldOutDeadline = attributes[.soldoutDeadline] ?? ""
                        started.exhaustionDeadline = attributes[.exhaustionDeadline] ?? ""
                        started.isSalePermission = attributes[.isSalePermission] == "true"
                        product = started
                    default: break
                    }
                }
            case .endElement:
                end(reader.knownName)
            case .text:
                switch textTarget {
                case .holderName: holder?.name += reader.value
                case .substanceType: ingredient?.type += reader.value.trimmedASCIIWhitespace
                case nil: break
                }
            }
        }
        guard sawRoot else { throw SRPPPImportError.notThisRegister(path: path, reason: "it holds no XML element") }
        let hasProducts = document.declaredProducts != nil || productCount > 0
        let hasMetadata = !document.metadata.isEmpty || document.skippedTables > 0
        guard part == .metadata || hasProducts, part == .products || hasMetadata else {
            throw SRPPPImportError.notThisRegister(path: path, reason: "it has no <Products> or no <MetaData> section")
        }
        progress?(.reading(elements: elements))
        return document
    }
}
