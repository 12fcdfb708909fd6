import CZlib
import Foundation

/// The answers of a hostile or broken server, for the tests of every HTTP client in agro
/// (updates, feeds, weather): lengths that overflow, bodies that never end, compression
/// bombs, one byte per second.
extension FaultyHTTPServer.Reply {
    /// A 200 declaring `Content-Length: 9223372036854775807` (Int64.max), with a short body.
    public static func hugeContentLength(body: Data = Data("{}".utf8)) -> Self {
        .respond(status: 200, body: body, contentLength: Int.max, closeAfter: body.count)
    }

    /// A 200 without a length whose body never ends (64 KiB of `fill` at a time).
    public static func endlessBody(fill: UInt8 = 0x20) -> Self {
        .endless(chunk: Data(repeating: fill, count: 64 << 10))
    }

    /// A 200 whose body is `decodedSize` bytes of spaces gzip-compressed (about 1/1000 of it),
    /// sent with `Content-Encoding: gzip`: small on the wire, huge once decoded.
    public static func gzipBomb(decodedSize: Int) -> Self {
        let body = HostileBodies.gzipOfSpaces(count: decodedSize)
        return .respond(status: 200, headers: ["Content-Encoding": "gzip", "Content-Type": "application/xml"], body: body)
    }

    /// `body` at one byte per `interval` seconds, with its true length.
    public static func trickle(_ body: Data, interval: TimeInterval = 1) -> Self {
        .respond(status: 200, body: body, pacing: FaultyHTTPServer.Pacing(chunkSize: 1, delay: interval))
    }

    /// An endless body at one byte per `interval`: never idle, never finished.
    public static func endlessTrickle(interval: TimeInterval = 0.2) -> Self {
        .endless(chunk: Data(" ".utf8), pacing: FaultyHTTPServer.Pacing(chunkSize: 1, delay: interval))
    }
}

/// Bodies built for hostile answers.
public enum HostileBodies {
    /// gzip (RFC 1952) of `count` spaces, built by streaming zlib: never holds the
    /// decoded bytes.
    public static func gzipOfSpaces(count: Int) -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return Data() }
        defer { deflateEnd(&stream) }
        let input = [UInt8](repeating: 0x20, count: 1 << 20)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var result = Data()
        var remaining = count
        repeat {
            let take = min(remaining, input.count)
            remaining -= take
            let flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(take)
                repeat {
                    output.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        _ = deflate(&stream, flush)
                        result.append(target.baseAddress!, count: target.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0
            }
        } while remaining > 0
        return result
    }
}
