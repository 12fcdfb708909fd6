import AgroStore
import Foundation

/// The nodes of a stretch of the document as the parser needs them, copied out of libxml2:
/// kinds and known names, with the bytes of attribute values and texts in one buffer.
struct XMLNodeBatch: Sendable {
    struct Node: Sendable {
        var kind: XMLStreamReader.NodeKind
        var name: XMLName
        /// The line of products, parallel imports and indications; 0 for other nodes.
        var line: Int
        /// `attributes[attributeStart..<attributeEnd]` are this element's known attributes.
        var attributeStart: Int32
        var attributeEnd: Int32
        /// `bytes[textStart..<textEnd]`: a text node's text, or the name of the first element.
        var textStart: Int32
        var textEnd: Int32
    }

    /// A known attribute: its value is `bytes[start..<end]`.
    struct Attribute: Sendable {
        var name: XMLName
        var start: Int32
        var end: Int32
    }

    var nodes: [Node] = []
    var attributes: [Attribute] = []
    var bytes: [UInt8] = []

    /// Appends the NUL-terminated `text` to `bytes`.
    mutating func append(_ text: UnsafePointer<UInt8>) {
        bytes.append(
            contentsOf: UnsafeBufferPointer(
                start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))))
    }
}

/// Reads the register XML on a thread of its own and hands the nodes to the parser in batches.
///
/// libxml2's parse (`XMLStreamReader`) is about half of the reading: on a thread of its own it
/// runs beside the parser building the document, on the core that would otherwise wait for
/// the writer to have something to write. Only bytes cross over; the strings, and the keys
/// normalized through `KeyCache`, are made on the parser's side.
final class XMLNodeStream {
    private let channel: BatchChannel<XMLNodeBatch>
    private let producer: WorkerThread<Void>
    private var batch = XMLNodeBatch()
    private var index = -1
    private let keys: KeyCache

    /// Starts reading the XML from `source` (whose descriptor stays owned by the caller and
    /// must stay open until `stop()`). Streams read one after the other on the same thread
    /// may share `keys`, so that a key's text is one string across them.
    init(source: XMLByteSource, documentName: String, path: String, keys: KeyCache = KeyCache()) {
        self.keys = keys
        let channel = BatchChannel<XMLNodeBatch>(capacity: 16)
        self.channel = channel
        producer = WorkerThread(name: "agro.import.xml") { [channel] in
            // Closed however the reading ends, so that the parser gets every node read before
            // an error, then the error (from `join()`).
            defer { channel.close() }
            let reader = try XMLStreamReader(source: source, documentName: documentName) { batch in
                channel.send([batch])
            }
            try reader.parse(path: path)
        }
    }

    deinit { stop() }

    /// Stops the reading thread (when the parser gives up early) and waits for it.
    func stop() {
        channel.cancel()
        _ = try? producer.join()
    }

    /// Moves to the next node; false at the end of the document.
    /// - Throws: what reading the XML threw (`SRPPPImportError.malformedXML`), once the nodes
    ///   before the error have been read.
    func read(path: String) throws -> Bool {
        index += 1
        while index >= batch.nodes.count {
            guard let next = channel.receive()?.first else {
                batch = XMLNodeBatch()
                index = 0
                try producer.join()
                return false
            }
            batch = next
            index = 0
        }
        return true
    }

    private var node: XMLNodeBatch.Node { batch.nodes[index] }

    var kind: XMLStreamReader.NodeKind { node.kind }

    /// Local name of the current element, as one of the names the parser knows.
    var knownName: XMLName { node.name }

    /// The line of the current product, parallel import or indication.
    var line: Int { node.line }

    /// Text of the current text node.
    var value: String { text(node.textStart, node.textEnd) }

    /// Local name of the first element (the only one whose name is kept).
    var name: String { value }

    /// Reads the known attributes of the current element into `attributes` (which is cleared
    /// first). Key attributes come normalized by `RegisterParser.key`, through `KeyCache`.
    func readAttributes(into attributes: inout XMLAttributes) {
        attributes.clear()
        let node = node
        guard node.attributeStart < node.attributeEnd else { return }
        batch.bytes.withUnsafeBufferPointer { bytes in
            for attribute in batch.attributes[Int(node.attributeStart)..<Int(node.attributeEnd)]
            where !attributes.contains(attribute.name) {
                let value = UnsafeBufferPointer(rebasing: bytes[Int(attribute.start)..<Int(attribute.end)])
                guard attribute.name.isKey else {
                    attributes.set(attribute.name, String(decoding: value, as: UTF8.self))
                    continue
                }
                attributes.set(attribute.name, key: value.baseAddress.map { keys.key(for: $0, count: value.count) } ?? .empty)
            }
        }
    }

    private func text(_ start: Int32, _ end: Int32) -> String {
        String(decoding: batch.bytes[Int(start)..<Int(end)], as: UTF8.self)
    }
}
