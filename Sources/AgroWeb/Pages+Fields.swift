import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird
import Mustache

/// The pages an agronomist decides with: a use written out in full, the uses against a pest on
/// a culture side by side, culture and substance cards, a season plan checked, a tank filled.
/// Every value comes from the document the CLI prints (`CatalogDocuments`), worded with the
/// interface strings of the page's language.
extension Pages {
    static func registerFieldPages(on router: Router<BasicRequestContext>, app: WebApp) {
        page(router, "uses", app) { try uses($0) }
        page(router, "culture", app, parameter: "id") { try culture($0, id: $1) }
        page(router, "substance", app, parameter: "id") { try substance($0, id: $1) }
        page(router, "tank", app) { try tank($0) }
        // A link of the page's own (a name chosen among several) fills the form again and
        // checks it; the bare page is the empty form.
        page(router, "plan", app) { try plan($0, form: PostedForm(linkOf: $0.web)) }
        router.post("plan") { request, _ in
            await posted(request, app, limit: CatalogDocuments.maximumPlanBytes) { try plan($0, form: $1) }
        }
    }

    // MARK: - A use, written out

    /// The expired mark for a registration ending on `expiry`, or "" while it runs.
    static func expiredMark(_ expiry: String?, _ page: PageContext) -> String {
        guard let expiry, expiry < page.environment.today else { return "" }
        return page.t("web.expiredOn", date(expiry, page))
    }

    /// A calendar date as the page's language writes it (`Localizer.date`).
    static func date(_ iso: String, _ page: PageContext) -> String { page.environment.strings.date(iso) }

    /// A use's facts, each with its label, in the order the label prints them: dose, water,
    /// pre-harvest interval, applications, interval, growth stages, area. A range's value is
    /// marked `keep` so that the page never breaks it across lines (the applications are words,
    /// "up to 2 per season", which a narrow screen must be free to wrap).
    static func useFacts(
        dose: Dose, water: Dose, phiDays: Int?, maxApplications: Int?, intervalDays: Int?, bbch: BBCHRange?,
        applicationArea: String?,
        _ page: PageContext
    ) -> [[String: Any]] {
        let s = page.environment.strings
        var facts: [[String: Any]] = []
        func add(_ label: String, _ value: String, keep: Bool) {
            facts.append(["label": page.t(label), "value": value, "keep": keep])
        }
        if !dose.isEmpty { add("web.dose", s.label(dose), keep: true) }
        if !water.isEmpty { add("web.water", s.label(water), keep: true) }
        if let phiDays { add("web.phi", s.plural("use.days", phiDays), keep: true) }
        if let maxApplications { add("web.applications", s("web.atMost", maxApplications), keep: false) }
        if let intervalDays { add("web.interval", s.plural("use.days", intervalDays), keep: true) }
        if let bbch { add("web.bbch", stages(bbch, s), keep: true) }
        if let applicationArea { add("web.area", applicationArea, keep: false) }
        return facts
    }

    /// "13–32" (the language's range sign) or "30": a BBCH window.
    static func stages(_ bbch: BBCHRange, _ s: Localizer) -> String { s.stages(bbch) }

    /// A use of the catalog for the templates: its facts, cultures and pests, linked.
    static func useEntry(_ use: Use, _ page: PageContext) -> [String: Any] {
        [
            "facts": useFacts(
                dose: use.dose, water: use.water, phiDays: use.phiDays, maxApplications: use.maxApplications,
                intervalDays: use.intervalDays, bbch: use.bbch, applicationArea: use.applicationArea, page),
            "cultures": use.cultures.map { ["name": $0.name, "href": href(.culture, $0.id)] },
            "pests": use.pests.map { pest -> [String: String] in
                let effect = pest.effect == .full ? "" : page.t("effect.\(pest.effect.rawValue)")
                return ["name": pest.pest.name, "href": href(.pest, pest.pest.id), "effect": effect]
            },
            "notes": use.notes ?? "", "obligations": use.obligations,
        ]
    }

    /// The registration expiry of each product named, read once each.
    static func expiries(_ ids: [EntityID], _ page: PageContext) throws -> [EntityID: String] {
        var found: [EntityID: String] = [:]
        for id in Set(ids) {
            if let expiry = try page.catalog.product(id: id, locale: page.locale)?.registrationExpiry { found[id] = expiry }
        }
        return found
    }

    // MARK: - Pickers

    /// The catalog's cultures for a `<select>`, by name in the page's language, `selected` marked:
    /// a section lambda over the choices kept per catalog and locale (`PageFragments`).
    static func culturePicker(
        _ page: PageContext, selected: EntityID?
    ) throws -> (picker: MustacheLambda, selectedName: String?) {
        try choicesNamingSelected(page, .cultures(locale: page.locale), selected: selected) { catalog in
            try pickerCultures(catalog, locale: page.locale)
        }
    }

    /// The catalog's cultures by name in `locale`: a culture picker's choices.
    static func pickerCultures(_ catalog: any OpenCatalog, locale: String) throws -> [(id: EntityID, name: String)] {
        try catalog.cultures(locale: locale).sorted { NameOrder.namePrecedes($0.name, $1.name) }.map { ($0.id, $0.name) }
    }

    /// The pests with uses on `culture` and its groups (every pest without one) by name in
    /// `locale`: a pest picker's choices.
    static func pickerPests(
        _ catalog: any OpenCatalog, culture: EntityID?, locale: String
    ) throws -> [(id: EntityID, name: String)] {
        try catalog.pests(PestFilter(culture: culture), page: .all, locale: locale).items
            .sorted { NameOrder.namePrecedes($0.name, $1.name) }.map { ($0.id, $0.name) }
    }

    /// The pests with uses on `culture`, a group above it or one of its members (the cultures
    /// below it), by name, and every other pest, by name: the uses page offers the first first.
    static func pickerPestsOfMembers(
        _ catalog: any OpenCatalog, culture: EntityID, locale: String
    ) throws -> (registered: [(id: EntityID, name: String)], others: [(id: EntityID, name: String)]) {
        var cultures = [culture], seen: Set<EntityID> = [culture], next = 0
        while next < cultures.count {
            for child in try catalog.culture(id: cultures[next], locale: locale)?.children ?? []
            where seen.insert(child.id).inserted {
                cultures.append(child.id)
            }
            next += 1
        }
        var registered: Set<EntityID> = []
        for member in cultures {
            for pest in try catalog.pests(PestFilter(culture: member), page: .all, locale: locale).items {
                registered.insert(pest.id)
            }
        }
        let all = try catalog.pests(PestFilter(), page: .all, locale: locale).items
            .sorted { $0.name != $1.name ? NameOrder.namePrecedes($0.name, $1.name) : $0.id < $1.id }
            .map { (id: $0.id, name: $0.name) }
        return (all.filter { registered.contains($0.id) }, all.filter { !registered.contains($0.id) })
    }

    /// The pests (on `culture` and its groups when given) for a `<select>`, by name.
    static func pestPicker(
        _ page: PageContext, culture: EntityID?, selected: EntityID?
    ) throws -> (picker: MustacheLambda, selectedName: String?) {
        try choicesNamingSelected(page, .pests(locale: page.locale, culture: culture), selected: selected) { catalog in
            try pickerPests(catalog, culture: culture, locale: page.locale)
        }
    }

    /// Every product, in the catalog's order, for a `<datalist>`.
    static func productChoices(_ page: PageContext) throws -> MustacheLambda {
        try choices(page, .products(locale: page.locale), selected: nil) { catalog in
            try catalog.products(ProductFilter(), page: .all, locale: page.locale).items.map { ($0.id, $0.name) }
        }
    }

    /// Every pest, in the catalog's order, for a `<datalist>`.
    static func pestChoices(_ page: PageContext) throws -> MustacheLambda {
        try choices(page, .allPests(locale: page.locale), selected: nil) { catalog in
            try catalog.pests(PestFilter(), page: .all, locale: page.locale).items.map { ($0.id, $0.name) }
        }
    }

    private static func choices(
        _ page: PageContext, _ list: PageFragments.Key, selected: EntityID?,
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> MustacheLambda {
        try choicesNamingSelected(page, list, selected: selected, read: read).picker
    }

    private static func choicesNamingSelected(
        _ page: PageContext, _ list: PageFragments.Key, selected: EntityID?,
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> (picker: MustacheLambda, selectedName: String?) {
        try page.app.fragments.choicesNamingSelected(
            list, in: page.catalog, selected: selected, strings: strings(page), read: read)
    }

    /// Where the culture's protection scheme is: its own, else the nearest group's above it;
    /// nil when neither has one (no link to an error page).
    static func schemeLink(_ culture: EntityID, withSchemes: Set<EntityID>, _ page: PageContext) throws -> String? {
        try page.catalog.cultureAncestry(id: culture).first(where: withSchemes.contains).map { "/scheme/" + percent($0) }
    }

    // MARK: - Uses against a pest on a culture

    static func uses(_ page: PageContext) throws -> Rendered {
        let web = page.web
        let cultureID = try page.environment.resolve(web.query("culture"), .culture, in: page.catalog)
        let pestID = try page.environment.resolve(web.query("pest"), .pest, in: page.catalog)
        let sort = web.query("sort") ?? "name", group = web.query("group")
        let labels = strings(page)
        // The pickers name the selected pest and culture for the title (no read of their own).
        let cultures = try renderedChoices(page, .cultures(locale: page.locale), labels: labels) { catalog in
            try pickerCultures(catalog, locale: page.locale)
        }
        // With a culture, the pests registered on it (its groups, its members) first, then the rest.
        let pests: RenderedChoices
        var otherPests: RenderedChoices? = nil
        if let cultureID {
            pests = try renderedChoices(
                page, .pestsOfMembers(locale: page.locale, culture: cultureID, registered: true), labels: labels
            ) { catalog in try pickerPestsOfMembers(catalog, culture: cultureID, locale: page.locale).registered }
            otherPests = try renderedChoices(
                page, .pestsOfMembers(locale: page.locale, culture: cultureID, registered: false), labels: labels
            ) { catalog in try pickerPestsOfMembers(catalog, culture: cultureID, locale: page.locale).others }
        } else {
            pests = try renderedChoices(page, .pests(locale: page.locale, culture: nil), labels: labels) { catalog in
                try pickerPests(catalog, culture: nil, locale: page.locale)
            }
        }
        var body = UsesBody(
            cultures: .init(choices: cultures, selected: cultureID), pests: .init(choices: pests, selected: pestID),
            stage: web.query("stage") ?? "",
            sorts: UseSort.allCases.map { order in
                (order.rawValue, page.t("web.sort.\(order.rawValue)"), order.rawValue == sort)
            })
        if let otherPests {
            body.otherPests = otherPests
            body.pestsOn = page.t("web.pestsOn", cultures.name(of: cultureID ?? "") ?? cultureID ?? "")
        }
        var title = page.t("web.compare")
        guard cultureID != nil || pestID != nil else {
            return Rendered(title: title, body: body.html(labels))
        }
        let query = try CatalogDocuments.useQuery(
            pest: pestID, culture: cultureID, stage: try web.integer("stage", minimum: 0, maximum: 99),
            substance: web.query("substance"),
            group: group, sort: sort, catalog: page.catalog, environment: page.environment)
        // The groups the unfiltered rows carry, offered as the filter's choices, from the same
        // catalog as the rows.
        let request = try web.page()
        let (result, groups) = try page.catalog.readCurrent { catalog in
            (try catalog.compareUses(query, page: request, locale: page.locale), try catalog.groupsOffered(for: query))
        }
        body.groups = groups.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.map { code in
            (code, GroupCode(parsing: code) == query.group)
        }
        // The culture read once: its name for the title and the headings, its members for the sentence.
        let culture = try cultureID.flatMap { try page.catalog.culture(id: $0, locale: page.locale) }
        let cultureName = cultureID.flatMap(cultures.name(of:)) ?? culture?.name
        // Rows written directly, not through Mustache: the uses page's p99 57.8 ms against 256 (Benchmarks/web/README.md).
        body.rows = useRowsHTML(result.items, page, labels: labels, culture: cultureName)
        // A group or a culture with sub-crops: its members' uses are listed too, and the page says so.
        if let culture, !culture.children.isEmpty {
            body.members = page.t(
                "web.usesOfMembers", culture.name, culture.children.map(\.name).joined(separator: ", "))
        }
        body.empty = result.total == 0
        // Nothing found: the form stays open to change the question.
        body.asked = !body.empty
        body.pages = pageLinks(result, page, path: "/uses")
        // A pest with no use on the culture is in the other pests, or read then.
        let pestName =
            try pestID.flatMap { pests.name(of: $0) ?? otherPests?.name(of: $0) }
            ?? pestID.flatMap { try page.catalog.pest(id: $0, locale: page.locale)?.name }
        switch (pestName, cultureName) {
        case let (pest?, culture?): title = page.t("web.usesAgainstOn", pest, culture)
        case let (pest?, nil): title = page.t("web.usesAgainst", pest)
        case let (nil, culture?): title = page.t("web.usesOn", culture)
        default: break
        }
        body.heading = title
        return Rendered(title: title, body: body.html(labels))
    }

    /// The choices of a picker the page writes directly (`UsesBody`), kept per catalog and
    /// locale rendered with the template's section (`PageFragments.renderedChoices`).
    private static func renderedChoices(
        _ page: PageContext, _ list: PageFragments.Key, labels: [String: String],
        read: (any OpenCatalog) throws -> [(id: EntityID, name: String)]
    ) throws -> RenderedChoices {
        try page.app.fragments.renderedChoices(
            list, in: page.catalog, template: UsesBody.optionTemplate, strings: labels, read: read)
    }

    // MARK: - Culture and substance cards

    static func culture(_ page: PageContext, id text: String) throws -> Rendered {
        let id = try page.catalog.resolve(text, kind: .culture, locale: page.locale).id
        let document = try CatalogDocuments.culture(id: id, catalog: page.catalog, environment: page.environment)
        let culture = document.culture
        let withSchemes = Set(try page.catalog.culturesWithSchemes(locale: page.locale).map(\.id))
        var values: [String: Any] = [
            "name": culture.name, "latin": culture.latinName ?? "", "description": culture.description ?? "",
            "eppo": culture.eppoCode ?? "", "eppoLabel": page.t("field.eppo"),
            "hasParents": !culture.parents.isEmpty, "hasChildren": !culture.children.isEmpty,
            "hasStages": !culture.growthStages.isEmpty,
            "parents": culture.parents.map { ["name": $0.name, "href": href(.culture, $0.id)] },
            "children": culture.children.map { ["name": $0.name, "href": href(.culture, $0.id)] },
            "stages": culture.growthStages.map { ["bbch": stages($0.bbch, page.environment.strings), "name": $0.name] },
            "pests": document.pests.map { pest -> [String: String] in
                [
                    "name": pest.name, "href": "/uses?culture=\(percent(id))&pest=\(percent(pest.id))",
                    "kind": page.environment.name(of: pest.kind),
                ]
            },
            "products": document.products.map { productItem($0, page) },
            "productsTitle": page.t("section.products", document.products.count),
            "pestsTitle": page.t("section.pests", document.pests.count),
            "usesHref": "/uses?culture=\(percent(id))",
        ]
        if let scheme = try schemeLink(id, withSchemes: withSchemes, page) { values["scheme"] = scheme }
        return Rendered(template: "culture", title: culture.name, values: values)
    }

    static func substance(_ page: PageContext, id text: String) throws -> Rendered {
        let id = try page.catalog.resolve(text, kind: .substance, locale: page.locale).id
        let document = try CatalogDocuments.substance(id: id, catalog: page.catalog, environment: page.environment)
        let substance = document.substance
        var facts: [[String: String]] = []
        if let moa = substance.modeOfAction { facts.append(["label": page.t("field.moa"), "value": moa.label]) }
        if let cas = substance.casNumber { facts.append(["label": page.t("field.cas"), "value": cas]) }
        if let iupac = substance.iupacName { facts.append(["label": page.t("field.iupac"), "value": iupac]) }
        let values: [String: Any] = [
            "name": substance.name, "description": substance.description ?? "", "facts": facts,
            "products": document.products.map { productItem($0, page) },
            "productsTitle": page.t("section.products", document.products.count),
        ]
        return Rendered(template: "substance", title: substance.name, values: values)
    }

    /// A product in a list: name, category, ingredients, registration, the expired mark.
    static func productItem(_ product: ProductSummary, _ page: PageContext) -> [String: Any] {
        [
            "href": href(.product, product.id), "name": product.name, "category": page.environment.name(of: product.category),
            "ingredients": page.environment.label(product.ingredients), "registration": product.registrationNumber ?? "",
            "expired": expiredMark(product.registrationExpiry, page),
        ]
    }

    // MARK: - The tank

    static func tank(_ page: PageContext) throws -> Rendered {
        let web = page.web
        let products = web.queries("product"), doses = web.queries("dose"), units = web.queries("unit")
        let count = max(3, products.count)
        func item(_ list: [String], _ index: Int) -> String { index < list.count ? list[index] : "" }
        func unit(_ index: Int) -> String { item(units, index).nonEmpty ?? "l/ha" }
        var problems = FieldProblems()
        var result: [String: Any]?
        if products.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            // The rows and numbers checked here, each problem beside its field in the page's
            // words: the tank's own checks (`CatalogDocuments.tank`) name the CLI's options.
            let words = FormWords(page: page)
            // A link filling the form again with product `row` chosen.
            func choosing(_ row: Int, _ id: EntityID) -> String {
                var pairs: [(String, String)] = []
                for index in 0..<count {
                    pairs += [
                        ("product", index == row ? id : item(products, index)), ("dose", item(doses, index)),
                        ("unit", unit(index)),
                    ]
                }
                for name in ["area", "water", "tank"] { pairs.append((name, web.query(name) ?? "")) }
                return "/tank?" + formQuery(pairs)
            }
            var chosen: [(row: Int, id: EntityID, dose: Double, unit: String)] = []
            for (index, name) in products.enumerated() where !name.trimmingCharacters(in: .whitespaces).isEmpty {
                let place = page.t("web.product") + " " + String(index + 1)
                let id = try words.resolve(
                    name, .product, field: "f-product\(index + 1)", label: page.t("web.product"), place: place,
                    into: &problems
                ) { choosing(index, $0) }
                let dose = words.positive(
                    item(doses, index), field: "f-dose\(index + 1)", label: page.t("web.dose"), place: place, into: &problems)
                if let id, let dose { chosen.append((index + 1, id, dose, unit(index))) }
            }
            let area = words.positive(web.query("area"), field: "f-area", label: page.t("web.areaHa"), into: &problems)
            let water = words.positive(web.query("water"), field: "f-water", label: page.t("web.waterRate"), into: &problems)
            let tank = words.positive(web.query("tank"), field: "f-tank", label: page.t("web.tankSize"), into: &problems)
            if problems.isEmpty, let area, let water, let tank {
                do {
                    let document = try CatalogDocuments.tank(
                        products: chosen.map(\.id), doses: chosen.map(\.dose), units: chosen.map(\.unit), area: area,
                        water: water, tank: tank, culture: nil, catalog: page.catalog, environment: page.environment)
                    result = tankResult(document, page)
                } catch let error as TankError {
                    try tankProblem(error, rows: chosen.map { ($0.row, $0.id) }, page, into: &problems)
                }
            }
        }
        // Three rows to fill without JavaScript; what was typed is kept in them.
        let rows = (0..<count).map { index -> [String: Any] in
            var row: [String: Any] = [
                "index": index + 1, "product": item(products, index), "dose": item(doses, index),
                "units": TankForm.units.map { ["code": $0, "name": unitName($0, page), "selected": $0 == unit(index)] },
            ]
            row["productError"] = problems.value("f-product\(index + 1)")
            row["doseError"] = problems.value("f-dose\(index + 1)")
            return row
        }
        var values: [String: Any] = [
            "rows": rows, "area": web.query("area") ?? "", "water": web.query("water") ?? "", "tankSize": web.query("tank") ?? "",
            "productChoices": try productChoices(page),
        ]
        for name in ["area", "water", "tank"] { values[name + "Error"] = problems.value("f-" + name) }
        if !problems.isEmpty {
            values["problems"] = ["title": page.t("web.form.problems"), "items": problems.summary]
        }
        values["result"] = result
        return Rendered(template: "tank", title: page.t("web.tank"), values: values)
    }

    /// The tank's refusal of numbers that each pass alone, put beside the field to change: a
    /// dose outside its product's registered range beside that dose; loads beyond count beside
    /// the tank's size.
    private static func tankProblem(
        _ error: TankError, rows: [(row: Int, id: EntityID)], _ page: PageContext, into problems: inout FieldProblems
    ) throws {
        let s = page.environment.strings
        switch error.kind {
        case let .doseOutsideRange(product, _, _, _):
            let text = CatalogErrorWording.text(error.kind, s, .query)
            let row = try rows.first { try page.catalog.product(id: $0.id, locale: page.locale)?.name == product }?.row ?? 1
            problems.add(
                "f-dose\(row)", page.t("web.dose") + ": " + text, place: page.t("web.product") + " " + String(row))
        case let .notPerHectare(unit):
            let units = page.web.queries("unit")
            let number = rows.first { $0.row - 1 < units.count && units[$0.row - 1] == unit }?.row ?? 1
            problems.add(
                "f-dose\(number)", page.t("web.unit") + ": " + CatalogErrorWording.text(error.kind, s, .query),
                place: page.t("web.product") + " " + String(number))
        case .tooManyLoads:
            problems.add("f-tank", page.t("web.tankSize") + ": " + CatalogErrorWording.text(error.kind, s, .query))
        default:
            problems.add("f-water", page.t("web.form.notComputable"))
        }
    }

    /// "l/ha" as the interface writes it ("л/га").
    static func unitName(_ unit: String, _ page: PageContext) -> String {
        let key = "unit.\(unit)", text = page.t(key)
        return text == key ? unit : text
    }

    static func tankResult(_ document: TankDocument, _ page: PageContext) -> [String: Any] {
        let plan = document.plan, s = page.environment.strings, summary = s.tankSummary(plan)
        let n = s.tankNumber
        return [
            "title": summary.title,
            "facts": summary.facts,
            "headers": [
                "product": page.t("column.product"), "perLoad": page.t("tank.perLoad"), "lastLoad": page.t("tank.lastLoad"),
                "total": page.t("tank.total"),
            ],
            "products": plan.products.map { amounts -> [String: String] in
                let unit = unitName(amounts.unit, page)
                return [
                    "name": amounts.name, "href": href(.product, amounts.productID),
                    "perLoad": "\(n(amounts.perFullLoad)) \(unit)",
                    "lastLoad": plan.lastLoadWater > 0 ? "\(n(amounts.lastLoad)) \(unit)" : "—",
                    "total": "\(n(amounts.total)) \(unit)",
                ]
            },
            "substancesTitle": page.t("tank.substances"),
            "substances": plan.products.flatMap(\.substances).map { substance -> String in
                "\(substance.name): " + (substance.grams.map { page.t("web.grams", n($0)) } ?? page.t("tank.unknownGrams"))
            },
            "warningsTitle": page.t("tank.warnings"), "warnings": document.warnings, "hasWarnings": !document.warnings.isEmpty,
        ]
    }

    // MARK: - The season plan

    /// The short form's rows: four to fill, more when a link or a post gave more.
    static let planRows = 1...9

    static func plan(_ page: PageContext, form: PostedForm?) throws -> Rendered {
        var problems = FieldProblems()
        var values: [String: Any] = [
            "example": Self.planExample, "productChoices": try productChoices(page), "pestChoices": try pestChoices(page),
        ]
        func value(_ name: String) -> String { form?.value(name) ?? "" }
        if let form {
            // A file, else pasted text, else the short form, as `PostedForm.plan` takes them.
            if let file = form.fields.first(where: { $0.name == "file" && !$0.data.isEmpty }) {
                values["report"] = try planChecked(
                    file.data, name: file.fileName ?? "plan", field: "f-file", label: page.t("web.planFile"), page,
                    into: &problems)
            } else if let text = form.value("text") {
                values["report"] = try planChecked(
                    Data(text.utf8), name: "plan", field: "f-text", label: page.t("web.planText"), page, into: &problems,
                    retyped: { typed, id in planTextLink(text, replacing: typed, with: id) })
            } else if let csv = try planFormCSV(form, page, into: &problems) {
                values["report"] = try planChecked(
                    csv, name: "form.csv", field: "f-culture", label: page.t("web.planForm"), page, into: &problems)
            }
        }
        values["text"] = value("text")
        values["cultures"] = try culturePicker(page, selected: value("culture").nonEmpty).picker
        for name in ["sowing", "harvest", "area"] {
            values[name] = value(name)
            values[name + "Error"] = problems.value("f-" + name)
        }
        for name in ["culture", "file", "text"] { values[name + "Error"] = problems.value("f-" + name) }
        let filled = planRows.last { index in
            ["date", "bbch", "product", "dose", "pests"].contains { !value($0 + String(index)).isEmpty }
        }
        values["rows"] = (1...max(4, filled ?? 0)).map { index -> [String: Any] in
            let unit = value("unit\(index)").nonEmpty ?? "l/ha"
            var row: [String: Any] = [
                "index": index, "legend": page.t("web.planApplication", index),
                "units": (TankForm.units + ["l/t", "kg/t"]).map {
                    ["code": $0, "name": unitName($0, page), "selected": $0 == unit]
                },
            ]
            for name in ["date", "bbch", "product", "dose", "pests"] {
                row[name] = value(name + String(index))
                row[name + "Error"] = problems.value("f-\(name)\(index)")
            }
            return row
        }
        if !problems.isEmpty {
            values["problems"] = ["title": page.t("web.form.problems"), "items": problems.summary]
        }
        return Rendered(template: "plan", title: page.t("web.plan"), values: values)
    }

    /// The report of the plan in `data`, or nil with its problem beside the field it came
    /// from (a file's or pasted text's own line numbers are the person's). A name that fits
    /// several entries is offered as links where `retyped` can make one.
    private static func planChecked(
        _ data: Data, name: String, field: String, label: String, _ page: PageContext, into problems: inout FieldProblems,
        retyped: (String, EntityID) -> String? = { _, _ in nil }
    ) throws -> [String: Any]? {
        do {
            let document = try CatalogDocuments.planCheck(
                data, fileName: name, catalog: page.catalog, environment: page.environment)
            return planReport(document, page)
        } catch let error as PlanFileError {
            problems.add(
                field,
                label + ": " + APIError(error, strings: page.environment.strings, wordings: page.app.wordings).error.message)
        } catch let error as CatalogError {
            switch error {
            case let .ambiguous(kind, typed, candidates):
                let links = candidates.compactMap { match in retyped(typed, match.id).map { (match.name, $0) } }
                let message = page.t("web.form.ambiguous", label, typed)
                if links.count == candidates.count {
                    problems.add(field, message, choices: links)
                } else {
                    // Named with their ids, to be typed in the plan instead.
                    let names = candidates.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                    problems.add(field, message + " " + names + " — " + page.t("kinds.\(kind.rawValue)"))
                }
            case let .unknownName(_, typed, suggestions):
                let names = suggestions.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                problems.add(
                    field,
                    suggestions.isEmpty
                        ? page.t("web.form.unknown", label, typed) : page.t("web.form.unknownClosest", label, typed) + " " + names
                )
            default:
                throw error
            }
        }
        return nil
    }

    /// A link checking the pasted plan again with `typed` (a whole field of it, quoted in JSON
    /// or between CSV separators) replaced by `id`; nil when the plan would make too long a link.
    static func planTextLink(_ text: String, replacing typed: String, with id: EntityID) -> String? {
        let pattern = "(^|[\"\\[,;\\n])(\\s*)" + NSRegularExpression.escapedPattern(for: typed) + "(\\s*)(?=[\"\\],;\\r\\n]|$)"
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines, .caseInsensitive]) else {
            return nil
        }
        let replaced = expression.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text),
            withTemplate: "$1$2" + NSRegularExpression.escapedTemplate(for: id) + "$3")
        guard replaced != text else { return nil }
        let link = "/plan?" + formQuery([("text", replaced)])
        return link.utf8.count <= 4000 ? link : nil
    }

    /// The short form as the plan CSV, names resolved to ids and numbers read as the page's
    /// language writes them; nil with each problem beside its field.
    static func planFormCSV(_ form: PostedForm, _ page: PageContext, into problems: inout FieldProblems) throws -> Data? {
        let words = FormWords(page: page)
        func value(_ name: String) -> String? { form.value(name) }
        // A link filling the form again with field `name` set to `text`.
        func link(_ name: String, _ text: String) -> String {
            let names =
                ["culture", "sowing", "harvest", "area"]
                + planRows.flatMap { index in
                    ["date", "bbch", "product", "dose", "unit", "pests"].map { $0 + String(index) }
                }
            let pairs = names.compactMap { field -> (String, String)? in
                let current = field == name ? text : value(field)
                return current.map { (field, $0) }
            }
            return "/plan?" + formQuery(pairs)
        }
        var culture = ""
        if let text = value("culture") {
            culture =
                try words.resolve(text, .culture, field: "f-culture", label: page.t("web.culture"), into: &problems) {
                    link("culture", $0)
                } ?? ""
        } else {
            problems.add("f-culture", words.needed(page.t("web.culture")))
        }
        func date(_ name: String, label: String, place: String = "") -> PlanDate? {
            guard let text = value(name) else { return nil }
            guard let date = PlanDate(text) else {
                problems.add("f-" + name, page.t("web.form.notADate", label, text), place: place)
                return nil
            }
            return date
        }
        let sowing = date("sowing", label: page.t("web.sowing")), harvest = date("harvest", label: page.t("web.harvest"))
        if let sowing, let harvest, harvest < sowing {
            problems.add(
                "f-harvest", page.t("web.form.harvestBeforeSowing", page.t("web.harvest"), Self.date(sowing.description, page)))
        }
        var area: Double?
        if value("area") != nil {
            area = words.positive(value("area"), field: "f-area", label: page.t("web.areaHa"), into: &problems)
        }
        var lines = [
            CSV.line(["culture", "sowing", "harvest", "area", "application", "date", "bbch", "product", "dose", "unit", "pests"])
        ]
        for index in planRows {
            let place = page.t("web.planApplication", index)
            let given = ["date", "bbch", "dose", "pests"].contains { value($0 + String(index)) != nil }
            guard let productText = value("product\(index)") else {
                if given { problems.add("f-product\(index)", words.needed(page.t("web.product")), place: place) }
                continue
            }
            let (product, dose) = try words.productAndDose(
                index, product: productText, dose: value("dose\(index)"), place: place, into: &problems
            ) { link("product\(index)", $0) }
            let bbch = words.stage(value("bbch\(index)"), field: "f-bbch\(index)", place: place, into: &problems)
            let when = date("date\(index)", label: page.t("web.date"), place: place)
            let pests = try words.pests(
                value("pests\(index)"), field: "f-pests\(index)", place: place, into: &problems
            ) { link("pests\(index)", $0) }
            guard let product, let dose else { continue }
            let first = lines.count == 1
            lines.append(
                CSV.line([
                    first ? culture : "", first ? sowing?.description ?? "" : "", first ? harvest?.description ?? "" : "",
                    first ? area.map(\.plainText) ?? "" : "", "\(lines.count)", when?.description ?? "",
                    bbch.map(String.init) ?? "", product, dose.plainText, value("unit\(index)") ?? "l/ha",
                    pests.joined(separator: ";"),
                ]))
        }
        if lines.count == 1, problems.isEmpty {
            problems.add("f-product1", words.needed(page.t("web.product")), place: page.t("web.planApplication", 1))
        }
        guard problems.isEmpty else { return nil }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The findings grouped as `agro plan check` groups them: under each application in the
    /// plan's order, then the whole season; the verdict last.
    static func planReport(_ document: PlanCheckDocument, _ page: PageContext) -> [String: Any] {
        let plan = document.resolved.plan, report = document.report, s = page.environment.strings
        func findings(_ list: [PlanFinding]) -> [[String: String]] {
            list.map { finding in
                [
                    "severity": finding.severity.rawValue,
                    "mark": finding.severity == .error ? "✗" : finding.severity == .warning ? "!" : "·",
                    "severityName": page.t("web.severity.\(finding.severity.rawValue)"), "rule": finding.rule.rawValue,
                    "ruleName": FindingWording(strings: s).rule(finding.rule),
                    "message": finding.message, "source": page.t("plan.source", finding.source),
                ]
            }
        }
        var header = page.t("plan.title", document.resolved.culture.name)
        if let area = plan.area { header += " · " + page.t("plan.area", s.number(area)) }
        if let sowing = plan.sowing { header += " · " + page.t("plan.sowing", date(sowing.description, page)) }
        if let harvest = plan.harvest { header += " · " + page.t("plan.harvest", date(harvest.description, page)) }
        // An application's products by name in the page's language, as its findings name them
        // (the plan may give ids); the plan's own words where a product is not in the catalog.
        var names: [EntityID: String] = [:]
        for line in document.resolved.lines where names[line.product] == nil {
            names[line.product] = (try? page.catalog.product(id: line.product, locale: page.locale))?.name
        }
        // Lines and findings by application, gathered once: filtering them per application made
        // the report quadratic in the plan (8,000 applications took 22 s).
        let linesOf = Dictionary(grouping: document.resolved.lines, by: \.application)
        let findingsOf = Dictionary(grouping: report.findings, by: { $0.application ?? 0 })
        func products(_ number: Int, _ application: SeasonPlan.Application) -> String {
            let lines = linesOf[number] ?? []
            let named = lines.compactMap { line in
                names[line.product].map { $0 + " " + s.label(Dose(from: line.dose, to: nil, unit: line.unit)) }
            }
            return named.isEmpty || named.count < lines.count ? application.products(s) : named.joined(separator: " + ")
        }
        let warnings = report.findings.filter { $0.severity == .warning }.count
        return [
            "header": header, "passed": report.passed,
            "verdict": report.passed ? page.t("plan.passed", warnings) : page.t("plan.failed", report.violations, warnings),
            "applications": plan.applications.enumerated().map { index, application -> [String: Any] in
                let when = application.when(stagePrefix: "BBCH\u{00A0}").map { date($0, page) }
                let products = products(index + 1, application)
                let own = findingsOf[index + 1] ?? []
                return [
                    "number": index + 1, "when": when.joined(separator: " · "), "products": products,
                    "findings": findings(own), "ok": own.isEmpty,
                ]
            },
            "season": findings(report.findings.filter { $0.application == nil }),
            "okText": page.t("plan.ok"), "seasonTitle": page.t("plan.season"),
        ]
    }

    /// The passing example of `Database/examples`, shown as the format to paste.
    static let planExample = """
        {"culture": "winter-wheat", "sowing": "2025-09-10", "harvest": "2026-07-28", "area": 120,
         "applications": [
           {"date": "2026-04-28", "bbch": 25, "product": "tribenuron-750-wg", "dose": 20, "unit": "g/ha",
            "pests": ["descurainia-sophia"]}
         ]}
        """
}

/// The numbers of a tank request (`/tank` and `/api/v1/tank`): products and doses side by
/// side, doses with a decimal point or comma; bad numbers in the CLI's words.
struct TankForm {
    static let units = ["l/ha", "ml/ha", "kg/ha", "g/ha"]

    var products: [String] = [], doses: [Double] = [], units: [String] = []
    var area: Double, water: Double, tank: Double

    init(_ web: WebRequest) throws {
        let names = web.queries("product"), doseTexts = web.queries("dose"), unitTexts = web.queries("unit")
        // A form's empty rows are left out; the API's lists must line up as the CLI's options do.
        for (index, name) in names.enumerated() where !name.trimmingCharacters(in: .whitespaces).isEmpty {
            products.append(name)
            if index < doseTexts.count { doses.append(try Self.number(doseTexts[index], .dose)) }
            if index < unitTexts.count, !unitTexts[index].isEmpty { units.append(unitTexts[index]) }
        }
        if units.count > 1, Set(units).count == 1, units.count == products.count { units = [units[0]] }
        area = try Self.number(web.query("area"), .area)
        water = try Self.number(web.query("water"), .water)
        tank = try Self.number(web.query("tank"), .tank)
    }

    static func number(_ text: String?, _ name: Parameter) throws -> Double {
        guard let text, !text.isEmpty else { throw RequestError.missing(name) }
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".").trimmingCharacters(in: .whitespaces)) else {
            throw RequestError.notANumber(name, value: text)
        }
        return value
    }
}

extension String {
    /// nil for an empty string, for `??` chains.
    var nonEmpty: String? { isEmpty ? nil : self }
}
