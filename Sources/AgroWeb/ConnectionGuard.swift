import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 channel with what a public server needs below the router
/// (Hummingbird 2.28 offers one idle timeout for every phase, no connection limit, and keeps
/// HTTP/1.0 connections open after the answer):
///
/// - a connection limit: past `maxConnections` a new connection is closed at once;
/// - a request-read timeout: a client must send a request's head within `headerTimeout` of its
///   first byte (or of connecting), and its body within three times that, so a slowloris
///   connection is closed;
/// - a keep-alive timeout: an idle connection between two requests is closed after
///   `keepAliveTimeout`;
/// - a cap on the bytes of one request head (`maxHeadBytes`);
/// - HTTP/1.0 and `Connection: close` requests are answered and the connection is closed
///   (HTTP/1.0 with the answer in HTTP/1.0);
/// - a request NIO parses but HTTP/1.1 forbids is refused before any route sees it: 400
///   without exactly one Host (RFC 9112, 3.2), 501 for a transfer coding other than chunked
///   (RFC 9112, 6.1), and the connection closed;
/// - every answer made down here (NIO's own 400 for a request it cannot parse) carries the
///   security headers, as the router's answers do;
/// - the peer's address is handed to the middleware in `peerHeader` (a client's own value
///   of that header is dropped), for the per-client rate limits.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let limits: WebLimits
    let connections: ConnectionCounter

    /// Request heads over this size close the connection (NIO caps single fields only).
    static let maxHeadBytes = 96 * 1024
    /// The header carrying the peer's address from the channel to the middleware.
    static let peerHeader = "x-agro-peer"

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.enter(limit: limits.maxConnections) else {
            // Closed at once: an answer would need the buffers the limit is there to save.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        let counter = connections
        channel.closeFuture.whenComplete { _ in counter.leave() }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let state = ConnectionState(channel: channel, limits: limits)
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(ByteWatcher(state: state), position: .first)
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(RequestWatcher(state: state), position: .after(decoder))
            state.arm(seconds: limits.headerTimeout)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    struct ConnectionRefused: Error {}
}

/// Open connections, shared by every channel of one server.
final class ConnectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0

    func enter(limit: Int) -> Bool {
        lock.withLock {
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func leave() { lock.withLock { open -= 1 } }

    var count: Int { lock.withLock { open } }
}

/// What one connection is doing, and its one timer. Used on the channel's event loop only.
final class ConnectionState: @unchecked Sendable {
    enum Phase {
        /// Waiting for a request's first byte (`idle`), for the rest of its head (`reading`),
        /// for its body (`body`).
        case idle, reading, body
        /// The request is read; the answer is being made.
        case answering
    }

    let channel: any Channel
    let limits: WebLimits
    var phase = Phase.reading
    var headBytes = 0
    var closeAfterAnswer = false
    /// Requests read and not yet answered (a pipelining client may send the next early).
    var inFlight = 0
    var http10 = false
    private var timer: Scheduled<Void>?

    init(channel: any Channel, limits: WebLimits) {
        self.channel = channel
        self.limits = limits
    }

    /// Closes the connection unless `disarm()` comes first.
    func arm(seconds: Double) {
        timer?.cancel()
        let channel = self.channel
        timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
            channel.close(promise: nil)
        }
    }

    func disarm() {
        timer?.cancel()
        timer = nil
    }
}

/// First in the pipeline, on raw bytes: a request's first byte starts its read timeout;
/// a head larger than `maxHeadBytes` closes the connection.
final class ByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let state: ConnectionState

    init(state: ConnectionState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytes
        switch state.phase {
        case .idle:
            state.phase = .reading
            state.headBytes = bytes
            state.arm(seconds: state.limits.headerTimeout)
        case .reading:
            state.headBytes += bytes
            if state.headBytes > GuardedHTTP1Channel.maxHeadBytes {
                context.close(promise: nil)
                return
            }
        case .body, .answering:
            break
        }
        context.fireChannelRead(data)
    }
}

/// After NIO's HTTP decoder: sees each request head (version, keep-alive, peer) and body end,
/// and each answer's head and end, to run the timers and close after HTTP/1.0 answers.
final class RequestWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart
    let state: ConnectionState

    init(state: ConnectionState) { self.state = state }

    /// Set once a request is refused here: what the client sends after it is dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case var .head(head):
            if let (status, reason) = Self.refusal(head) {
                refused = true
                refuse(context: context, status: status, reason: reason)
                return
            }
            state.http10 = head.version.major == 1 && head.version.minor == 0
            if !head.isKeepAlive {
                state.closeAfterAnswer = true
                // Hummingbird closes after the answer only when it reads exactly this.
                head.headers.replaceOrAdd(name: "connection", value: "close")
            }
            state.inFlight += 1
            // The body (a plan upload) has its own window: three times the head's.
            state.phase = .body
            state.arm(seconds: state.limits.headerTimeout * 3)
            head.headers.remove(name: GuardedHTTP1Channel.peerHeader)
            if let address = context.channel.remoteAddress?.ipAddress {
                head.headers.add(name: GuardedHTTP1Channel.peerHeader, value: address)
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            state.phase = .answering
            state.headBytes = 0
            state.disarm()
            context.fireChannelRead(data)
        }
    }

    /// Why HTTP/1.1 forbids answering `head` as it came, if it does.
    static func refusal(_ head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        let hosts = head.headers["host"]
        if head.version.major == 1, head.version.minor >= 1, hosts.count != 1 {
            return (.badRequest, hosts.isEmpty ? "a request needs a Host header" : "a request may have only one Host header")
        }
        if hosts.count > 1 { return (.badRequest, "a request may have only one Host header") }
        let codings = head.headers["transfer-encoding"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty, codings != ["chunked"] {
            return (
                .notImplemented,
                "the transfer coding \(codings.joined(separator: ", ")) is not supported; send chunked or a Content-Length"
            )
        }
        return nil
    }

    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, reason: String) {
        let body = context.channel.allocator.buffer(string: reason + "\n")
        var headers = HTTPHeaders([
            ("content-type", "text/plain; charset=utf-8"), ("content-length", String(body.readableBytes)),
            ("connection", "close"),
        ])
        for field in SecurityHeaders.fields { headers.add(name: field.name, value: field.value) }
        state.closeAfterAnswer = true
        state.disarm()
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case var .head(head):
            // Answers from the router have them already; NIO's own error answers do not.
            if !head.headers.contains(name: "content-security-policy") {
                for field in SecurityHeaders.fields { head.headers.add(name: field.name, value: field.value) }
            }
            if state.closeAfterAnswer { head.headers.replaceOrAdd(name: "connection", value: "close") }
            if state.http10 { head.version = .http1_0 }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            state.inFlight = max(0, state.inFlight - 1)
            if !state.closeAfterAnswer, state.phase == .answering, state.inFlight == 0 {
                state.phase = .idle
                state.arm(seconds: state.limits.keepAliveTimeout)
            }
        }
    }
}
