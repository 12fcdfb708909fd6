import AgroDomain
import AgroPresentation
import AgroWeather
import Foundation
import Hummingbird

/// The web app's pages, rendered on the server from `Assets/web/templates` (Mustache, which
/// HTML-escapes every `{{value}}`). Every page works without JavaScript; `app.js` only adds
/// search as you type and favorites (kept in the browser's local storage by product id).
enum Pages {
    static func register(on router: Router<BasicRequestContext>, app: WebApp) {
        page(router, "/", app) { try search($0) }
        page(router, "products", app) { try products($0) }
        page(router, "product", app, parameter: "id") { try product($0, id: $1) }
        page(router, "cultures", app) { try cultures($0) }
        page(router, "pest", app, parameter: "id") { try pest($0, id: $1) }
        page(router, "scheme", app, parameter: "culture") { try scheme($0, culture: $1) }
        page(router, "regions", app) { try regions($0) }
        router.get("weather") { request, _ in
            let page = PageContext(request: request, app: app)
            return await renderAsync(page) { try await weather(page) }
        }
        page(router, "news", app) { try news($0) }
        page(router, "news", app, parameter: "id") { try newsItem($0, id: $1) }
        page(router, "favorites", app) { Rendered(template: "favorites", title: $0.t("web.favorites"), values: [:]) }
        registerFieldPages(on: router, app: app)
        registerJournalPages(on: router, app: app)
        registerSignIn(on: router, app: app)
        router.get("static/:name") { request, context in
            guard let name = context.parameters.get("name"), let file = app.staticFiles[name] else {
                return Response(status: .notFound)
            }
            if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: [.eTag: file.etag]) }
            return Response(
                status: .ok,
                headers: [.contentType: file.contentType, .eTag: file.etag, .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
        }
    }

    /// One page request: its language (with the cookie the switch sets), strings, query.
    struct PageContext {
        let web: WebRequest
        let app: WebApp
        let environment: AgroPresentation.Environment

        init(request: Request, app: WebApp) {
            web = WebRequest(request: request, app: app)
            self.app = app
            environment = app.environment(locale: web.locale(cookies: true))
        }

        var locale: String { environment.locale }
        var catalog: any SwappableCatalog { app.catalog }
        func t(_ key: String, _ arguments: any CustomStringConvertible...) -> String {
            environment.strings(key, arguments: arguments)
        }
    }

    /// A page's template, title and values, before the layout wraps it.
    struct Rendered {
        var template: String
        var title: String
        var values: [String: Any]
        var status: HTTPResponse.Status = .ok
        /// Seconds for Retry-After, as the page's message says (a refusal by rate).
        var retryAfter: Int?
        /// The body already written: no template to render.
        var body: String? = nil
        /// Where a stored form sends the browser (303 See Other): no page.
        var location: String? = nil

        init(template: String, title: String, values: [String: Any], status: HTTPResponse.Status = .ok) {
            self.template = template
            self.title = title
            self.values = values
            self.status = status
        }

        /// A page whose body was written directly (`UsesBody`), not made from a template.
        init(title: String, body: String) {
            self.init(template: "", title: title, values: [:])
            self.body = body
        }
    }

    /// `GET path`: the page `body` renders.
    static func page(
        _ router: Router<BasicRequestContext>, _ path: String, _ app: WebApp,
        _ body: @escaping @Sendable (PageContext) throws -> Rendered
    ) {
        router.get(RouterPath(path)) { request, _ in render(request, app, body) }
    }

    /// `GET path/:parameter`: the page `body` renders for the parameter's value.
    static func page(
        _ router: Router<BasicRequestContext>, _ path: String, _ app: WebApp, parameter: String,
        _ body: @escaping @Sendable (PageContext, String) throws -> Rendered
    ) {
        router.get(RouterPath("\(path)/:\(parameter)")) { request, context in
            render(request, app) { page in try body(page, try APIRoutes.parameter(context, parameter)) }
        }
    }

    static func render(_ request: Request, _ app: WebApp, _ body: (PageContext) throws -> Rendered) -> Response {
        let page = PageContext(request: request, app: app)
        do {
            return respond(page, try body(page))
        } catch {
            return respond(page, errorPage(page, error))
        }
    }

    /// A page answering a posted form of at most `limit` bytes: the form read, then the page.
    static func posted(
        _ request: Request, _ app: WebApp, limit: Int, _ body: @escaping (PageContext, PostedForm) throws -> Rendered
    ) async -> Response {
        let page = PageContext(request: request, app: app)
        let form: PostedForm
        do {
            form = try await PostedForm(request, limit: limit)
        } catch {
            return respond(page, errorPage(page, error))
        }
        return await renderAsync(page) { try body(page, form) }
    }

    static func renderAsync(_ page: PageContext, _ body: () async throws -> Rendered) async -> Response {
        do {
            return respond(page, try await body())
        } catch {
            return respond(page, errorPage(page, error))
        }
    }

    static func errorPage(_ page: PageContext, _ error: any Error) -> Rendered {
        let failure = APIError(error, strings: page.environment.strings, wordings: page.app.wordings)
        var values: [String: Any] = ["message": failure.error.message]
        let choices = (failure.error.candidates ?? []) + (failure.error.suggestions ?? [])
        if !choices.isEmpty {
            values["choices"] = choices.map { ["id": $0.id, "name": $0.name] }
            values["hasChoices"] = true
        }
        var rendered = Rendered(template: "error", title: page.t("web.problem"), values: values, status: failure.status)
        rendered.retryAfter = failure.retryAfter
        return rendered
    }

    /// The page inside the layout: navigation, language switch, strings.
    static func respond(_ page: PageContext, _ rendered: Rendered) -> Response {
        if let location = rendered.location {
            return Response(status: rendered.status, headers: [.location: location, .contentLength: "0"])
        }
        let strings = Self.strings(page)
        let body =
            rendered.body
            ?? {
                var values = (pruned(rendered.values) as? [String: Any]) ?? [:]
                values["t"] = strings
                values["lang"] = page.locale
                return page.app.templates.render(values, withTemplate: rendered.template) ?? ""
            }()
        let path = page.web.request.uri.path
        let query = page.web.query(leaving: ["lang"])
        let hrefs = WebApp.interfaceLocales.map { code in path + "?" + (query + ["lang=\(code)"]).joined(separator: "&") }
        let html = layout(page, strings: strings).html(title: rendered.title, body: body, hrefs: hrefs)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .contentLanguage: page.locale]
        if let seconds = rendered.retryAfter { headers[.retryAfter] = String(seconds) }
        // The switch's choice is remembered for the next pages (a preference, not a session).
        if let asked = page.web.query("lang"), WebApp.interfaceLocales.contains(LocaleChain.normalize(asked)) {
            headers[.setCookie] = "agro_lang=\(LocaleChain.normalize(asked)); Path=/; Max-Age=31536000; SameSite=Lax"
        }
        return Response(status: rendered.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The layout of the page's catalog and language, made once (`PageFragments`).
    static func layout(_ page: PageContext, strings: [String: String]) -> PageLayout {
        func make() -> PageLayout {
            // In the page's language: `info` holds the title in the catalog's default locale.
            let title =
                (try? page.app.fragments.value(.catalogTitle(locale: page.locale), in: page.catalog) {
                    try $0.catalogInfo(locale: page.locale).title
                }) ?? page.catalog.info.title
            // The language switch's links, less the href each page gives (`respond`).
            let languages = WebApp.interfaceLocales.map { code -> [String: Any] in
                ["code": code, "name": Self.localeNames[code] ?? code, "selected": code == page.locale]
            }
            return PageLayout(
                templates: page.app.templates, strings: strings, locale: page.locale, catalogTitle: title,
                languages: languages, journal: page.app.journal != nil || page.app.farm != nil,
                farm: page.app.farm != nil)
        }
        return (try? page.app.fragments.value(.layout(locale: page.locale), in: page.catalog) { _ in make() }) ?? make()
    }

    /// The values without their empty strings: Mustache takes an empty string for true, so
    /// `{{#expired}}...{{/expired}}` would show for a product that has not expired.
    static func pruned(_ value: Any) -> Any? {
        switch value {
        case let text as String: return text.isEmpty ? nil : text
        case let table as [String: Any]: return table.compactMapValues(pruned)
        case let list as [[String: Any]]: return list.map { $0.compactMapValues(pruned) }
        case let list as [Any]: return list.compactMap(pruned)
        default: return value
        }
    }

    static let localeNames = ["en": "English", "ru": "Русский", "kk": "Қазақша"]

    /// The interface strings the templates use (`{{t.search}}` for `web.search`).
    static let keys = [
        "title", "search", "searchPlaceholder", "products", "cultures", "regions", "weather", "news", "favorites",
        "filter", "all", "culture", "pest", "category", "previous", "next", "noResults", "addFavorite",
        "removeFavorite", "favoritesEmpty", "favoritesNoScript", "scheme", "map", "representatives", "distributors",
        "point", "show", "spray", "language", "problem", "pictures", "letters", "uses", "ingredients", "hazards",
        "links", "stage", "dose", "phi", "applications", "products", "menu", "pageInfo", "pests",
        "water", "interval", "bbch", "area", "compare", "anyCulture", "anyPest", "group", "sort", "tank", "product", "unit",
        "areaHa", "waterRate", "tankSize", "calculate", "plan", "planFile", "planText", "planForm", "sowing", "harvest", "date",
        "check", "parents", "children", "stages", "pestUses", "region", "useLocation", "now", "slotsHelp", "regionKind",
        "cityKind", "expiredOn", "noSprayWindow", "question", "otherPests",
        "navUses", "navPlan", "navTank",
        // Offline and accessibility: the skip link, the saved-copy banner, the offline page, the announced count.
        "skip", "savedCopy", "offlineTitle", "offlineText", "resultsCount", "decide",
        // The field journal's pages (`agro web --journal`).
        "journal", "journalFields", "journalAddField", "journalFieldName", "journalPlace", "journalNoFields",
        "journalWrite", "journalRecordsTitle", "journalPendingTitle", "journalWhen", "journalPests", "journalWater",
        "journalOperator", "journalWeather", "journalNotes", "journalSave", "journalFindings", "journalRevisions",
        "journalHarvest", "journalSource", "journalOpen", "journalSentTitle", "journalNoRecords",
        // A long card's jump list; what saving for offline costs; the search over saved pages.
        "jumpToCrop", "forAllUses", "keptOffline", "offerCompare", "saveCompare", "comparedKept", "offlineSearch",
        "savedSize", "usualPests", "forAllUsesCard",
        // Signing in and out of the farms' journal (`--farm-journal`).
        "navAccount",
    ]

    /// The interface strings of the page's language as the templates see them (`t`), made once
    /// per language (`PageFragments`): a hundred look-ups through the language chain per page
    /// otherwise.
    static func strings(_ page: PageContext) -> [String: String] {
        func table() -> [String: String] {
            var table: [String: String] = [:]
            for key in keys { table[key] = page.t("web." + key) }
            table["dateNumeric"] = page.t("date.numeric")  // the dates the page's script writes
            table["kilobytes"] = page.t("size.kb")  // the sizes saved for offline use
            table["megabytes"] = page.t("size.mb")
            return table
        }
        return (try? page.app.fragments.value(.interfaceStrings(locale: page.locale), in: page.catalog) { _ in table() })
            ?? table()
    }

    static func percent(_ text: String) -> String { WebRequest.encoded(text) }

    /// Links to the previous and next pages, the other parameters kept.
    static func pagination<Item>(_ result: Page<Item>, _ page: PageContext, path: String) -> [String: Any] {
        let links = pageLinks(result, page, path: path)
        var values: [String: Any] = ["info": links.info]
        if let previous = links.previous { values["previous"] = previous }
        if let next = links.next { values["next"] = next }
        return values
    }

    /// What the pagination shows: "page 2 of 5" and the links, as `pagination.mustache` reads them.
    struct PageLinks {
        let info: String
        let previous: String?
        let next: String?
    }

    static func pageLinks<Item>(_ result: Page<Item>, _ page: PageContext, path: String) -> PageLinks {
        // Not lang: the cookie keeps a chosen language, and an unknown one is not echoed.
        let query = page.web.query(leaving: ["page", "lang"])
        func link(_ number: Int) -> String { path + "?" + (query + ["page=\(number)"]).joined(separator: "&") }
        return PageLinks(
            info: page.environment.strings.plural("list.footer", result.total, result.page, result.pageCount),
            previous: result.page > 1 ? link(min(result.page - 1, result.pageCount)) : nil,
            next: result.page < result.pageCount ? link(result.page + 1) : nil)
    }

    // MARK: - Pages

    static func href(_ kind: EntityKind, _ id: String) -> String {
        let id = percent(id)
        switch kind {
        case .product: return "/product/\(id)"
        case .pest: return "/pest/\(id)"
        case .culture: return "/culture/\(id)"
        case .substance: return "/substance/\(id)"
        case .news: return "/news/\(id)"
        case .region: return "/regions?region=\(id)#contacts"
        case .company: return "/products?company=\(id)"
        }
    }

    static func search(_ page: PageContext) throws -> Rendered {
        var values: [String: Any] = [:]
        if let text = page.web.query("q") {
            values["q"] = text
            let result: Page<SearchHit>
            do {
                result = try page.catalog.search(text, kinds: nil, page: try page.web.page(), locale: page.locale)
            } catch let error as SearchQueryError {
                // Too many words: the form stays with what was typed, the limit said beside it
                // (a 400 still, which search as you type leaves alone).
                let message = APIError(error, strings: page.environment.strings, wordings: page.app.wordings).error.message
                values["qError"] = ["id": "q-error", "message": message]
                return Rendered(template: "search", title: page.t("web.search"), values: values, status: .badRequest)
            }
            let expiries = try self.expiries(result.items.filter { $0.kind == .product }.map(\.id), page)
            values["hits"] = result.items.map { hit -> [String: Any] in
                var detail = hit.detail ?? ""
                if hit.kind == .product, let category = ProductCategory(rawValue: detail) {
                    detail = page.environment.name(of: category)
                } else if hit.kind == .news {
                    detail = date(String(detail.prefix(10)), page)
                }
                return [
                    "href": href(hit.kind, hit.id), "name": hit.name, "kind": page.environment.name(of: hit.kind),
                    "detail": detail,
                    "expired": hit.kind == .product ? expiredMark(expiries[hit.id], page) : "",
                ]
            }
            values["empty"] = result.total == 0
            values["total"] = result.total
            values["pages"] = pagination(result, page, path: "/")
        } else {
            // The first screen asks the question the app is for: which product against this
            // pest on this crop (the uses page), with pickers rather than a word to search.
            values["landing"] = true
            values["cultures"] = try culturePicker(page, selected: nil).picker
            values["pests"] = try pestPicker(page, culture: nil, selected: nil).picker
        }
        return Rendered(template: "search", title: page.t("web.search"), values: values)
    }

    static func products(_ page: PageContext) throws -> Rendered {
        let web = page.web
        let filter = try CatalogDocuments.productFilter(
            pest: web.query("pest"), culture: web.query("culture"), substance: web.query("substance"),
            category: web.query("category"), company: web.query("company"), letter: web.query("letter"),
            catalog: page.catalog, environment: page.environment)
        var withoutLetter = filter
        withoutLetter.letter = nil
        let letters = try CatalogDocuments.letters(withoutLetter, catalog: page.catalog, environment: page.environment)
        let result = try page.catalog.products(filter, page: try web.page(), locale: page.locale)
        let others = web.query(leaving: ["letter", "page", "lang"])
        let values: [String: Any] = [
            "cultures": try culturePicker(page, selected: filter.culture).picker,
            "pests": try pestPicker(page, culture: filter.culture, selected: filter.pest).picker,
            // Filters the form has no field for are kept as they came.
            "kept": web.parameters.filter { ["substance", "company", "letter"].contains($0.name) && !$0.value.isEmpty }
                .map { ["name": $0.name, "value": $0.value] },
            "categories": ProductCategory.allCases.map { category -> [String: Any] in
                ["code": category.rawValue, "name": page.environment.name(of: category), "selected": filter.category == category]
            },
            "letters": letters.map { letter -> [String: Any] in
                [
                    "letter": letter.name, "selected": filter.letter == letter.name,
                    "href": "/products?" + (others + ["letter=\(percent(letter.name))"]).joined(separator: "&"),
                ]
            },
            "items": result.items.map { productItem($0, page) },
            "empty": result.total == 0,
            "pages": pagination(result, page, path: "/products"),
        ]
        return Rendered(template: "products", title: page.t("web.products"), values: values)
    }

    static func product(_ page: PageContext, id text: String) throws -> Rendered {
        let id = try page.catalog.resolve(text, kind: .product, locale: page.locale).id
        let document = try CatalogDocuments.product(id: id, catalog: page.catalog, environment: page.environment)
        let product = document.product, environment = page.environment
        let expired = expiredMark(product.registrationExpiry, page)
        var facts: [[String: String]] = [
            ["label": page.t("field.category"), "value": environment.name(of: product.category)]
        ]
        if let formulation = product.formulation {
            facts.append(["label": page.t("field.formulation"), "value": environment.formulation(formulation)])
        }
        if let company = product.company { facts.append(["label": page.t("field.company"), "value": company.name]) }
        if let number = product.registrationNumber { facts.append(["label": page.t("field.registration"), "value": number]) }
        if let expiry = product.registrationExpiry {
            facts.append(["label": page.t("field.expires"), "value": expired.isEmpty ? date(expiry, page) : expired])
        }
        // A withdrawn registration (the Swiss register's): sale and use until these days.
        if product.origin != .registered {
            facts.append(["label": page.t("origin.\(product.origin.rawValue)"), "value": product.originalProduct?.name ?? ""])
        }
        if let day = product.soldOutDeadline { facts.append(["label": page.t("field.soldOut"), "value": date(day, page)]) }
        if let day = product.exhaustionDeadline { facts.append(["label": page.t("field.exhaustion"), "value": date(day, page)]) }
        // Uses grouped by their cultures, the cultures linked once in the group's heading.
        let (groups, shared) = cardGroups(document.uses, page)
        let crops = Set(document.uses.flatMap { $0.cultures.map(\.id) }).count
        // Alternatives cost a query of their own (tens of milliseconds on a national register):
        // the card links to itself with them rather than computing them for every reader.
        let showAlternatives = page.web.flag("alternatives")
        let alternatives =
            showAlternatives ? try page.catalog.alternatives(to: id, culture: nil, pest: nil, locale: page.locale) : []
        let values: [String: Any] = [
            "id": product.id, "name": product.name, "facts": facts, "expired": expired,
            "ingredients": product.ingredients.map { ingredient -> [String: String] in
                [
                    "label": environment.label([ingredient]), "moa": ingredient.modeOfAction?.label ?? "",
                    "href": href(.substance, ingredient.substance.id),
                ]
            },
            "hasHazard": !product.hazard.isEmpty,
            "hasIngredients": !product.ingredients.isEmpty, "hasLinks": !product.links.isEmpty,
            "pictograms": environment.pictograms(product.hazard.pictograms).joined(separator: ", "),
            "signalWord": product.hazard.signalWord ?? "",
            "statements": (product.hazard.hazardStatements + product.hazard.precautionaryStatements).map {
                "\($0.code) \($0.text)"
            },
            "useGroups": groups, "jump": groups.count > 1, "cardShared": shared,
            "usesTitle": page.t("section.uses", document.uses.count),
            // The first screen says how long the card is: so many uses on so many crops.
            "usesSummary": document.uses.isEmpty
                ? ""
                : page.t(
                    "web.cardUsesSummary", page.environment.strings.plural("web.cardUses", document.uses.count),
                    page.environment.strings.plural("web.cardCrops", crops)),
            "alternativesTitle": page.t("alternatives.title", product.name), "showAlternatives": showAlternatives,
            "alternativesHref": "/product/\(percent(id))?alternatives=1#alternatives",
            "alternatives": alternatives.prefix(30).map { other -> [String: String] in
                [
                    "name": other.name, "href": href(.product, other.id),
                    "relation": page.t("relation.\(other.relation.rawValue)"),
                    "groups": other.groups.joined(separator: ", "),
                ]
            },
            "sections": product.sections.map { ["title": $0.title, "body": $0.body] },
            "links": product.links.compactMap { link -> [String: String]? in
                guard let url = HTMLSanitizer.safeURL(link.url, base: nil, allowMail: false) else { return nil }
                return ["label": link.title ?? page.t("link.\(link.kind.rawValue)"), "url": url]
            },
        ]
        return Rendered(template: "product", title: product.name, values: values)
    }

    static func cultures(_ page: PageContext) throws -> Rendered {
        let rows = CatalogDocuments.cultureTree(try page.catalog.cultures(locale: page.locale))
        let withSchemes = Set(try page.catalog.culturesWithSchemes(locale: page.locale).map(\.id))
        var schemes: [EntityID: String] = [:]
        for id in Set(rows.map(\.id)) { schemes[id] = try schemeLink(id, withSchemes: withSchemes, page) }
        let values: [String: Any] = [
            "rows": rows.map { row -> [String: Any] in
                ["name": row.name, "depth": min(row.depth, 6), "href": href(.culture, row.id), "scheme": schemes[row.id] ?? ""]
            }
        ]
        return Rendered(template: "cultures", title: page.t("web.cultures"), values: values)
    }

    static func pest(_ page: PageContext, id text: String) throws -> Rendered {
        let id = try page.catalog.resolve(text, kind: .pest, locale: page.locale).id
        let culture = try page.environment.resolve(page.web.query("culture"), .culture, in: page.catalog)
        let document = try CatalogDocuments.pest(id: id, cultureID: culture, catalog: page.catalog, environment: page.environment)
        let pest = document.pest
        let expiries = try self.expiries(document.uses.map(\.product.id), page)
        // The cultures its uses name, to compare the uses on one of them.
        var cultures: [EntityRef] = []
        for use in try page.catalog.uses(UseFilter(pest: id), locale: page.locale) {
            for culture in use.cultures where !cultures.contains(where: { $0.id == culture.id }) { cultures.append(culture) }
        }
        let values: [String: Any] = [
            "id": pest.id, "name": pest.name, "latin": pest.latinName ?? "", "kind": page.environment.name(of: pest.kind),
            "eppo": pest.eppoCode ?? "", "eppoLabel": page.t("field.eppo"),
            "description": pest.description ?? "", "hasImages": !pest.images.isEmpty,
            "images": pest.images.compactMap { link -> [String: String]? in
                guard let url = HTMLSanitizer.safeURL(link.url, base: nil, allowMail: false) else { return nil }
                return ["url": url, "label": link.title ?? page.t("link.image")]
            },
            "hasCultures": !cultures.isEmpty,
            "cultures": cultures.sorted { NameOrder.namePrecedes($0.name, $1.name) }
                .map { ["id": $0.id, "name": $0.name, "selected": $0.id == culture] },
            "usesTitle": page.t("section.productsAgainst", Set(document.uses.map(\.product.id)).count),
            // One entry per product with its uses under it: a product registered on four cultures
            // is named once, not four times down a phone's screen, and the heading counts entries.
            "products": groupedByProduct(document.uses).map { uses -> [String: Any] in
                let product = uses[0].product
                return [
                    "product": product.name, "href": href(.product, product.id),
                    "expired": expiredMark(expiries[product.id], page), "uses": uses.map { useEntry($0, page) },
                ]
            },
        ]
        return Rendered(template: "pest", title: pest.name, values: values)
    }

    /// `uses` in runs of one product each, products in the order they first appear.
    static func groupedByProduct(_ uses: [Use]) -> [[Use]] {
        var order: [String: Int] = [:]
        var groups: [[Use]] = []
        for use in uses {
            if let index = order[use.product.id] {
                groups[index].append(use)
            } else {
                order[use.product.id] = groups.count
                groups.append([use])
            }
        }
        return groups
    }

    static func scheme(_ page: PageContext, culture: String) throws -> Rendered {
        let stage = try page.web.integer("stage", minimum: 0, maximum: 99)
        let schemes = try CatalogDocuments.schemes(
            culture: culture, stage: stage, catalog: page.catalog, environment: page.environment)
        let values: [String: Any] = [
            "schemes": schemes.map { scheme -> [String: Any] in
                [
                    "heading": page.environment.heading(of: scheme), "description": scheme.description ?? "",
                    "timeline": Timeline(scheme: scheme, marker: stage, strings: page.environment.strings).values,
                    "stages": scheme.stages.enumerated().map { index, stage -> [String: Any] in
                        [
                            "number": index + 1, "name": stage.name, "bbch": page.environment.strings.label(stage.bbch),
                            "treatments": stage.treatments.map { treatment -> [String: Any] in
                                [
                                    "product": treatment.product.name, "href": href(.product, treatment.product.id),
                                    "dose": treatment.dose.isEmpty ? "" : page.environment.label(treatment.dose),
                                    "pests": treatment.pests.map(\.name).joined(separator: ", "), "note": treatment.note ?? "",
                                ]
                            },
                        ]
                    },
                ]
            }
        ]
        return Rendered(template: "scheme", title: page.t("web.scheme"), values: values)
    }

    static func regions(_ page: PageContext) throws -> Rendered {
        let regions = try page.catalog.regions(locale: page.locale)
        var values: [String: Any] = ["map": RegionMap(regions: regions).values]
        values["regions"] = regions.enumerated().map { index, region -> [String: Any] in
            ["name": region.name, "href": href(.region, region.id), "number": index + 1, "city": region.kind == .city]
        }
        if let asked = page.web.query("region") {
            let id = try page.catalog.resolve(asked, kind: .region, locale: page.locale).id
            let contacts = try CatalogDocuments.contacts(regionID: id, catalog: page.catalog, environment: page.environment)
            values["contacts"] =
                [
                    "name": contacts.region.name, "centre": contacts.region.centreName ?? "",
                    "representatives": contacts.representatives.map { person -> [String: String] in
                        [
                            "name": person.name, "position": person.position ?? "", "phone": person.phone ?? "",
                            "tel": person.phone.map(telephone) ?? "", "email": person.email ?? "",
                            "mailto": person.email.map { "mailto:" + $0.filter { !$0.isWhitespace } } ?? "",
                        ]
                    },
                    "distributors": contacts.distributors.map { company -> [String: String] in
                        [
                            "name": company.name, "address": company.address ?? "", "phone": company.phone ?? "",
                            "tel": company.phone.map(telephone) ?? "", "email": company.email ?? "",
                            "mailto": company.email.map { "mailto:" + $0.filter { !$0.isWhitespace } } ?? "",
                            "website": company.website.flatMap { HTMLSanitizer.safeURL($0, base: nil, allowMail: false) } ?? "",
                        ]
                    },
                ] as [String: Any]
        }
        return Rendered(template: "regions", title: page.t("web.regions"), values: values)
    }

    /// A `tel:` URL: the number's digits and a leading plus only.
    static func telephone(_ phone: String) -> String {
        "tel:"
            + phone.enumerated().filter { $0.element.isASCII && ($0.element.isNumber || ($0.element == "+" && $0.offset == 0)) }
            .map { String($0.element) }.joined()
    }

    static func news(_ page: PageContext) throws -> Rendered {
        let items = try APIRoutes.news(page.web, page.environment, page.app)
        let result = Page(slicing: items, try page.web.page())
        let values: [String: Any] = [
            "items": result.items.map {
                ["href": href(.news, $0.id), "name": $0.name, "date": date(String($0.date.prefix(10)), page)]
            },
            "empty": result.total == 0, "pages": pagination(result, page, path: "/news"),
        ]
        return Rendered(template: "news", title: page.t("web.news"), values: values)
    }

    static func newsItem(_ page: PageContext, id: String) throws -> Rendered {
        let document = try APIRoutes.newsItem(id: id, page.environment, page.app)
        let values: [String: Any] = [
            "title": document.item.title, "date": date(String(document.item.date.prefix(10)), page),
            // Sanitized by HTMLSanitizer: the one value a template writes unescaped.
            "safeHTML": document.item.bodyHTML,
            "source": document.item.source.flatMap { HTMLSanitizer.safeURL($0, base: nil, allowMail: false) } ?? "",
        ]
        return Rendered(template: "newsItem", title: document.item.title, values: values)
    }
}
