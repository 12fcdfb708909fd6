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

/// Reads XML fed from a file descriptor with libxml2's SAX2 parser, appending what the
/// register parser needs of each node to `XMLNodeBatch`es.
///
/// libxml2 reads the descriptor in small chunks and builds nothing: no tree, not even the
/// node at hand that its `xmlTextReader` builds and frees for every node (on the 2026
/// register `xmllint --stream` takes 0.28-0.32 s of CPU, `xmllint --sax` 0.11-0.13 s). It
/// decodes the declared encoding (ISO-8859-1 in 2024, UTF-8 in 2026) and hands out UTF-8.
/// The nodes come as the reader gave them: elements with their known attributes, end tags
/// of known elements, and texts, the adjacent pieces of a text joined and a text of blanks
/// only left out; an element written `<x/>` comes as a start and an end, as `<x></x>` does.
final class XMLStreamReader {
    enum NodeKind { case element, endElement, text }

    private let context: xmlParserCtxtPtr
    private let state: State
    /// Kept alive as long as libxml2 may call back into it.
    private let source: XMLByteSource

    /// What the callbacks share. The batch being filled sits behind a pointer: as a stored
    /// property of this class, each of the millions of accesses to it was checked for
    /// exclusivity at run time (some 3% of the import's instructions).
    fileprivate final class State {
        let fill: UnsafeMutablePointer<Fill>
        /// Receives each full batch; false stops the parse (nobody reads on).
        let deliver: (XMLNodeBatch) -> Bool
        let names = NameCache()
        var errorMessage: String?
        var errorLine = 0
        var context: xmlParserCtxtPtr?

        init(deliver: @escaping (XMLNodeBatch) -> Bool) {
            self.deliver = deliver
            fill = .allocate(capacity: 1)
            fill.initialize(to: Fill())
        }

        deinit {
            fill.deinitialize(count: 1)
            fill.deallocate()
        }

        /// Hands the batch over once it is full, between elements (so a text is never split).
        func deliverIfFull() {
            guard let full = fill.pointee.takeIfFull() else { return }
            if !deliver(full) { stop() }
        }

        func stop() {
            fill.pointee.stopped = true
            if let context { xmlStopParser(context) }
        }

        var line: Int { context.map { Int($0.pointee.input.pointee.line) } ?? 0 }
    }

    /// The batch being filled and where the parse stands.
    fileprivate struct Fill {
        var batch = XMLNodeBatch()
        var stopped = false
        /// Whether the last node is a text still open to the next piece of characters.
        var openText = false
        /// Whether the first element (whose name is kept) has come.
        var named = false

        mutating func takeIfFull() -> XMLNodeBatch? {
            guard batch.nodes.count >= 512 else { return nil }
            defer { batch = XMLNodeBatch() }
            return batch
        }

        /// Ends the open text: a text of blanks only is left out, as the reader's whitespace
        /// nodes were.
        mutating func closeText() {
            guard openText else { return }
            openText = false
            guard let node = batch.nodes.last else { return }
            let blank = batch.bytes[Int(node.textStart)..<Int(node.textEnd)].allSatisfy {
                $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D
            }
            if blank {
                batch.bytes.removeLast(batch.bytes.count - Int(node.textStart))
                batch.nodes.removeLast()
            }
        }

        mutating func text(_ characters: UnsafePointer<xmlChar>, _ count: Int32, cdata: Bool) {
            guard !stopped, count > 0 else { return }
            if !openText || cdata {
                closeText()
                append(.text, name: .other)
                // A CDATA section is a node of its own, as the reader gave it.
                openText = !cdata
            }
            batch.bytes.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(count)))
            batch.nodes[batch.nodes.count - 1].textEnd = Int32(batch.bytes.count)
        }

        /// Appends a node with no attributes and no text yet.
        mutating func append(_ kind: NodeKind, name: XMLName, line: Int = 0) {
            let start = Int32(batch.bytes.count), attributes = Int32(batch.attributes.count)
            batch.nodes.append(
                .init(
                    kind: kind, name: name, line: line, attributeStart: attributes, attributeEnd: attributes,
                    textStart: start, textEnd: start))
        }

        /// Appends an element with its known attributes (and its own name's bytes, for the
        /// first element: the message when it is not the root). `attributes` holds five
        /// pointers each: local name, prefix, URI, value, end of the value.
        mutating func append(
            element localName: UnsafePointer<xmlChar>, attributeCount: Int,
            attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, state: State
        ) {
            let name = state.names.name(of: localName)
            // The parser asks for the line of these only (for its messages).
            let line = name == .product || name == .parallelimport || name == .indication ? state.line : 0
            append(.element, name: name, line: line)
            let last = batch.nodes.count - 1
            if !named {
                named = true
                batch.append(localName)
                batch.nodes[last].textEnd = Int32(batch.bytes.count)
            }
            // The attributes of an element the parser does not know are never read.
            guard name != .other, let attributes else { return }
            for index in 0..<attributeCount {
                let base = index * 5
                guard let attributeName = attributes[base], let value = attributes[base + 3], let end = attributes[base + 4]
                else { continue }
                let attribute = state.names.name(of: attributeName)
                guard attribute != .other else { continue }
                let valueStart = Int32(batch.bytes.count)
                appendAttributeValue(UnsafeBufferPointer(start: value, count: end - value))
                batch.attributes.append(.init(name: attribute, start: valueStart, end: Int32(batch.bytes.count)))
            }
            batch.nodes[last].attributeEnd = Int32(batch.attributes.count)
        }

        /// Appends an attribute's value as the document means it. Without entity substitution
        /// (`XML_PARSE_NOENT`, left off), libxml2 hands a `&` written `&amp;` or `&#38;` in an
        /// attribute on as `&#38;`, for a tree builder to decode; nothing else stays escaped.
        private mutating func appendAttributeValue(_ value: UnsafeBufferPointer<xmlChar>) {
            guard let base = value.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), value.count) != nil else {
                batch.bytes.append(contentsOf: value)
                return
            }
            let escaped: [UInt8] = Array("&#38;".utf8)
            var index = value.startIndex
            while index < value.endIndex {
                if value[index] == UInt8(ascii: "&"), value.endIndex - index >= escaped.count,
                    value[index..<index + escaped.count].elementsEqual(escaped)
                {
                    batch.bytes.append(UInt8(ascii: "&"))
                    index += escaped.count
                } else {
                    batch.bytes.append(value[index])
                    index += 1
                }
            }
        }
    }

    /// Prepares to read from `source`, whose descriptor stays owned by the caller.
    init(source: XMLByteSource, documentName: String, deliver: @escaping (XMLNodeBatch) -> Bool) throws {
        let readCallback: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            let source = Unmanaged<XMLByteSource>.fromOpaque(context).takeUnretainedValue()
            return Int32(source.read(into: buffer, count: Int(length)))
        }
        self.source = source
        let state = State(deliver: deliver)
        self.state = state
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            guard !state.fill.pointee.stopped else { return }
            state.fill.pointee.closeText()
            state.fill.pointee.append(
                element: localName, attributeCount: Int(attributeCount), attributes: attributes, state: state)
            state.deliverIfFull()
        }
        handler.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            guard !state.fill.pointee.stopped else { return }
            state.fill.pointee.closeText()
            let name = state.names.name(of: localName)
            // End tags of elements the parser does not know are left out.
            guard name != .other else { return }
            state.fill.pointee.append(.endElement, name: name)
            state.deliverIfFull()
        }
        let characters: charactersSAXFunc = { context, characters, count in
            guard let context, let characters else { return }
            Unmanaged<State>.fromOpaque(context).takeUnretainedValue().fill.pointee.text(characters, count, cdata: false)
        }
        handler.characters = characters
        // Without a DTD, blanks between elements come here too; they are left out as blank texts.
        handler.ignorableWhitespace = characters
        handler.cdataBlock = { context, characters, count in
            guard let context, let characters else { return }
            Unmanaged<State>.fromOpaque(context).takeUnretainedValue().fill.pointee.text(characters, count, cdata: true)
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            // Warnings (level 1) do not stop the parse; keep the first real error.
            guard state.errorMessage == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            state.errorMessage =
                error.pointee.message.map { String(cString: $0) }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
            state.errorLine = Int(error.pointee.line)
        }
        guard
            let context = xmlCreateIOParserCtxt(
                &handler, Unmanaged.passUnretained(state).toOpaque(), readCallback, nil,
                Unmanaged.passUnretained(source).toOpaque(), XML_CHAR_ENCODING_NONE)
        else {
            throw SRPPPImportError.malformedXML(path: documentName, line: 0, message: "libxml2 could not start reading")
        }
        // No XML_PARSE_HUGE, NOENT or DTDLOAD: libxml2's limits stay on and no external DTD or
        // entity is fetched, whatever the input file holds. With no handler for declarations,
        // an entity the document declares is never expanded: a reference to one is an error.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        self.context = context
        state.context = context
    }

    deinit { xmlFreeParserCtxt(context) }

    /// Reads the whole document, handing the nodes over in batches (the last one, maybe not
    /// full, at the end); stops early when `deliver` returns false.
    /// - Throws: `SRPPPImportError.malformedXML` when the bytes are not well-formed XML, after
    ///   the nodes read before the error were handed over.
    func parse(path: String) throws {
        _ = xmlParseDocument(context)
        state.fill.pointee.closeText()
        if state.fill.pointee.stopped { return }
        _ = state.deliver(state.fill.pointee.batch)
        state.fill.pointee.batch = XMLNodeBatch()
        if context.pointee.wellFormed == 0 || state.errorMessage != nil {
            throw SRPPPImportError.malformedXML(
                path: path, line: state.errorLine, message: state.errorMessage ?? "malformed XML")
        }
    }
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
