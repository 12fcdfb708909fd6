import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird

/// What the web app needs to work offline (`Assets/web/static/sw.js`, `offline.js`):
/// the service worker at the site's root, so that its scope covers every page, and the page it
/// shows for a page never saved, one per interface language (precached with the app shell).
enum OfflineRoutes {
    static func register(on router: Router<BasicRequestContext>, app: WebApp) {
        router.get("sw.js") { request, _ in
            guard let file = app.staticFiles["sw.js"] else { return Response(status: .notFound) }
            let script = String(decoding: file.data, as: UTF8.self)
                .replacingOccurrences(of: "__VERSION__", with: shellVersion(app, request: request))
            // Checked on every visit, so that a new version is picked up at once.
            return Response(
                status: .ok,
                headers: [.contentType: file.contentType, .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: script)))
        }
        router.get("offline/:lang") { request, context in
            // The language switch's lang= wins over the path, as on every page.
            let asked = LocaleChain.normalize(request.uri.queryParameters.get("lang") ?? context.parameters.get("lang") ?? "en")
            let locale = WebApp.interfaceLocales.contains(asked) ? asked : "en"
            let page = Pages.PageContext(request: request, app: app, locale: locale)
            return Pages.respond(page, Pages.Rendered(template: "offline", title: page.t("web.offlineTitle"), values: [:]))
        }
    }

    /// A digest of what the worker precaches: the static files, the catalog's identity and
    /// version (the offline pages show its title) and the interface strings of the offline
    /// page in each language. It changes when any of them does, and is the same on every
    /// instance serving the same files, so a new version replaces the shell and nothing else does.
    static func shellVersion(_ app: WebApp, request: Request) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0xff) &* 0x100_0000_01b3
        }
        for name in app.staticFiles.keys.sorted() where name != "sw.js" {
            add(name)
            add(app.staticFiles[name]?.etag ?? "")
        }
        add(app.catalog.info.identity)
        add(String(app.catalog.info.version))
        for locale in WebApp.interfaceLocales {
            let page = Pages.PageContext(request: request, app: app, locale: locale)
            for (key, value) in Pages.strings(page).sorted(by: { $0.key < $1.key }) {
                add(key)
                add(value)
            }
        }
        return String(hash, radix: 16)
    }
}

extension Pages.PageContext {
    /// A page in `locale` whatever the request asks (the offline pages, one per language).
    init(request: Request, app: WebApp, locale: String) {
        web = WebRequest(request: request, app: app)
        self.app = app
        environment = app.environment(locale: locale)
    }
}
