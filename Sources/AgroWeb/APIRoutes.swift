import AgroDomain
import AgroHTML
import AgroNews
import AgroPresentation
import AgroWeather
import Foundation
import Hummingbird

/// The JSON API under `/api/v1/`: one endpoint per catalog command, answering with the
/// document that command prints with `--format json`, built by the same code and encoded by
/// the same encoder (`Environment.json`).
///
/// Every endpoint takes `lang` (else Accept-Language); lists take `page`, `perPage` (default
/// 20) and `all`. The paths are listed in `paths` and described in `openapi.json`; a test
/// checks that the two agree.
enum APIRoutes {
    /// Every path the API answers, in OpenAPI's template syntax.
    static let paths =
        [
            "/api/v1/catalog", "/api/v1/products", "/api/v1/product/{id}", "/api/v1/substances", "/api/v1/substance/{id}",
            "/api/v1/cultures", "/api/v1/culture/{id}", "/api/v1/pests", "/api/v1/pest/{id}", "/api/v1/scheme/{culture}",
            "/api/v1/search", "/api/v1/regions", "/api/v1/contacts", "/api/v1/contacts/{region}", "/api/v1/news",
            "/api/v1/news/{id}", "/api/v1/weather", "/api/v1/uses", "/api/v1/openapi.json", "/api/v1/plan/check", "/api/v1/tank",
        ] + journalPaths + farmPaths

    static func register(on router: Router<BasicRequestContext>, app: WebApp) {
        let api = router.group("api/v1")
        api.get("catalog") { request, context in
            // Title and attribution in the request's language, as `agro catalog info` prints them.
            await answer(request, context, app) { _, environment in try app.catalog.catalogInfo(locale: environment.locale) }
        }
        api.get("products") { request, context in
            await answerJSON(request, context, app) { web, environment in
                let filter = try CatalogDocuments.productFilter(
                    pest: web.query("pest"), culture: web.query("culture"), substance: web.query("substance"),
                    category: web.query("category"), company: web.query("company"), letter: web.query("letter"),
                    catalog: app.catalog, environment: environment)
                if web.flag("letters") {
                    let letters = try CatalogDocuments.letters(filter, catalog: app.catalog, environment: environment)
                    return try AgroPresentation.Environment.json(PageDocument(Page(slicing: letters, try web.page())))
                }
                return AgroPresentation.Environment.json(
                    products: try app.catalog.products(filter, page: try web.page(), locale: environment.locale))
            }
        }
        entity(api, "product", .product, app) { id, environment in
            try CatalogDocuments.product(id: id, catalog: app.catalog, environment: environment)
        }
        api.get("substances") { request, context in
            await answer(request, context, app) { web, environment in
                PageDocument(try app.catalog.substances(page: try web.page(), locale: environment.locale))
            }
        }
        entity(api, "substance", .substance, app) { id, environment in
            try CatalogDocuments.substance(id: id, catalog: app.catalog, environment: environment)
        }
        api.get("cultures") { request, context in
            await answer(request, context, app) { web, environment in
                let nodes = try app.catalog.cultures(locale: environment.locale)
                return PageDocument(Page(slicing: CatalogDocuments.cultureList(nodes), try web.page()))
            }
        }
        entity(api, "culture", .culture, app) { id, environment in
            try CatalogDocuments.culture(id: id, catalog: app.catalog, environment: environment)
        }
        api.get("pests") { request, context in
            await answer(request, context, app) { web, environment in
                let filter = try CatalogDocuments.pestFilter(
                    culture: web.query("culture"), kind: web.query("kind"), catalog: app.catalog, environment: environment)
                return PageDocument(try app.catalog.pests(filter, page: try web.page(), locale: environment.locale))
            }
        }
        api.get("pest/:id") { request, context in
            await answer(request, context, app) { web, environment in
                let id = try resolve(context, "id", .pest, app, environment)
                let culture = try environment.resolve(web.query("culture"), .culture, in: app.catalog)
                return try CatalogDocuments.pest(id: id, cultureID: culture, catalog: app.catalog, environment: environment)
            }
        }
        api.get("scheme/:culture") { request, context in
            await answer(request, context, app) { web, environment in
                try CatalogDocuments.schemes(
                    culture: try parameter(context, "culture"), stage: try web.integer("stage", minimum: 0, maximum: 99),
                    catalog: app.catalog, environment: environment)
            }
        }
        api.get("uses") { request, context in
            await answer(request, context, app) { web, environment in
                let query = try CatalogDocuments.useQuery(
                    pest: web.query("pest"), culture: web.query("culture"),
                    stage: try web.integer("stage", minimum: 0, maximum: 99), substance: web.query("substance"),
                    group: web.query("group"), sort: web.query("sort"), catalog: app.catalog, environment: environment)
                return PageDocument(try app.catalog.compareUses(query, page: try web.page(), locale: environment.locale))
            }
        }
        api.get("search") { request, context in
            await answer(request, context, app) { web, environment in
                guard let text = web.query("q") else { throw RequestError.missing(.q) }
                let kinds = try web.query("kind").map { text -> Set<EntityKind> in
                    guard let kind = EntityKind(rawValue: text) else {
                        let searched: [EntityKind] = [.product, .substance, .culture, .pest, .news]
                        throw RequestError.unknownValue(.kind, value: text, valid: searched.map(\.rawValue))
                    }
                    return [kind]
                }
                return PageDocument(
                    try app.catalog.search(text, kinds: kinds, page: try web.page(), locale: environment.locale))
            }
        }
        api.get("regions") { request, context in
            await answer(request, context, app) { web, environment in
                PageDocument(Page(slicing: try app.catalog.regions(locale: environment.locale), try web.page()))
            }
        }
        entity(api, "contacts", .region, app, parameter: "region") { id, environment in
            try CatalogDocuments.contacts(regionID: id, catalog: app.catalog, environment: environment)
        }
        api.get("contacts") { request, context in
            await answer(request, context, app) { web, environment in
                guard let near = web.query("near") else {
                    throw RequestError.oneNeeded(.contactsRegion, .near)
                }
                let point = try CoordinateParser.parse(near)
                let sorted = try CatalogDocuments.nearest(to: point, catalog: app.catalog, environment: environment)
                return PageDocument(Page(slicing: sorted, try web.page()))
            }
        }
        api.get("news") { request, context in
            await answer(request, context, app, cached: false) { web, environment in
                PageDocument(Page(slicing: try news(web, environment, app), try web.page()))
            }
        }
        api.get("news/:id") { request, context in
            await answer(request, context, app, cached: false) { _, environment in
                try newsItem(id: try parameter(context, "id"), environment, app)
            }
        }
        api.get("weather") { request, context in
            let web = WebRequest(request: request, app: app)
            let environment = app.environment(locale: web.locale(cookies: false))
            do {
                return json(try await weather(web, environment, app))
            } catch {
                return failure(error, app: app, environment: environment)
            }
        }
        api.get("openapi.json") { request, _ in
            guard let file = app.staticFiles["openapi.json"] else {
                return failure(APIError(notFound: "/api/v1/openapi.json", strings: app.strings(for: request)))
            }
            return Response(
                status: .ok, headers: [.contentType: file.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
        }
        registerDecisions(on: api, app: app)
        registerJournal(on: api, app: app)
    }

    // MARK: - The documents that have no CLI command of their own

    /// The catalog's news and the cached feed entries, merged as `agro news` merges them.
    static func news(_ web: WebRequest, _ environment: AgroPresentation.Environment, _ app: WebApp) throws -> [NewsListItem] {
        let kind = try web.query("kind").map { text -> NewsKind in
            guard let kind = NewsKind(rawValue: text) else {
                throw RequestError.unknownValue(.kind, value: text, valid: NewsKind.allCases.map(\.rawValue))
            }
            return kind
        }
        let summaries = try app.catalog.news(kind: kind, page: .all, locale: environment.locale).items
        let entries = kind == .article ? [] : ((try? app.feeds()) ?? [])
        return NewsListItem.merged(catalog: summaries, feeds: entries)
    }

    /// One news item as `agro news show ID --format json --width 80` prints it, with its HTML
    /// made safe for a browser (`HTMLSanitizer`).
    static func newsItem(id: String, _ environment: AgroPresentation.Environment, _ app: WebApp) throws -> NewsItemDocument {
        var item: NewsItem
        if let found = try app.catalog.newsItem(id: id, locale: environment.locale) {
            item = found
        } else if let entry = try app.feedItem(id) {
            item = entry.newsItem()
        } else {
            throw CatalogError.notFound(kind: .news, id: id)
        }
        let text = HTMLRenderer.render(
            html: item.bodyHTML, options: HTMLRenderOptions(width: 80, baseURL: item.source.flatMap(URL.init(string:))))
        item.bodyHTML = HTMLSanitizer.sanitize(item.bodyHTML, base: item.source.flatMap(URL.init(string:)))
        return NewsItemDocument(item: item, text: text)
    }

    /// `agro weather --at LAT,LON [--forecast] [--spray] [--product ID] --format json`, the key
    /// kept here: the same `WeatherRequest` as the command and the page.
    static func weather(_ web: WebRequest, _ environment: AgroPresentation.Environment, _ app: WebApp) async throws -> String {
        let request = try weatherRequest(web, current: false)
        return try await request.answer(
            catalog: app.catalog, environment: environment, service: try app.weatherService(for: web.request),
            rules: app.sprayRules
        ).json()
    }

    /// The weather request of an API call or the weather page: `at=LAT,LON` or `region=` (id or
    /// name), `units=`, `forecast=`, `spray=`, `product=`.
    static func weatherRequest(_ web: WebRequest, current: Bool) throws -> WeatherRequest {
        try WeatherRequest(
            at: web.query("at"), region: web.query("region"), units: web.query("units"), current: current,
            forecast: web.flag("forecast"), spray: web.flag("spray"), product: web.query("product"))
    }

    // MARK: - Answering

    /// Runs `body` for the request in its language and answers with its JSON, or with the
    /// error as JSON. A cached answer is sent at once; anything else (queries, encoding) runs
    /// as `BlockingWork`.
    /// `cached`: whether the answer depends on the catalog alone (see `ResponseCache`).
    static func answer<T: Encodable>(
        _ request: Request, _ context: BasicRequestContext, _ app: WebApp, cached: Bool = true,
        _ body: @escaping @Sendable (WebRequest, AgroPresentation.Environment) throws -> T
    ) async -> Response {
        await answerJSON(request, context, app, cached: cached) { web, environment in
            try AgroPresentation.Environment.json(try body(web, environment))
        }
    }

    /// `answer` for a body that writes its JSON document itself (as `Environment.json` would).
    static func answerJSON(
        _ request: Request, _ context: BasicRequestContext, _ app: WebApp, cached: Bool = true,
        _ body: @escaping @Sendable (WebRequest, AgroPresentation.Environment) throws -> String
    ) async -> Response {
        let web = WebRequest(request: request, app: app)
        let environment = app.environment(locale: web.locale(cookies: false))
        // No key (a SHA-256 of the query) when nothing is kept.
        let key = cached && app.cache.isOn ? ResponseCache.key(locale: environment.locale, request: request) : nil
        // The catalog the answer is looked up for, and kept for (not a later one swapped in).
        let generation = key.map { _ in app.catalog.currentCatalog }
        if let key, let generation, let hit = app.cache.cached(key, generation: generation) { return json(hit) }
        let outcome = await BlockingWork.run { () -> Result<String, any Error> in
            Result { try body(web, environment) }
        }
        switch outcome {
        case let .success(text):
            if let key, let generation { app.cache.keep(text, for: key, generation: generation) }
            return json(text)
        case let .failure(error):
            return failure(error, app: app, environment: environment)
        }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `error` as the CLI reports it, worded in the request's language.
    static func failure(_ error: any Error, app: WebApp, environment: AgroPresentation.Environment) -> Response {
        failure(APIError(error, strings: environment.strings, wordings: app.wordings))
    }

    static func failure(_ error: APIError) -> Response {
        var response = json((try? AgroPresentation.Environment.json(error)) ?? "{}\n", status: error.status)
        if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    /// A path parameter, percent-decoded.
    static func parameter(_ context: BasicRequestContext, _ name: String) throws -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else {
            throw RequestError.missing(Parameter(rawValue: name) ?? .id)
        }
        return raw.removingPercentEncoding ?? raw
    }

    /// `GET path/:parameter`, the parameter naming an entity of `kind` (id, else name): answers
    /// with `document` of the entity it resolves to.
    static func entity<T: Encodable & SendableMetatype>(
        _ api: RouterGroup<BasicRequestContext>, _ path: String, _ kind: EntityKind, _ app: WebApp,
        parameter: String = "id", document: @escaping @Sendable (EntityID, AgroPresentation.Environment) throws -> T
    ) {
        api.get(RouterPath("\(path)/:\(parameter)")) { request, context in
            await answer(request, context, app) { _, environment in
                try document(try resolve(context, parameter, kind, app, environment), environment)
            }
        }
    }

    /// A path parameter resolved as the CLI resolves its argument: id, else name.
    static func resolve(
        _ context: BasicRequestContext, _ name: String, _ kind: EntityKind, _ app: WebApp,
        _ environment: AgroPresentation.Environment
    ) throws -> EntityID {
        try app.catalog.resolve(try parameter(context, name), kind: kind, locale: environment.locale).id
    }
}
