import AgroHTTP
import AgroUpdate
import Foundation

/// The answer to a manifest request.
enum ManifestResponse {
    case fetched(Data, etag: String?)
    case notModified
}

/// HTTP with the limits an updater needs, on AgroHTTP: every body is streamed and cut off at a
/// declared size, every request has an overall deadline and an idle timeout, downloads resume
/// with Range, and no response is read from or stored in a cache.
final class HTTPFetcher: Sendable {
    let configuration: UpdateConfiguration
    private let client = HTTPClient()

    init(configuration: UpdateConfiguration) {
        self.configuration = configuration
    }

    private func request(_ url: URL, maxBytes: Int64, deadline: TimeInterval, compressed: Bool) -> HTTPRequest {
        var request = HTTPRequest(
            url: url, maxBodyBytes: maxBytes, deadline: deadline, idleTimeout: configuration.timeout,
            acceptsCompression: compressed,
            // Plain http already allowed (loopback or --insecure) may be redirected to; the
            // answering URL is checked again below.
            allowsInsecureRedirects: configuration.allowInsecure || url.scheme?.lowercased() == "http")
        request.setHeader("Cache-Control", "no-cache")
        return request
    }

    /// GETs the manifest, conditionally on `etag`.
    func fetchManifest(_ url: URL, etag: String?) async throws -> ManifestResponse {
        var request = request(
            url, maxBytes: Int64(Manifest.maximumSize), deadline: configuration.manifestDeadline, compressed: true)
        if let etag { request.setHeader("If-None-Match", etag) }
        let sink = ManifestSink(allowInsecure: configuration.allowInsecure)
        let response: HTTPResponse
        do {
            response = try await client.perform(request, into: sink)
        } catch HTTPError.tooLarge {
            throw UpdateError.manifestInvalid("larger than \(Manifest.maximumSize) bytes")
        } catch let error as HTTPError {
            throw Self.describe(error, url: url, deadline: configuration.manifestDeadline)
        }
        switch response.status {
        case 304: return .notModified
        case 200: return .fetched(sink.data, etag: response.value(for: "ETag"))
        default: throw UpdateError.httpStatus(url: url.absoluteString, status: response.status)
        }
    }

    /// Downloads `url` into the file at `path`, appending to what is already there (resume),
    /// and never writing past `size` bytes in all.
    ///
    /// - Throws: `.truncated` when the connection ends early (the bytes so far are kept for
    ///   the next attempt), `.tooLarge` when the server has more to send than `size`.
    func download(_ url: URL, to path: String, size: Int64, progress: @escaping @Sendable (Int64) -> Void) async throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        var existing = FileSystem.size(path) ?? 0
        if existing > size {
            try? FileManager.default.removeItem(atPath: path)
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            existing = 0
        }
        if existing == size { return }
        let deadline = configuration.catalogDeadline(size: size - existing)
        // The catalog is gzip already: no second coding, so the cap is on the file's own bytes.
        var request = request(url, maxBytes: size, deadline: deadline, compressed: false)
        if existing > 0 { request.setHeader("Range", "bytes=\(existing)-") }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw UpdateError.io(path: path, reason: "cannot open for writing")
        }
        defer { try? handle.close() }
        let sink = DownloadSink(
            handle: handle, offset: existing, size: size, url: url, allowInsecure: configuration.allowInsecure,
            progress: progress)
        let response: HTTPResponse
        do {
            response = try await client.perform(request, into: sink)
        } catch {
            try? handle.synchronize()
            let received = FileSystem.size(path) ?? 0
            let failure: any Error = (error as? HTTPError).map { Self.describe($0, url: url, deadline: deadline) } ?? error
            let interrupted =
                switch failure as? UpdateError {
                case .unreachable, .timedOut: true
                default: false
                }
            // The body started and stopped: what arrived is kept for the next attempt.
            if interrupted, received > existing { throw UpdateError.truncated(expected: size, received: received) }
            throw failure
        }
        try handle.synchronize()
        guard response.status == 200 || response.status == 206 else {
            throw UpdateError.httpStatus(url: url.absoluteString, status: response.status)
        }
        let received = FileSystem.size(path) ?? 0
        if received < size { throw UpdateError.truncated(expected: size, received: received) }
    }

    static func describe(_ error: HTTPError, url: URL, deadline: TimeInterval) -> UpdateError {
        switch error {
        case .timedOut, .stalled: return .timedOut(url: url.absoluteString)
        case let .tooLarge(limit): return .tooLarge(declared: limit)
        case let .redirectRefused(target): return .insecureServer(url: target)
        default: return .unreachable(url: url.absoluteString, reason: error.reason)
        }
    }
}

/// Refuses an answer that came, after redirects, from a URL the configuration does not allow.
private func checkAnswering(_ response: HTTPResponse, allowInsecure: Bool) throws {
    guard let url = response.url else { return }
    do {
        try UpdateConfiguration.checkScheme(url, allowInsecure: allowInsecure)
    } catch {
        throw UpdateError.insecureServer(url: url.absoluteString)
    }
}

/// The manifest's body, read only from a 200.
final class ManifestSink: HTTPBodySink {
    let allowInsecure: Bool
    private(set) var data = Data()

    init(allowInsecure: Bool) { self.allowInsecure = allowInsecure }

    func begin(_ response: HTTPResponse) throws -> Bool {
        try checkAnswering(response, allowInsecure: allowInsecure)
        // Error pages and 304s are not read.
        return response.status == 200
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws { data.append(contentsOf: bytes) }
}

/// Appends the catalog to the partial file: a 206 must continue exactly where the file stops, a
/// 200 to a range request starts the file over, and no byte goes past the declared size.
final class DownloadSink: HTTPBodySink {
    let handle: FileHandle
    let size: Int64
    let url: URL
    let allowInsecure: Bool
    let progress: @Sendable (Int64) -> Void
    private var offset: Int64

    init(
        handle: FileHandle, offset: Int64, size: Int64, url: URL, allowInsecure: Bool,
        progress: @escaping @Sendable (Int64) -> Void
    ) {
        self.handle = handle
        self.offset = offset
        self.size = size
        self.url = url
        self.allowInsecure = allowInsecure
        self.progress = progress
    }

    func begin(_ response: HTTPResponse) throws -> Bool {
        try checkAnswering(response, allowInsecure: allowInsecure)
        switch response.status {
        case 206:
            let range = response.value(for: "Content-Range") ?? ""
            guard let start = Self.rangeStart(range), start == offset else {
                throw UpdateError.unreachable(
                    url: url.absoluteString, reason: "the server resumed at the wrong place (\(range.prefix(80)))")
            }
        case 200:
            if offset > 0 {
                // The server ignored Range: the whole file comes again.
                try handle.truncate(atOffset: 0)
                offset = 0
            }
        default:
            return false
        }
        // Checked sum: a declared length near Int64.max must be refused, not overflow.
        if let length = response.declaredLength {
            let (end, overflow) = offset.addingReportingOverflow(length)
            if overflow || end > size { throw UpdateError.tooLarge(declared: size) }
        }
        try handle.seek(toOffset: UInt64(offset))
        progress(offset)
        return true
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        // `offset <= size` holds, and a piece is small: no overflow.
        guard offset + Int64(bytes.count) <= size else { throw UpdateError.tooLarge(declared: size) }
        try handle.write(contentsOf: Data(bytes))
        offset += Int64(bytes.count)
        progress(offset)
    }

    /// The first byte position of "bytes FIRST-LAST/TOTAL", if it is a number.
    static func rangeStart(_ header: String) -> Int64? {
        guard header.hasPrefix("bytes ") else { return nil }
        let digits = header.dropFirst(6).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int64(digits)
    }
}
