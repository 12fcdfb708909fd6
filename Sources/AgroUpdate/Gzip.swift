import CZlib
import Crypto
import Foundation

/// gzip through the system zlib.
///
/// gzip rather than xz: zlib is on every system, inflating runs at several hundred MB/s (the
/// update must stay close to a plain download), and any static server or CDN knows the type.
/// SQLite files compress to about a third either way. `compress` is public for publishing
/// tools and the benchmarks package (which sizes a delta the publisher left out).
public enum Gzip {
    /// Compresses the file at `source` into `destination` (gzip, level 9), streaming.
    ///
    /// - Returns: the digests of the input and of the written output, hashed as the bytes
    ///   pass, so a publisher need not read either file again.
    @discardableResult
    public static func compress(file source: String, to destination: String) throws
        -> (uncompressed: Manifest.Digest, compressed: Manifest.Digest)
    {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw UpdateError.io(path: source, reason: "cannot read")
        }
        defer { try? input.close() }
        // open(2), not FileManager.createFile: that one replaces the path by a rename, so it
        // never reports the error of writing to the file itself.
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw UpdateError.io(path: destination, reason: FileSystem.errnoText()) }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? output.close() }
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper.
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw UpdateError.io(path: destination, reason: "zlib cannot start") }
        defer { deflateEnd(&stream) }
        let chunk = 1 << 20
        var out = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        var inputHash = SHA256(), outputHash = SHA256()
        var inputSize: Int64 = 0, outputSize: Int64 = 0
        while true {
            // The throwing calls: the legacy readData/write trap on an I/O error (disk full).
            let data: Data
            do { data = try input.read(upToCount: chunk) ?? Data() } catch {
                throw UpdateError.io(path: source, reason: error.localizedDescription)
            }
            inputHash.update(data: data)
            inputSize += Int64(data.count)
            let flush = data.isEmpty ? Z_FINISH : Z_NO_FLUSH
            try data.withUnsafeBytes { raw in
                stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: UInt8.self).baseAddress)
                stream.avail_in = uInt(raw.count)
                repeat {
                    let produced = out.withUnsafeMutableBufferPointer { buffer -> Int in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(chunk)
                        status = deflate(&stream, flush)
                        return chunk - Int(stream.avail_out)
                    }
                    guard status != Z_STREAM_ERROR else { throw UpdateError.io(path: destination, reason: "zlib failed") }
                    if produced > 0 {
                        let piece = Data(out[0..<produced])
                        do { try output.write(contentsOf: piece) } catch {
                            throw UpdateError.io(path: destination, reason: error.localizedDescription)
                        }
                        outputHash.update(data: piece)
                        outputSize += Int64(produced)
                    }
                } while stream.avail_out == 0
            }
            if data.isEmpty { break }
        }
        guard status == Z_STREAM_END else { throw UpdateError.io(path: destination, reason: "zlib did not finish") }
        try output.synchronize()
        return (
            Manifest.Digest(sha256: inputHash.finalize().hexString, size: inputSize),
            Manifest.Digest(sha256: outputHash.finalize().hexString, size: outputSize)
        )
    }

    /// `input` compressed in memory (gzip) at `level` (1...9), nil when zlib fails: `agro web`'s
    /// answers on the wire.
    package static func compress(_ input: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let status: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}

/// Streaming gzip decompression with a hard cap on the output.
package final class GzipInflater {
    private var stream = z_stream()
    private var buffer = [UInt8](repeating: 0, count: 1 << 18)
    package private(set) var finished = false
    /// Bytes produced so far.
    package private(set) var produced: Int64 = 0
    private let limit: Int64

    /// - Parameter limit: the most bytes the output may have; one more is an error, so an
    ///   archive that inflates beyond what the manifest declares is never written out.
    package init(limit: Int64) throws {
        self.limit = limit
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw UpdateError.decompression("zlib cannot start")
        }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `input`, passing each piece of output to `sink`.
    package func feed(_ input: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard input.count > 0 else { return }
        if finished { throw UpdateError.decompression("data after the end of the gzip stream") }
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
        stream.avail_in = uInt(input.count)
        let capacity = buffer.count
        while stream.avail_in > 0 || stream.avail_out == 0 {
            var status: Int32 = Z_OK
            let count = buffer.withUnsafeMutableBufferPointer { out -> Int in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(capacity)
                status = inflate(&stream, Z_NO_FLUSH)
                return capacity - Int(stream.avail_out)
            }
            switch status {
            case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
            default:
                throw UpdateError.decompression(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
            if count > 0 {
                produced += Int64(count)
                if produced > limit {
                    throw UpdateError.sizeMismatch(what: "uncompressed catalog", expected: limit, actual: produced)
                }
                try buffer.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            if status == Z_STREAM_END {
                finished = true
                if stream.avail_in > 0 { throw UpdateError.decompression("data after the end of the gzip stream") }
                break
            }
            if status == Z_BUF_ERROR && count == 0 { break }
        }
    }
}

extension Gzip {
    /// Inflates the gzip file at `path`, passing the output to `sink` in pieces, never more than
    /// `limit` bytes.
    ///
    /// - Returns: the digests of the compressed and of the uncompressed bytes; the caller
    ///   compares them with what it expects.
    package static func decompress(
        file path: String, limit: Int64, sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> (compressed: Manifest.Digest, uncompressed: Manifest.Digest) {
        guard let input = FileHandle(forReadingAtPath: path) else { throw UpdateError.io(path: path, reason: "cannot read") }
        defer { try? input.close() }
        let inflater = try GzipInflater(limit: limit)
        var uncompressedHash = SHA256()
        let compressed = try FileSystem.digest(reading: input, path: path) { chunk in
            try chunk.withUnsafeBytes { raw in
                try inflater.feed(raw) { piece in
                    uncompressedHash.update(bufferPointer: piece)
                    try sink(piece)
                }
            }
        }
        guard inflater.finished else { throw UpdateError.decompression("the gzip stream ends early") }
        return (compressed, Manifest.Digest(sha256: uncompressedHash.finalize().hexString, size: inflater.produced))
    }
}
