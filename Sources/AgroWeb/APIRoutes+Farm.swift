import AgroDomain
import AgroPresentation
import Foundation
import HTTPTypes
import Hummingbird

/// Signing in and syncing, served with the farm journal (`agro web --journal-db`):
///
/// - `POST /api/v1/session` `{"user", "password"}`: 200 and a session cookie, 401 otherwise, 429
///   after too many failures; `GET` says who is signed in; `DELETE` signs out.
/// - `GET /api/v1/sync?since=N&limit=`: the farm's changes after N, paged.
/// - `POST /api/v1/sync` `{"changes": [...]}`: changes written offline, checked whole, then
///   each stored once and numbered.
extension APIRoutes {
    /// The farm journal's paths beside the journal's own.
    static let farmPaths = ["/api/v1/session", "/api/v1/sync"]

    /// A sync batch of `JournalSync.maximumBatch` records of a few kilobytes each.
    static let maximumBatchBytes = 8 << 20

    static func registerSession(on api: RouterGroup<BasicRequestContext>, app: WebApp) {
        guard let farm = app.farm else { return }
        api.post("session") { request, _ in
            let web = WebRequest(request: request, app: app)
            let environment = app.environment(locale: web.locale(cookies: false))
            let client = request.headers[HTTPField.Name(GuardedHTTP1Channel.peerHeader)!] ?? "unknown"
            let data: Data
            do {
                data = Data(try await request.body.collect(upTo: 4 << 10).readableBytesView)
            } catch {
                return failure(RequestError.bodyTooLarge(mebibytes: 1), app: app, environment: environment)
            }
            let outcome = await BlockingWork.run { () -> Result<(String, String), any Error> in
                Result {
                    try FarmAccess.refuseCrossSite(request)
                    let input = try SessionInput.decode(data)
                    let (token, account) = try farm.signIn(
                        login: input.user, password: input.password, client: client, now: environment.now)
                    let document = SessionDocument(account, farms: try farm.store.farms())
                    return (token, try AgroPresentation.Environment.json(document))
                }
            }
            switch outcome {
            case let .success((token, text)):
                var response = json(text)
                response.headers[.setCookie] = FarmAccess.sessionCookie(token, request: request)
                response.headers[.cacheControl] = "no-store"
                return response
            case let .failure(error): return failure(error, app: app, environment: environment)
            }
        }
        api.get("session") { request, context in
            await answer(request, context, app, cached: false) { _, environment in
                SessionDocument(try farm.account(request, now: environment.now), farms: try farm.store.farms())
            }
        }
        api.delete("session") { request, _ in
            let web = WebRequest(request: request, app: app)
            let environment = app.environment(locale: web.locale(cookies: false))
            let outcome = await BlockingWork.run { () -> Result<Void, any Error> in
                Result {
                    try FarmAccess.refuseCrossSite(request)
                    if let token = request.cookies[FarmAccess.cookie]?.value {
                        try farm.accounts(now: environment.now).signOut(token: token)
                    }
                }
            }
            if case let .failure(error) = outcome { return failure(error, app: app, environment: environment) }
            return Response(status: .noContent, headers: [.setCookie: FarmAccess.clearedCookie])
        }
    }

    static func registerSync(on api: RouterGroup<BasicRequestContext>, app: WebApp) {
        guard let farm = app.farm else { return }
        @Sendable func sync(_ request: Request, _ environment: AgroPresentation.Environment) throws
            -> JournalSync<AnyFarm>
        {
            JournalSync(
                store: AnyFarm(farm.store), account: try farm.account(request, now: environment.now),
                catalog: app.catalog, locale: environment.locale, now: environment.now)
        }
        api.get("sync") { request, context in
            await answerJSON(request, context, app, cached: false) { web, environment in
                let sync = try sync(request, environment)
                let since = try web.integer("since", minimum: 0, maximum: Int.max) ?? 0
                let limit = try web.integer("limit", minimum: 1, maximum: JournalSync<AnyFarm>.maximumPage)
                let page = try sync.changes(since: Int64(since), limit: limit ?? JournalSync<AnyFarm>.maximumPage)
                // Compact: a page is read by programs, and pretty-printing a thousand records cost a
                // third of its time (Benchmarks/journal/README.md, "Sync").
                return AgroPresentation.Environment.json(data: try JSONEncoder().encode(page))
            }
        }
        api.post("sync") { request, _ in
            await write(request, app, limit: maximumBatchBytes) { body, environment in
                try FarmAccess.refuseCrossSite(request)
                let sync = try sync(request, environment)
                let receipts = try sync.apply(try SyncBatch.decode(body).changes)
                return (.ok, SyncAnswer(receipts: receipts, last: try farm.store.lastSequence(farm: sync.account.farm)))
            }
        }
    }
}
