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

/// A forward-only pull reader over libxml2's `xmlTextReader`, fed from a file descriptor.
///
/// libxml2 reads the descriptor in small chunks and keeps only the current node, so memory
/// does not grow with the document. It decodes the declared encoding (ISO-8859-1 in 2024,
/// UTF-8 in 2026) and hands out UTF-8.
final class XMLStreamReader {
    enum NodeKind { case element, endElement, text, other }

    private let reader: xmlTextReaderPtr
    private let errors: ErrorBox

    /// Collects the first parse error libxml2 reports, instead of letting it print to stderr.
    private final class ErrorBox {
        var message: String?
        var line: Int = 0
    }

    /// Starts reading from `fileDescriptor`, which stays owned by the caller.
    init(fileDescriptor: Int32, documentName: String) throws {
        let readCallback: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            let descriptor = Int32(Int(bitPattern: context) - 1)
            while true {
                let count = readDescriptor(descriptor, buffer, Int(length))
                if count >= 0 { return Int32(count) }
                if errno != EINTR { return -1 }
            }
        }
        // The descriptor travels as the context pointer (offset by one so that 0 is not nil).
        let context = UnsafeMutableRawPointer(bitPattern: Int(fileDescriptor) + 1)
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
                errors.message = error.pointee.message.map { String(cString: $0) }?
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

    /// Local name of the current element.
    var name: String {
        guard let name = xmlTextReaderConstLocalName(reader) else { return "" }
        return String(cString: name)
    }

    /// Whether the current element is written `<x/>`: it then has no end node.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// Text of the current text node.
    var value: String {
        guard let value = xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }

    /// Attributes of the current element by local name; the reader stays on the element.
    func attributes() -> XMLAttributes {
        var result = XMLAttributes()
        guard xmlTextReaderHasAttributes(reader) == 1 else { return result }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if let name = xmlTextReaderConstLocalName(reader), let value = xmlTextReaderConstValue(reader) {
                result.pairs.append((String(cString: name), String(cString: value)))
            }
        }
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// Current line, for messages.
    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }
}

/// The attributes of one element. Elements carry a handful of attributes, so a linear search
/// over pairs beats hashing them into a dictionary for every one of the million elements.
struct XMLAttributes {
    var pairs: [(name: String, value: String)] = []

    subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }
}

extension String {
    /// The text without leading and trailing ASCII whitespace. Cheaper than Foundation's
    /// `trimmingCharacters(in:)`, which bridges through NSString, on the parser's hot path.
    var trimmedASCIIWhitespace: String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return self }
        return String(self[first...last])
    }
}
