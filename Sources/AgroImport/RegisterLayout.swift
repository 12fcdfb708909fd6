import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the `<MetaData>` tables begin in a register file, found without parsing it.
///
/// Products are mapped against the metadata, which the register writes last (after
/// `<Products>` and `<Parallelimports>`: the last 9% of the nodes of 2026). Knowing where it
/// begins, the importer reads it first (`head` then the file from `metadataOffset`, a
/// well-formed document of its own) and then maps and writes each product as libxml2 reads it,
/// instead of holding every product until the end of the file.
///
/// Found by a scan from the end for the last closing tag of the product sections, then forward
/// to the first `<MetaData`; the bytes are ASCII in both published encodings (UTF-8 and
/// ISO-8859-1). Anything unexpected gives nil, and the importer reads the file in one pass.
struct RegisterLayout: Sendable {
    /// The file's first bytes up to and including the root start tag `<PublicationData ...>`:
    /// the XML declaration (with the encoding) and the root the metadata tables need.
    var head: [UInt8]
    /// Where the first `<MetaData` element begins.
    var metadataOffset: Int

    /// The layout of the register file open at `descriptor` (a regular file; read with
    /// `pread`, the descriptor's position is left as it is), or nil.
    static func find(in descriptor: Int32) -> RegisterLayout? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(status.st_size)
        guard let start = read(descriptor, at: 0, count: min(size, 4096)),
            let root = find(Array("<PublicationData".utf8), in: start, from: 0),
            let rootEnd = start[root...].firstIndex(of: UInt8(ascii: ">"))
        else { return nil }
        let head = Array(start[...rootEnd])
        // Backwards in chunks that overlap by a tag's length, so no tag is cut in two.
        let chunk = 1 << 16
        let ends = [Array("</Parallelimports>".utf8), Array("</Products>".utf8)]
        let overlap = ends.map(\.count).max() ?? 0
        var upper = size
        while upper > head.count {
            let lower = max(head.count, upper - chunk)
            guard let bytes = read(descriptor, at: lower, count: upper - lower) else { return nil }
            let found = ends.compactMap { end in findLast(end, in: bytes).map { $0 + end.count } }.max()
            if let found {
                let after = lower + found
                guard let tail = read(descriptor, at: after, count: min(size - after, chunk)),
                    let metadata = Self.find(Array("<MetaData".utf8), in: tail, from: 0)
                else { return nil }
                // Only whitespace may stand between the product sections and the metadata.
                guard tail[..<metadata].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
                return RegisterLayout(head: head, metadataOffset: after + metadata)
            }
            if lower == head.count { break }
            upper = lower + overlap
        }
        return nil
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func findLast(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        var index = bytes.count - pattern.count
        while index >= 0 {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index -= 1
        }
        return nil
    }
}
