import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Hummingbird's HTTP/1.1 channel with what a public server needs below the router
/// (Hummingbird 2.28 offers one idle timeout for every phase, no connection limit, and keeps
/// HTTP/1.0 connections open after the answer):
///
/// - a connection limit: past `maxConnections` a new connection is closed at once, and so is
///   one past `connectionsPerClient` from one address (a trusted proxy's are not counted);
/// - a request-read timeout: a client must send a request's head within `headerTimeout` of its
///   first byte (or of connecting), and its body within `bodyTimeout` at no less than
///   `minimumBodyRate` bytes a second after its first 2 seconds, so a slowloris connection is
///   closed;
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
/// - the client's address is handed to the middleware in `peerHeader` (a client's own value
///   of that header is dropped), for the per-client limits: the peer, or behind a trusted
///   proxy the last address of `X-Forwarded-For` that is not a trusted proxy.
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
        let peer = channel.remoteAddress?.ipAddress
        // A trusted proxy carries many clients: its connections count only toward the total.
        let client = peer.flatMap { limits.trustedProxies.contains($0) ? nil : $0 }
        guard connections.enter(client: client, limit: limits.maxConnections, perClient: limits.connectionsPerClient) else {
            // Closed at once: an answer would need the buffers the limit is there to save.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        let counter = connections
        channel.closeFuture.whenComplete { _ in counter.leave(client: client) }
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

/// Open connections, in all and per client address, shared by every channel of one server.
final class ConnectionCounter: Sendable {
    private struct State {
        var open = 0
        /// Only clients with a connection open: the table is bounded by the connection limit.
        var perClient: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// Counts a new connection of `client` (nil: not counted per client), false when it
    /// would pass `limit` in all or `perClient` for the client.
    func enter(client: String?, limit: Int, perClient clientLimit: Int) -> Bool {
        state.withLock { state in
            guard state.open < limit else { return false }
            if let client {
                let mine = state.perClient[client, default: 0]
                guard mine < clientLimit else { return false }
                state.perClient[client] = mine + 1
            }
            state.open += 1
            return true
        }
    }

    func leave(client: String?) {
        state.withLock { state in
            state.open -= 1
            if let client, let mine = state.perClient[client] { state.perClient[client] = mine > 1 ? mine - 1 : nil }
        }
    }

    var count: Int { state.withLock { $0.open } }
}

/// What one connection is doing, and its one timer. Used on the channel's event loop only:
/// not Sendable; the body timer reaches it through `NIOLoopBound`, which checks that loop.
final class ConnectionState {
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
    /// When the body being read started (uptime ns), and its bytes so far.
    var bodyStart: UInt64 = 0
    var bodyBytes = 0
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

    /// Watches a body from now: closes the connection when it is not read within
    /// `bodyTimeout`, or keeps less than `minimumBodyRate` bytes a second after 2 seconds.
    func watchBody() {
        bodyStart = DispatchTime.now().uptimeNanoseconds
        bodyBytes = 0
        checkBody()
    }

    private func checkBody() {
        timer?.cancel()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - bodyStart) / 1e9
        if elapsed >= limits.bodyTimeout || elapsed >= 2 && Double(bodyBytes) < Double(limits.minimumBodyRate) * elapsed {
            channel.close(promise: nil)
            return
        }
        let next = min(1, limits.bodyTimeout - elapsed)
        let state = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(max(next, 0.01) * 1e9))) {
            if state.value.phase == .body { state.value.checkBody() }
        }
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
        case .body:
            state.bodyBytes += bytes
        case .answering:
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
            // The body (a plan upload) has its own deadline and minimum rate.
            state.phase = .body
            state.watchBody()
            head.headers.remove(name: GuardedHTTP1Channel.peerHeader)
            if let address = Self.client(peer: context.channel.remoteAddress?.ipAddress, head.headers, state.limits) {
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

    /// Whom the per-client limits count a request against: the peer, or when the peer is a
    /// trusted proxy the last `X-Forwarded-For` address that is not one (nginx appends the
    /// address it saw to what the client sent, so only the hops after a trusted one are true).
    static func client(peer: String?, _ headers: HTTPHeaders, _ limits: WebLimits) -> String? {
        guard let peer, limits.trustedProxies.contains(peer) else { return peer }
        let hops = headers["x-forwarded-for"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !limits.trustedProxies.contains($0) } ?? peer
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
