import AgroDomain
import AgroPresentation
import Foundation
import HTTPTypes
import Hummingbird

/// The farm journal's accounts behind `agro web --journal-db`: who a request comes from (its
/// session cookie), and sign-in attempts limited per account and per client.
package struct FarmAccess: Sendable {
    /// Farms, accounts, sessions and the farms' journals.
    package let store: any FarmStore
    /// bcrypt and token digests.
    package let hasher: any PasswordHasher
    /// Sign-ins per account: 5 in 15 minutes, then one every 3 minutes.
    let accountAttempts = RateLimiter(perClient: 5, total: 1_000_000, period: 900)
    /// Sign-ins per client address: 20 in 15 minutes.
    let clientAttempts = RateLimiter(perClient: 20, total: 1_000_000, period: 900)

    /// The cookie that carries the session token.
    static let cookie = "agro_session"

    /// Serves the farm journal from `store`.
    package init(store: any FarmStore, hasher: any PasswordHasher) {
        self.store = store
        self.hasher = hasher
    }

    func accounts(now: Date) -> Accounts<AnyFarm> {
        Accounts(store: AnyFarm(store), hasher: hasher, now: now)
    }

    /// Checks a sign-in against both limits (per client, per account) and opens a session; a
    /// success gives the attempts back.
    func signIn(login: String, password: String, client: String, now: Date) throws -> (token: String, account: Account) {
        let key = login.trimmingCharacters(in: .whitespaces).lowercased()
        for (limiter, name) in [(clientAttempts, client), (accountAttempts, key)] {
            if let wait = limiter.take(client: name) { throw FarmError.tooManyAttempts(seconds: Int(wait.rounded(.up))) }
        }
        let session = try accounts(now: now).signIn(login: login, password: password)
        // A person who signs in is not guessing: their attempts start afresh.
        accountAttempts.refund(client: key)
        clientAttempts.refund(client: client)
        return session
    }

    /// The account of the request's session; `FarmError.signInRequired` without a valid one.
    func account(_ request: Request, now: Date) throws -> Account {
        try accounts(now: now).account(token: request.cookies[Self.cookie]?.value ?? "")
    }

    /// Refuses a request that changes something and comes from another site's page: browsers
    /// send `Origin` with every cross-site POST, and the session cookie is SameSite=Lax besides.
    static func refuseCrossSite(_ request: Request) throws {
        guard request.method != .get, request.method != .head, let origin = request.headers[.origin] else { return }
        let host = (request.head.authority ?? "").split(separator: ":").first.map(String.init)
        guard let originHost = URL(string: origin)?.host, originHost.lowercased() == host?.lowercased() else {
            throw FarmError.crossSite
        }
    }

    /// The Set-Cookie value of a new session: HttpOnly, SameSite=Lax, Secure behind TLS (nginx
    /// says so in `X-Forwarded-Proto`), expiring with the session.
    static func sessionCookie(_ token: String, request: Request) -> String {
        var cookie = "\(Self.cookie)=\(token); Path=/; Max-Age=\(Int(Accounts<AnyFarm>.sessionLifetime)); HttpOnly; SameSite=Lax"
        if request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https" { cookie += "; Secure" }
        return cookie
    }

    /// The Set-Cookie value that removes the session cookie.
    static let clearedCookie = "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
}

extension WebApp {
    /// The journal a request reads and writes: the device's (`--journal`), or the farm of the
    /// request's session (`--journal-db`), which must write to write.
    func journalStore(for request: Request, now: Date, writing: Bool) throws -> AnyJournal {
        if let journal { return AnyJournal(journal) }
        guard let farm else { throw FarmError.signInRequired }
        if writing { try FarmAccess.refuseCrossSite(request) }
        let account = try farm.account(request, now: now)
        if writing, !account.role.writes { throw FarmError.notAllowed(role: account.role) }
        return AnyJournal(farm.store.journal(farm: account.farm))
    }
}
