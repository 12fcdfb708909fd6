import AgroDomain
import AgroPresentation
import Foundation
import HTTPTypes
import Hummingbird

/// Signing in and out on the pages, served with the farm journal (`--farm-journal`): a plain
/// form (no script needed), the session cookie of `POST /api/v1/session`, the same limits.
extension Pages {
    static func registerSignIn(on router: Router<BasicRequestContext>, app: WebApp) {
        guard let farm = app.farm else { return }
        router.get("sign-in") { request, _ in
            let page = PageContext(request: request, app: app)
            return await renderAsync(page) {
                let account = await BlockingWork.run { try? farm.account(request, now: page.environment.now) }
                return try signIn(page, account: account, login: "", message: nil)
            }
        }
        router.post("sign-in") { request, _ in
            let page = PageContext(request: request, app: app)
            let form: PostedForm
            do {
                form = try await PostedForm(request, limit: 8 << 10)
            } catch {
                return respond(page, errorPage(page, error))
            }
            let client = request.headers[HTTPField.Name(GuardedHTTP1Channel.peerHeader)!] ?? "unknown"
            let login = form.value("user") ?? "", password = form.value("password") ?? ""
            let outcome = await BlockingWork.run { () -> Result<String, any Error> in
                Result {
                    try FarmAccess.refuseCrossSite(request)
                    return try farm.signIn(login: login, password: password, client: client, now: page.environment.now).token
                }
            }
            switch outcome {
            case let .success(token):
                // Back to the page that asked for a session: a path of this site only.
                let next = form.value("next").flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil } ?? "/"
                return Response(
                    status: .seeOther,
                    headers: [.location: next, .setCookie: FarmAccess.sessionCookie(token, request: request)])
            case let .failure(error):
                let failure = APIError(error, strings: page.environment.strings, wordings: app.wordings)
                return await renderAsync(page) {
                    var rendered = try signIn(page, account: nil, login: login, message: failure.error.message)
                    rendered.status = failure.status
                    rendered.retryAfter = failure.retryAfter
                    return rendered
                }
            }
        }
        router.post("sign-out") { request, _ in
            let page = PageContext(request: request, app: app)
            let outcome = await BlockingWork.run { () -> Result<Void, any Error> in
                Result {
                    try FarmAccess.refuseCrossSite(request)
                    if let token = request.cookies[FarmAccess.cookie]?.value {
                        try farm.accounts(now: page.environment.now).signOut(token: token)
                    }
                }
            }
            if case let .failure(error) = outcome { return respond(page, errorPage(page, error)) }
            return Response(status: .seeOther, headers: [.location: "/sign-in", .setCookie: FarmAccess.clearedCookie])
        }
    }

    private static func signIn(_ page: PageContext, account: Account?, login: String, message: String?) throws -> Rendered {
        var words = [
            "title": page.t("web.signIn"), "signIn": page.t("web.signIn"), "signOut": page.t("web.signOut"),
            "login": page.t("web.login"), "password": page.t("web.password"),
        ]
        if let account, let farm = page.app.farm {
            let farmName = try farm.store.farms().first { $0.id == account.farm }?.name ?? ""
            words["signedInAs"] = page.t(
                "web.signedInAs", account.login, farmName, page.t("farm.role.\(account.role.rawValue)"))
        }
        var values: [String: Any] = ["words": words, "login": login, "next": page.web.query("next") ?? ""]
        if account != nil { values["account"] = true }
        if let message { values["message"] = message }
        return Rendered(template: "signIn", title: page.t("web.signIn"), values: values)
    }
}
