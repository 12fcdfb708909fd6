import CLibXML2
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// read(2), named apart from `XMLStreamReader.read`.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.read(descriptor, buffer, count)
    #else
        return Darwin.read(descriptor, buffer, count)
    #endif
}

/// pread(2), for reading the tail of a file without moving the descriptor's position.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.pread(descriptor, buffer, count, off_t(offset))
    #else
        return Darwin.pread(descriptor, buffer, count, off_t(offset))
    #endif
}

/// The bytes libxml2's reader is fed: a descriptor read from where it stands to its end, or,
/// for the metadata pass (`RegisterLayout`), some head bytes of a file (its XML declaration
/// and root start tag) followed by the file from `offset` on, read with `pread` so that the
/// descriptor stays where it is for the full pass that follows.
///
/// Used by one reading thread at a time (handed from the thread that makes it to the one
/// that reads), hence @unchecked Sendable.
final class XMLByteSource: @unchecked Sendable {
    private let descriptor: Int32
    private let head: [UInt8]
    private var headSent = 0
    private var offset: Int?

    /// The descriptor's bytes from its current position.
    init(fileDescriptor: Int32) {
        descriptor = fileDescriptor
        head = []
        offset = nil
    }

    /// `head`, then the file's bytes from `offset` to its end.
    init(fileDescriptor: Int32, head: [UInt8], tailFrom offset: Int) {
        descriptor = fileDescriptor
        self.head = head
        self.offset = offset
    }

    /// Fills `buffer` with up to `count` bytes: how many, 0 at the end, -1 on an error.
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        if headSent < head.count {
            let n = min(count, head.count - headSent)
            head.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(buffer).copyMemory(from: base + headSent, byteCount: n)
            }
            headSent += n
            return n
        }
        while true {
            let n =
                offset.map { readDescriptor(descriptor, buffer, count, at: $0) }
                ?? readDescriptor(descriptor, buffer, count)
            if n >= 0 {
                offset = offset.map { $0 + n }
                return n
            }
            if errno != EINTR { return -1 }
        }
    }
}

/// A forward-only pull reader over libxml2's `xmlTextReader`, fed from a file descriptor.
///
/// libxml2 reads the descriptor in small chunks and keeps only the current node, so memory
/// does not grow with the document. It decodes the declared encoding (ISO-8859-1 in 2024,
/// UTF-8 in 2026) and hands out UTF-8.
final class XMLStreamReader {
    enum NodeKind { case element, endElement, text, other }

    private let reader: xmlTextReaderPtr
    private let errors: ErrorBox
    /// Kept alive as long as libxml2 may call back into it.
    private let source: XMLByteSource

    /// Collects the first parse error libxml2 reports, instead of letting it print to stderr.
    private final class ErrorBox {
        var message: String?
        var line: Int = 0
    }

    /// Starts reading from `source`, whose descriptor stays owned by the caller.
    init(source: XMLByteSource, documentName: String) throws {
        let readCallback: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            let source = Unmanaged<XMLByteSource>.fromOpaque(context).takeUnretainedValue()
            return Int32(source.read(into: buffer, count: Int(length)))
        }
        self.source = source
        let context = Unmanaged.passUnretained(source).toOpaque()
        // No XML_PARSE_HUGE, NOENT or DTDLOAD: libxml2's limits and entity-expansion guards stay
        // on and no external DTD or entity is fetched, whatever the input file holds.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_COMPACT.rawValue)
        guard let reader = xmlReaderForIO(readCallback, nil, context, documentName, nil, options) else {
            throw SRPPPImportError.malformedXML(path: documentName, line: 0, message: "libxml2 could not start reading")
        }
        self.reader = reader
        errors = ErrorBox()
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { box, error in
                guard let box, let error else { return }
                let errors = Unmanaged<ErrorBox>.fromOpaque(box).takeUnretainedValue()
                // Warnings (level 1) do not stop the parse; keep the first real error.
                guard errors.message == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                errors.message =
                    error.pointee.message.map { String(cString: $0) }?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
                errors.line = Int(error.pointee.line)
            },
            Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit { xmlFreeTextReader(reader) }

    /// Moves to the next node; false at the end of the document.
    /// - Throws: `SRPPPImportError.malformedXML` when the bytes are not well-formed XML.
    func read(path: String) throws -> Bool {
        let status = xmlTextReaderRead(reader)
        if status == 1 { return true }
        if status == 0, errors.message == nil { return false }
        throw SRPPPImportError.malformedXML(path: path, line: errors.line, message: errors.message ?? "malformed XML")
    }

    var kind: NodeKind {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue): return .element
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue): return .endElement
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue): return .text
        default: return .other
        }
    }

    /// Local name of the current element, as one of the names the parser knows.
    var knownName: XMLName {
        guard let pointer = xmlTextReaderConstLocalName(reader) else { return .other }
        return names.name(of: pointer)
    }

    /// Copies what the parser needs of the current node to the end of `batch`: elements with
    /// their known attributes' bytes (and their own name's bytes when `withName`), end tags of
    /// known elements, and texts. Returns false for the nodes the parser ignores, which are
    /// left out.
    func append(to batch: inout XMLNodeBatch, withName: Bool) -> Bool {
        let start = Int32(batch.bytes.count), attributeStart = Int32(batch.attributes.count)
        var node = XMLNodeBatch.Node(
            kind: kind, name: .other, isEmpty: false, line: 0, attributeStart: attributeStart,
            attributeEnd: attributeStart, textStart: start, textEnd: start)
        switch node.kind {
        case .element:
            node.name = knownName
            node.isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
            // The parser asks for the line of these only (for its messages).
            if node.name == .product || node.name == .parallelimport || node.name == .indication { node.line = line }
            if withName, let name = xmlTextReaderConstLocalName(reader) { batch.append(name) }
            node.textEnd = Int32(batch.bytes.count)
            // The attributes of an element the parser does not know are never read.
            if node.name != .other, xmlTextReaderHasAttributes(reader) == 1 {
                while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    guard let pointer = xmlTextReaderConstLocalName(reader) else { continue }
                    let name = names.name(of: pointer)
                    guard name != .other, let value = xmlTextReaderConstValue(reader) else { continue }
                    let valueStart = Int32(batch.bytes.count)
                    batch.append(value)
                    batch.attributes.append(.init(name: name, start: valueStart, end: Int32(batch.bytes.count)))
                }
                xmlTextReaderMoveToElement(reader)
                node.attributeEnd = Int32(batch.attributes.count)
            }
        case .endElement:
            node.name = knownName
            guard node.name != .other else { return false }
        case .text:
            if let value = xmlTextReaderConstValue(reader) { batch.append(value) }
            node.textEnd = Int32(batch.bytes.count)
        case .other:
            return false
        }
        batch.nodes.append(node)
        return true
    }

    private let names = NameCache()

    /// Current line, for messages.
    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }
}

/// The element and attribute names the register parser looks at; every other name is
/// `.other`. Elements and attributes share the list (`SubstanceType` is both).
enum XMLName: Int, CaseIterable {
    case other
    // Elements.
    case publicationData, metaData, detail, permissionHolder, nameElement, substanceType, ingredient, indication
    case product, parallelimport, measure, timeMeasure, applicationArea, applicationComment, cultureForm, culture
    case pest, obligation, substance, productCategory, formulationCode, dangerSymbol, signalWords, codeR, codeS
    case permissionHolderKey, description, code, parent, products
    // Attributes.
    case primaryKey, additionalTextPrimaryKey, type, inPercent, inGrammPerLitre, dosageFrom, dosageTo
    case expenditureForm, expenditureTo, waitingPeriod, language, value, iupacName, name, numberOfProducts
    case id, wNbr, soldoutDeadline, exhaustionDeadline, isSalePermission

    /// The name as written in the XML.
    var text: String {
        switch self {
        case .other: return ""
        case .nameElement: return "Name"
        case .metaData: return "MetaData"
        case .codeR: return "CodeR"
        case .codeS: return "CodeS"
        case .publicationData, .detail, .permissionHolder, .substanceType, .ingredient, .indication, .product,
            .parallelimport, .measure, .timeMeasure, .applicationArea, .applicationComment, .cultureForm, .culture,
            .pest, .obligation, .substance, .productCategory, .formulationCode, .dangerSymbol, .signalWords,
            .permissionHolderKey, .description, .code, .parent, .products:
            let label = "\(self)"
            return label.prefix(1).uppercased() + label.dropFirst()
        default: return "\(self)"
        }
    }

    static let byText: [String: XMLName] = Dictionary(uniqueKeysWithValues: allCases.dropFirst().map { ($0.text, $0) })

    /// Attributes holding a metadata key, read through `KeyCache`.
    var isKey: Bool {
        switch self {
        case .primaryKey, .additionalTextPrimaryKey: return true
        default: return false
        }
    }
}

/// The normalized key (`RegisterParser.key`) of each distinct key attribute value, made once.
///
/// The 2026 register refers to a few thousand distinct GUIDs some 400 000 times (171 000
/// obligation references alone). Making, trimming and case-checking a new 36-byte string for
/// each reference was a fifth of the parse; a lookup by the raw bytes hands out the one key
/// made for that value (its text normalized and fingerprinted once), whose text shares its
/// storage across the document. Holds at most `capacity / 2` values; further ones are
/// normalized without being kept, so memory stays bounded whatever the input.
final class KeyCache {
    private struct Entry {
        var hash: UInt64 = 0
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        var key = RegisterKey.empty
    }

    private static let capacity = 1 << 16
    private var entries: UnsafeMutablePointer<Entry>
    private var used = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
    }

    deinit {
        for index in 0..<Self.capacity { entries[index].bytes?.deallocate() }
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

    /// The normalized key of the `count` bytes at `value` (a key attribute's value as written).
    func key(for value: UnsafePointer<UInt8>, count: Int) -> RegisterKey {
        let hash = RegisterKey.fingerprint(value, count: count)
        var slot = Int(truncatingIfNeeded: hash) & (Self.capacity - 1)
        while let stored = entries[slot].bytes {
            if entries[slot].hash == hash, entries[slot].count == count, memcmp(stored, value, count) == 0 {
                return entries[slot].key
            }
            slot = (slot + 1) & (Self.capacity - 1)
        }
        let key = RegisterKey(
            RegisterParser.key(String(decoding: UnsafeBufferPointer(start: value, count: count), as: UTF8.self)))
        // Half full at most, so that probes stay short and always end at an empty slot.
        guard used < Self.capacity / 2 else { return key }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        copy.initialize(from: value, count: count)
        entries[slot] = Entry(hash: hash, bytes: copy, count: count, key: key)
        used += 1
        return key
    }
}

/// Turns libxml2's name pointers into `XMLName`s without making a string per node. libxml2
/// hands out names from its dictionary, so a name comes back at the same address: a small
/// direct-mapped cache keyed by address answers most lookups, each hit checked with strcmp
/// against a copy of the name (so a reused address can never give a wrong answer).
private final class NameCache {
    private struct Entry {
        var pointer: UnsafePointer<xmlChar>?
        var copy: UnsafeMutablePointer<CChar>?
        var name: XMLName
    }

    private static let size = 256
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.size)
        entries.initialize(repeating: Entry(pointer: nil, copy: nil, name: .other), count: Self.size)
    }

    deinit {
        for index in 0..<Self.size { free(entries[index].copy) }
        entries.deinitialize(count: Self.size)
        entries.deallocate()
    }

    func name(of pointer: UnsafePointer<xmlChar>) -> XMLName {
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: pointer) >> 3) & (Self.size - 1)
        let characters = UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)
        if entries[slot].pointer == pointer, let copy = entries[slot].copy, strcmp(copy, characters) == 0 {
            return entries[slot].name
        }
        let name = XMLName.byText[String(cString: pointer)] ?? .other
        free(entries[slot].copy)
        entries[slot] = Entry(pointer: pointer, copy: strdup(characters), name: name)
        return name
    }
}

/// The known attributes of one element, by name. The parser reuses one value for every
/// element, so reading attributes allocates only the value strings.
struct XMLAttributes {
    private var values = [String?](repeating: nil, count: XMLName.allCases.count)
    private var keys = [RegisterKey?](repeating: nil, count: XMLName.allCases.count)
    private var present: [Int] = []
    /// Which names are set, a bit each: tested without copying the value out (a retain and a
    /// release for each attribute read).
    private var isSet: UInt64 = 0

    init() {
        precondition(XMLName.allCases.count <= UInt64.bitWidth, "XMLAttributes.isSet has a bit per XMLName")
    }

    /// A key attribute's text is its key's: stored once, one retain less for each.
    subscript(name: XMLName) -> String? { values[name.rawValue] ?? keys[name.rawValue]?.text }

    /// Whether the element has the attribute `name`.
    func contains(_ name: XMLName) -> Bool { isSet & (1 << UInt64(name.rawValue)) != 0 }

    /// A key attribute (`XMLName.isKey`) as a key; the empty key when absent.
    func key(_ name: XMLName) -> RegisterKey { keys[name.rawValue] ?? .empty }

    mutating func set(_ name: XMLName, _ value: String) {
        values[name.rawValue] = value
        present.append(name.rawValue)
        isSet |= 1 << UInt64(name.rawValue)
    }

    mutating func set(_ name: XMLName, key: RegisterKey) {
        keys[name.rawValue] = key
        present.append(name.rawValue)
        isSet |= 1 << UInt64(name.rawValue)
    }

    mutating func clear() {
        for index in present {
            values[index] = nil
            keys[index] = nil
        }
        present.removeAll(keepingCapacity: true)
        isSet = 0
    }
}

extension String {
    /// The text without leading and trailing ASCII whitespace. Cheaper than Foundation's
    /// `trimmingCharacters(in:)`, which bridges through NSString, on the parser's hot path.
    var trimmedASCIIWhitespace: String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        guard let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return self }
        return String(self[first...last])
    }
}
