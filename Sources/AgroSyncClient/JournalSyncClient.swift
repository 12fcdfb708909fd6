import AgroDomain
import AgroHTTP
import Foundation

/// `agro journal sync`: signs in to the farm's server, sends what this device wrote and has not
/// sent, and fetches the farm's changes after the last number it has, page by page, so that the
/// device's journal is the farm's.
///
/// Safe to cut off anywhere: what was sent is sent again until the server's receipt is kept
/// (the server stores each change once), and the number the device has moves only after the
/// changes up to it are kept.
public struct JournalSyncClient: Sendable {
    /// The server (`http://host:port`), without a path.
    public let server: URL
    /// The language the server words its refusals in.
    public let locale: String
    /// What one request may take.
    public let deadline: TimeInterval
    let http = HTTPClient()

    /// A client of `server`.
    public init(server: URL, locale: String, deadline: TimeInterval = 60) {
        self.server = server
        self.locale = locale
        self.deadline = deadline
    }

    /// What one sync did.
    public struct Outcome: Sendable, Hashable {
        /// Changes sent and acknowledged.
        public var sent: Int
        /// Records sent that the server's checks found errors in.
        public var sentWithErrors: Int
        /// Changes received from the farm that this device did not have.
        public var received: Int
        /// The farm's latest number the device now has.
        public var through: Int64
        /// Bytes on the wire, both ways (bodies).
        public var bytes: Int
    }

    /// Signs in, sends, fetches.
    public func sync(store: some DeviceJournalStore, user: String, password: String) async throws -> Outcome {
        let key = server.absoluteString
        let token = try await signIn(user: user, password: password)
        var outcome = Outcome(sent: 0, sentWithErrors: 0, received: 0, through: 0, bytes: 0)
        let unsent = try store.unsentChanges()
        for start in stride(from: 0, to: unsent.count, by: JournalSync<AnyFarm>.maximumBatch) {
            let batch = Array(unsent[start..<min(start + JournalSync<AnyFarm>.maximumBatch, unsent.count)])
            let body = try JSONEncoder().encode(SyncBatch(changes: batch))
            let (answer, size): (SyncAnswer, Int) = try await exchange(
                "api/v1/sync", token: token, body: body, method: nil)
            outcome.bytes += body.count + size
            try store.markSent(Dictionary(answer.receipts.map { ($0.id, $0.sequence) }, uniquingKeysWith: { a, _ in a }))
            outcome.sent += answer.receipts.count
            outcome.sentWithErrors += answer.receipts.filter { $0.errors > 0 }.count
        }
        var since = try store.syncedThrough(server: key)
        while true {
            let (page, size): (SyncPage, Int) = try await exchange(
                "api/v1/sync?since=\(since)", token: token, body: nil, method: nil)
            outcome.bytes += size
            outcome.received += try store.receive(page.changes)
            since = page.changes.last?.sequence ?? page.last
            try store.setSyncedThrough(server: key, since)
            if !page.more { break }
        }
        outcome.through = since
        // The session is not needed any more; a failure here changes nothing kept.
        _ = try? await exchange("api/v1/session", token: token, body: nil, method: "DELETE") as (Empty, Int)
        return outcome
    }

    private struct Empty: Decodable {}

    private func signIn(user: String, password: String) async throws -> String {
        struct Credentials: Encodable {
            var user: String
            var password: String
        }
        let body = try JSONEncoder().encode(Credentials(user: user, password: password))
        let response = try await send("api/v1/session", token: nil, body: body, method: nil)
        guard let cookie = response.0.headers.first(where: { $0.name.lowercased() == "set-cookie" })?.value,
            let pair = cookie.split(separator: ";").first, pair.hasPrefix("agro_session=")
        else { throw SyncClientError.refused(status: response.0.status, message: Self.message(response.1)) }
        return String(pair.dropFirst("agro_session=".count))
    }

    private func exchange<T: Decodable>(_ path: String, token: String, body: Data?, method: String?) async throws
        -> (T, Int)
    {
        let (response, data) = try await send(path, token: token, body: body, method: method)
        if T.self == Empty.self { return (try JSONDecoder().decode(T.self, from: Data("{}".utf8)), data.count) }
        do {
            return (try JSONDecoder().decode(T.self, from: data), data.count)
        } catch {
            throw SyncClientError.malformedAnswer(status: response.status)
        }
    }

    private func send(_ path: String, token: String?, body: Data?, method: String?) async throws
        -> (HTTPResponse, Data)
    {
        guard let url = URL(string: path, relativeTo: server) else { throw SyncClientError.badServer(server.absoluteString) }
        var request = HTTPRequest(url: url.absoluteURL, maxBodyBytes: 64 << 20, deadline: deadline)
        request.body = body
        request.method = method
        request.setHeader("Accept", "application/json")
        request.setHeader("Accept-Language", locale)
        if body != nil { request.setHeader("Content-Type", "application/json") }
        if let token { request.setHeader("Cookie", "agro_session=\(token)") }
        let (response, data): (HTTPResponse, Data)
        do {
            (response, data) = try await http.get(request)
        } catch {
            throw SyncClientError.unreachable(server: server.absoluteString, reason: error.reason)
        }
        guard (200..<300).contains(response.status) else {
            throw SyncClientError.refused(status: response.status, message: Self.message(data))
        }
        return (response, data)
    }

    /// The server's own words for a refusal (its error body's message).
    private static func message(_ data: Data) -> String {
        struct Failure: Decodable {
            struct Body: Decodable { var message: String }
            var error: Body
        }
        return (try? JSONDecoder().decode(Failure.self, from: data))?.error.message ?? ""
    }
}

/// Why a sync did not finish; what was kept stays kept, what was not sent is sent next time.
public enum SyncClientError: UserFacingError, Equatable {
    /// The server address cannot be used.
    case badServer(String)
    /// The server cannot be reached.
    case unreachable(server: String, reason: String)
    /// The server refused (its status and its message, in the language asked for).
    case refused(status: Int, message: String)
    /// The server's answer is not the sync's JSON.
    case malformedAnswer(status: Int)

    /// One line in English.
    public var message: String {
        switch self {
        case let .badServer(text): return "\(text) is not a server address (http://host:port)"
        case let .unreachable(server, reason): return "\(server) cannot be reached (\(reason)); nothing unsent was lost"
        case let .refused(status, message): return "the server refused (HTTP \(status)): \(message)"
        case let .malformedAnswer(status): return "the server's answer (HTTP \(status)) is not a sync answer"
        }
    }
}

extension SyncClientError: DescribedError {
    /// This case as data, for the program to word (`error.SyncClientError.<name>`); a refusal's
    /// name carries the kind of HTTP status, which gives its exit status.
    public var errorCase: ErrorCase {
        switch self {
        case let .badServer(text): return ErrorCase("SyncClientError", "badServer", [text])
        case let .unreachable(server, reason): return ErrorCase("SyncClientError", "unreachable", [server, reason])
        case let .refused(status, message):
            let kind =
                switch status {
                case 401: "refused.signIn"
                case 403: "refused.notAllowed"
                case 413: "refused.tooLarge"
                case 429: "refused.tooMany"
                case 503: "refused.unavailable"
                default: "refused"
                }
            return ErrorCase("SyncClientError", kind, [String(status), message])
        case let .malformedAnswer(status): return ErrorCase("SyncClientError", "malformedAnswer", [String(status)])
        }
    }
}
