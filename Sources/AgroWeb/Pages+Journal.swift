import AgroDomain
import AgroPresentation
import Foundation
import HTTPTypes
import Hummingbird

/// The field journal's pages, served when `agro web --journal` keeps it (or `--farm-journal`,
/// the journal of the signed-in account's farm): the fields with their
/// earliest harvest, a field's records (newest first, those with an error marked), the record
/// form (checked by the server before and after saving) and a record with its findings and
/// revisions. The checks are the journal's (`Journal`), worded by `FindingWording`; the form
/// works without JavaScript, and `journal.js` keeps what is written offline until it can be
/// sent to `POST /api/v1/journal`.
extension Pages {
    static func registerJournalPages(on router: Router<BasicRequestContext>, app: WebApp) {
        guard app.journal != nil || app.farm != nil else { return }
        // The device's journal (`--journal`), or the farm of the request's session, which must
        // be allowed to write to save.
        @Sendable func store(_ page: PageContext, writing: Bool = false) throws -> AnyJournal {
            try app.journalStore(for: page.web.request, now: page.environment.now, writing: writing)
        }
        router.get("journal") { request, _ in
            journalPage(request, app) { page in try journalFields(page, store: try store(page), form: nil) }
        }
        router.post("journal") { request, _ in
            await journalPosted(request, app) { page, form, writes in
                writes
                    ? try journalFields(page, store: try store(page, writing: true), form: form)
                    : try journalFields(page, store: try store(page), form: nil, typed: form)
            }
        }
        router.get("journal/field/:id") { request, context in
            journalPage(request, app) { page in
                try journalField(page, store: try store(page), id: try APIRoutes.parameter(context, "id"))
            }
        }
        router.get("journal/field/:id/record") { request, context in
            journalPage(request, app) { page in
                try journalRecordForm(
                    page, store: try store(page), fieldID: try APIRoutes.parameter(context, "id"),
                    form: PostedForm(linkOf: page.web), action: nil)
            }
        }
        router.post("journal/field/:id/record") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await journalPosted(request, app) { page, form, writes in
                let action = form.value("action") ?? "check"
                return writes
                    ? try journalRecordForm(
                        page, store: try store(page, writing: action == "save"), fieldID: id, form: form, action: action)
                    : try journalRecordForm(page, store: try store(page), fieldID: id, form: form, action: nil)
            }
        }
        router.get("journal/record/:id") { request, context in
            journalPage(request, app) { page in
                try journalRecord(page, store: try store(page), id: try APIRoutes.parameter(context, "id"))
            }
        }
    }

    /// A journal page: a page of the farm's journal asked without a session goes to the sign-in
    /// page, which sends the person back.
    private static func journalPage(_ request: Request, _ app: WebApp, _ body: (PageContext) throws -> Rendered) -> Response {
        render(request, app) { page in
            do {
                return signedIn(try body(page), page)
            } catch FarmError.signInRequired {
                // The language asked for goes along: a redirect sets no cookie.
                let uri = page.web.request.uri
                let lang = page.web.query("lang") == nil ? "" : "lang=" + page.locale + "&"
                return seeOther("/sign-in?" + lang + "next=" + percent(uri.path + (uri.query.map { "?" + $0 } ?? "")))
            }
        }
    }

    /// A page of the farm's journal says who is signed in, with a button to sign out (the pages
    /// of a device's own journal have no accounts, and no such line).
    private static func signedIn(_ rendered: Rendered, _ page: PageContext) -> Rendered {
        guard let farm = page.app.farm, rendered.location == nil,
            let account = try? farm.account(page.web.request, now: page.environment.now)
        else { return rendered }
        var rendered = rendered
        let farmName = (try? farm.store.farms().first { $0.id == account.farm }?.name) ?? ""
        rendered.values["account"] = [
            "text": page.t("web.signedInAs", account.login, farmName, page.t("farm.role.\(account.role.rawValue)")),
            "signOut": page.t("web.signOut"),
        ]
        return rendered
    }

    /// A journal page answering a posted form of a few kilobytes at most: `body` with `writes`
    /// true; when the person's role only reads, `body` again with `writes` false (the form as
    /// typed, nothing stored), answered 403 with a line saying why, in the page's language.
    private static func journalPosted(
        _ request: Request, _ app: WebApp,
        _ body: @escaping (PageContext, PostedForm, _ writes: Bool) throws -> Rendered
    ) async -> Response {
        await posted(request, app, limit: APIRoutes.maximumRecordBytes) { page, form in
            do {
                return signedIn(try body(page, form, true), page)
            } catch let FarmError.notAllowed(role) {
                var rendered = try body(page, form, false)
                rendered.values["refused"] = page.t("web.journalNotAllowed", page.t("farm.role.\(role.rawValue)"))
                rendered.status = .forbidden
                return signedIn(rendered, page)
            }
        }
    }

    /// A 303 to `location` after a form was stored: a reload does not post it again.
    static func seeOther(_ location: String) -> Rendered {
        var rendered = Rendered(template: "error", title: "", values: [:])
        rendered.status = .seeOther
        rendered.location = location
        return rendered
    }

    private static func journal<Store: JournalStore>(_ page: PageContext, _ store: Store) -> Journal<Store> {
        Journal(store: store, catalog: page.catalog, locale: page.locale, now: page.environment.now)
    }

    static func journalFieldHref(_ id: UUID) -> String { "/journal/field/" + id.uuidString.lowercased() }
    static func journalRecordHref(_ id: UUID) -> String { "/journal/record/" + id.uuidString.lowercased() }

    // MARK: - The fields

    /// The fields and the form adding one: `form` is checked and stored; `typed` (a form that
    /// may not be stored) only fills the form again.
    static func journalFields<Store: JournalStore>(
        _ page: PageContext, store: Store, form: PostedForm?, typed: PostedForm? = nil
    ) throws -> Rendered {
        let journal = journal(page, store)
        var problems = FieldProblems()
        func value(_ name: String) -> String { (form ?? typed)?.value(name) ?? "" }
        if let form, let field = try fieldFromForm(form, journal: journal, page, into: &problems) {
            do {
                try journal.add(field)
                return seeOther(journalFieldHref(field.id))
            } catch let error as JournalError {
                let (name, label) = fieldFormPlace(error, page)
                problems.add(name, label + ": " + message(error, page))
            }
        }
        var items: [[String: Any]] = []
        for field in try store.fields() {
            let season = try journal.season(of: field)
            let culture = try page.catalog.culture(id: field.culture, locale: page.locale)?.name ?? field.culture
            items.append([
                "name": field.name, "href": journalFieldHref(field.id),
                "facts": culture + " · " + page.t("web.journalHectares", page.environment.strings.number(field.area)),
                "records": page.environment.strings.plural("web.journalRecords", season.records.count),
                "harvest": harvestLines(field: field, season: season, page),
            ])
        }
        var values: [String: Any] = [
            "fields": items, "empty": items.isEmpty, "id": value("id").nonEmpty ?? UUID().uuidString.lowercased(),
            "cultures": try culturePicker(page, selected: value("culture").nonEmpty).picker,
        ]
        for name in ["name", "area", "culture", "sown", "harvest", "at"] {
            values[name] = value(name)
            values[name + "Error"] = problems.value("f-" + name)
        }
        if !problems.isEmpty {
            values["problems"] = ["title": page.t("web.form.problems"), "items": problems.summary]
        }
        var rendered = Rendered(template: "journal", title: page.t("web.journal"), values: values)
        if !problems.isEmpty { rendered.status = .badRequest }
        return rendered
    }

    /// The field the add form describes, or nil with each problem beside its field.
    private static func fieldFromForm(
        _ form: PostedForm, journal: Journal<some JournalStore>, _ page: PageContext, into problems: inout FieldProblems
    ) throws -> Field? {
        let words = FormWords(page: page)
        let name = form.value("name")
        if name == nil { problems.add("f-name", words.needed(page.t("web.journalFieldName"))) }
        let area = words.positive(form.value("area"), field: "f-area", label: page.t("web.areaHa"), into: &problems)
        var culture: EntityID?
        if let text = form.value("culture") {
            culture = try words.resolve(text, .culture, field: "f-culture", label: page.t("web.culture"), into: &problems) {
                "/journal?culture=" + percent($0)
            }
        } else {
            problems.add("f-culture", words.needed(page.t("web.culture")))
        }
        func day(_ key: String, _ label: String) -> PlanDate? {
            guard let text = form.value(key) else { return nil }
            guard let date = PlanDate(text) else {
                problems.add("f-" + key, page.t("web.form.notADate", label, text))
                return nil
            }
            return date
        }
        let sown = day("sown", page.t("web.sowing")), harvest = day("harvest", page.t("web.harvest"))
        if let sown, let harvest, harvest < sown {
            problems.add(
                "f-harvest", page.t("web.form.harvestBeforeSowing", page.t("web.harvest"), date(sown.description, page)))
        }
        var location: FieldLocation?
        if let text = form.value("at") {
            do {
                let point = try CoordinateParser.parse(text)
                location = FieldLocation(latitude: point.latitude, longitude: point.longitude)
            } catch {
                problems.add("f-at", page.t("web.journalPlace") + ": " + message(error, page))
            }
        }
        guard problems.isEmpty, let name, let area, let culture else { return nil }
        return Field(
            id: form.value("id").flatMap(UUID.init(uuidString:)) ?? UUID(), name: name, area: area, location: location,
            culture: culture, sown: sown, harvest: harvest, writtenAt: page.environment.now)
    }

    /// Which field of the add form a refusal of the journal's belongs beside.
    private static func fieldFormPlace(_ error: JournalError, _ page: PageContext) -> (String, String) {
        switch error {
        case .fieldNameTaken, .emptyFieldName: return ("f-name", page.t("web.journalFieldName"))
        case .areaNotPositive: return ("f-area", page.t("web.areaHa"))
        default: return ("f-harvest", page.t("web.harvest"))
        }
    }

    /// An error's message in the page's language, as the API words it.
    private static func message(_ error: any Error, _ page: PageContext) -> String {
        APIError(error, strings: page.environment.strings, wordings: page.app.wordings).error.message
    }

    /// The field's earliest harvest and why, and whether the expected harvest keeps it.
    static func harvestLines(field: Field, season: RecordCheck, _ page: PageContext) -> [String: Any] {
        let s = page.environment.strings
        guard let gate = season.gates.first else { return ["title": s("journal.harvest.none", field.name), "ok": true] }
        var values: [String: Any] = [
            "title": s("journal.harvest.earliest", field.name, s.date(gate.earliest.description)),
            "because": s("journal.harvest.because", gate.product.name, s.date(gate.lastApplication.description), gate.phiDays),
        ]
        if let expected = field.harvest {
            let early = gate.earliest.day - expected.day
            values["ok"] = early <= 0
            values["verdict"] =
                early > 0
                ? "✗ " + s.plural("journal.harvest.tooEarly", early, s.date(expected.description))
                : "✓ " + s("journal.harvest.fits", s.date(expected.description))
        } else {
            values["ok"] = true
            values["verdict"] = s("journal.harvest.noExpected")
        }
        return values
    }

    // MARK: - A field and its records

    static func journalField<Store: JournalStore>(_ page: PageContext, store: Store, id: String) throws -> Rendered {
        let journal = journal(page, store)
        let field = try journal.field(id)
        let season = try journal.season(of: field)
        let s = page.environment.strings
        var names = JournalNames(catalog: page.catalog, locale: page.locale)
        let culture = try page.catalog.culture(id: field.culture, locale: page.locale)?.name ?? field.culture
        var facts: [[String: String]] = [
            ["label": page.t("web.culture"), "value": culture],
            ["label": page.t("web.areaHa"), "value": s.number(field.area)],
        ]
        if let sown = field.sown { facts.append(["label": page.t("web.sowing"), "value": date(sown.description, page)]) }
        if let harvest = field.harvest {
            facts.append(["label": page.t("web.harvest"), "value": date(harvest.description, page)])
        }
        if let point = field.location {
            facts.append([
                "label": page.t("web.journalPlace"), "value": s.number(point.latitude) + ", " + s.number(point.longitude),
            ])
        }
        let records = try store.records(field: field.id).reversed().map { stored -> [String: Any] in
            recordItem(stored, names: &names, page)
        }
        var values: [String: Any] = [
            "name": field.name, "id": field.id.uuidString.lowercased(), "facts": facts,
            "harvest": harvestLines(field: field, season: season, page),
            "records": records, "empty": records.isEmpty,
            "recordHref": journalFieldHref(field.id) + "/record",
            "pendingText": page.t("web.journalPending"), "sentText": page.t("web.journalSent"),
            "okText": page.t("plan.ok"), "seenText": page.t("web.journalSeen"), "discardText": page.t("web.journalDiscard"),
            "refusedText": page.t("web.journalRefused"),
        ]
        if page.app.farm != nil {
            // Records kept on the phone whose session ended: sent once the person signs in again.
            values["signIn"] = [
                "text": page.t("web.journalSignInToSend"), "link": page.t("web.signIn"),
                "href": "/sign-in?lang=" + page.locale + "&next=" + percent(journalFieldHref(field.id)),
            ]
        }
        return Rendered(template: "journalField", title: field.name, values: values)
    }

    /// A record in a field's list: when, the stage, the products with their doses, its mark.
    private static func recordItem(_ stored: StoredRecord, names: inout JournalNames, _ page: PageContext) -> [String: Any] {
        let s = page.environment.strings, record = stored.record
        return [
            "href": journalRecordHref(record.id), "when": when(record.start, page),
            "bbch": record.bbch.map { "BBCH\u{00A0}\($0)" } ?? "", "products": productsText(record, names: &names, page),
            "errors": stored.errors > 0 ? "✗ " + s.plural("journal.errors.short", stored.errors) : "",
        ]
    }

    /// "30.05.2026 07:30": a day as the language writes it, and the time when one was written.
    static func when(_ time: JournalTime, _ page: PageContext) -> String {
        let text = time.description
        return date(String(text.prefix(10)), page) + (text.count > 10 ? " " + text.dropFirst(11) : "")
    }

    static func productsText(_ record: SprayRecord, names: inout JournalNames, _ page: PageContext) -> String {
        record.products.map { line in
            let name = (try? names.product(line.product).name) ?? line.product
            return name + " " + page.environment.strings.label(Dose(from: line.dose, to: nil, unit: line.unit))
        }.joined(separator: " + ")
    }

    /// Findings for a template, worded in the page's language (never a key, never English in
    /// another language's page): the mark, the rule's name, the message, where the limit comes from.
    static func findingItems(_ findings: [PlanFinding], _ page: PageContext) -> [[String: String]] {
        let wording = FindingWording(strings: page.environment.strings)
        return findings.map { finding in
            [
                "severity": finding.severity.rawValue,
                "mark": finding.severity == .error ? "✗" : finding.severity == .warning ? "!" : "·",
                "severityName": page.t("web.severity.\(finding.severity.rawValue)"), "rule": finding.rule.rawValue,
                "ruleName": wording.rule(finding.rule), "message": wording.text(finding),
                "source": page.t("plan.source", wording.source(finding)),
            ]
        }
    }

    // MARK: - The record form

    /// The weather readings the form asks for: name, with its unit in the label.
    static let readings = ["wind", "gusts", "temperature", "humidity", "rain"]
    /// The label of reading `name` ("Wind, m/s"): key `web.journalWind`, ...
    static func readingKey(_ name: String) -> String { "web.journal" + name.prefix(1).uppercased() + name.dropFirst() }
    /// Rows of the tank mix on the form.
    static let mixRows = 1...3

    static func journalRecordForm<Store: JournalStore>(
        _ page: PageContext, store: Store, fieldID: String, form: PostedForm?, action: String?
    ) throws -> Rendered {
        let journal = journal(page, store)
        let field = try journal.field(fieldID)
        var problems = FieldProblems()
        var values: [String: Any] = [:]
        func value(_ name: String) -> String { form?.value(name) ?? "" }
        if let form, let action, let record = try recordFromForm(form, field: field, page, into: &problems) {
            do {
                if action == "save" {
                    _ = try journal.write(record)
                    return seeOther(journalRecordHref(record.id) + "?saved=1")
                }
                let check = try journal.check(record)
                values["checked"] = [
                    "title": page.t("web.journalChecked"),
                    "findings": findingItems(check.findings + check.season, page),
                    "ok": check.findings.isEmpty && check.season.isEmpty, "okText": page.t("plan.ok"),
                    "harvest": harvestLines(field: field, season: check, page),
                ]
            } catch let error as JournalError {
                let (name, label) = recordFormPlace(error, page)
                problems.add(name, label + ": " + message(error, page))
            }
        }
        let s = page.environment.strings
        let now = JournalTime(date: PlanDate(page.environment.today) ?? PlanDate(day: 0), minute: minuteOfDay(page))
        values["fieldName"] = field.name
        values["fieldHref"] = journalFieldHref(field.id)
        values["action"] = journalFieldHref(field.id) + "/record"
        values["fresh"] = form == nil
        values["id"] = value("id").nonEmpty ?? UUID().uuidString.lowercased()
        values["start"] = value("start").nonEmpty ?? now.description
        values["area"] = form == nil ? s.number(field.area) : value("area")
        for name in ["bbch", "water", "operator", "notes"] { values[name] = value(name) }
        for name in ["start", "bbch", "water", "area"] { values[name + "Error"] = problems.value("f-" + name) }
        values["productChoices"] = try productChoices(page)
        values["pestChoices"] = try pestChoices(page)
        values["rows"] = mixRows.map { index -> [String: Any] in
            let unit = value("unit\(index)").nonEmpty ?? "l/ha"
            var row: [String: Any] = [
                "index": index, "legend": page.t("web.journalProduct", index),
                "units": TankForm.units.map { ["code": $0, "name": unitName($0, page), "selected": $0 == unit] },
            ]
            for name in ["product", "dose", "pests"] {
                row[name] = value(name + String(index))
                row[name + "Error"] = problems.value("f-\(name)\(index)")
            }
            return row
        }
        values["readings"] = readings.map { name -> [String: Any] in
            let source = value(name + "Source").nonEmpty ?? "measured"
            var reading: [String: Any] = [
                "name": name, "label": page.t(readingKey(name)), "value": value(name),
                "sources": Reading.Source.allCases.map { each -> [String: Any] in
                    [
                        "code": each.rawValue, "name": page.t("journal.reading.\(each.rawValue)"),
                        "selected": each.rawValue == source,
                    ]
                },
            ]
            reading["error"] = problems.value("f-" + name)
            return reading
        }
        values["offlineCheck"] = page.t("web.journalOfflineCheck")
        if !problems.isEmpty {
            values["problems"] = ["title": page.t("web.form.problems"), "items": problems.summary]
        }
        var rendered = Rendered(template: "journalRecord", title: page.t("web.journalNew", field.name), values: values)
        if !problems.isEmpty { rendered.status = .badRequest }
        return rendered
    }

    /// The minute of the day now, in the server's time zone (the form's default; the page's
    /// script puts the phone's own time in its place).
    private static func minuteOfDay(_ page: PageContext) -> Int {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: page.environment.now)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// The record the form describes, or nil with each problem beside its field: names resolved
    /// in the catalog, numbers read as the page's language writes them.
    private static func recordFromForm(
        _ form: PostedForm, field: Field, _ page: PageContext, into problems: inout FieldProblems
    ) throws -> SprayRecord? {
        let words = FormWords(page: page)
        func value(_ name: String) -> String? { form.value(name) }
        // A link filling the form again with field `name` set to `text`.
        func link(_ name: String, _ text: String) -> String {
            let pairs = form.fields.filter { $0.name != "action" }.map { ($0.name, $0.name == name ? text : $0.text) }
            return journalFieldHref(field.id) + "/record?" + formQuery(pairs)
        }
        var start: JournalTime?
        if let text = value("start") {
            start = JournalTime(text)
            if start == nil { problems.add("f-start", page.t("web.form.notADate", page.t("web.journalWhen"), text)) }
        } else {
            problems.add("f-start", words.needed(page.t("web.journalWhen")))
        }
        let bbch = words.stage(value("bbch"), field: "f-bbch", into: &problems)
        var products: [AppliedProduct] = []
        for index in mixRows {
            let place = page.t("web.journalProduct", index)
            let given = ["dose", "pests"].contains { value($0 + String(index)) != nil }
            guard let productText = value("product\(index)") else {
                if given || (index == 1 && products.isEmpty) {
                    problems.add("f-product\(index)", words.needed(page.t("web.product")), place: place)
                }
                continue
            }
            let (product, dose) = try words.productAndDose(
                index, product: productText, dose: value("dose\(index)"), place: place, into: &problems
            ) { link("product\(index)", $0) }
            let pests = try words.pests(
                value("pests\(index)"), field: "f-pests\(index)", place: place, into: &problems
            ) { link("pests\(index)", $0) }
            let unit = value("unit\(index)").flatMap { TankForm.units.contains($0) ? $0 : nil } ?? "l/ha"
            if let product, let dose { products.append(AppliedProduct(product: product, dose: dose, unit: unit, pests: pests)) }
        }
        var water: Double?, area: Double?
        if value("water") != nil {
            water = words.positive(value("water"), field: "f-water", label: page.t("web.journalWater"), into: &problems)
        }
        if value("area") != nil {
            area = words.positive(value("area"), field: "f-area", label: page.t("web.areaHa"), into: &problems)
        }
        var weather = SprayWeather()
        for name in readings {
            guard let text = value(name) else { continue }
            guard let number = TypedNumber.parse(text, decimalComma: words.decimalComma) else {
                problems.add("f-" + name, words.notANumber(page.t(readingKey(name)), text))
                continue
            }
            let reading = Reading(number, Reading.Source(rawValue: value(name + "Source") ?? "") ?? .measured)
            switch name {
            case "wind": weather.wind = reading
            case "gusts": weather.gusts = reading
            case "temperature": weather.temperature = reading
            case "humidity": weather.humidity = reading
            default: weather.rain = reading
            }
        }
        guard problems.isEmpty, let start else { return nil }
        let id = value("id").flatMap(UUID.init(uuidString:)) ?? UUID()
        return SprayRecord(
            id: id, revision: id, field: field.id, start: start, bbch: bbch, products: products, water: water,
            area: area, sprayer: value("operator"), weather: weather,
            notes: value("notes"), writtenAt: page.environment.now)
    }

    /// Which field of the record form a refusal of the journal's belongs beside.
    private static func recordFormPlace(_ error: JournalError, _ page: PageContext) -> (String, String) {
        switch error {
        case .areaNotPositive, .areaLargerThanField: return ("f-area", page.t("web.areaHa"))
        case .stageOutOfRange: return ("f-bbch", "BBCH")
        case .waterNotPositive: return ("f-water", page.t("web.journalWater"))
        case let .doseNotPositive(product): return ("f-dose\(product)", page.t("web.dose"))
        case let .readingOutOfRange(quantity, _): return ("f-" + quantity, page.t(readingKey(quantity)))
        case .noProduct: return ("f-product1", page.t("web.product"))
        default: return ("f-start", page.t("web.journalWhen"))
        }
    }

    // MARK: - A record

    static func journalRecord<Store: JournalStore>(_ page: PageContext, store: Store, id: String) throws -> Rendered {
        let journal = journal(page, store)
        let history = try journal.history(id)
        guard let latest = history.last else { throw JournalError.unknownRecord(id) }
        let record = latest.record
        let field = try journal.field(record.field.uuidString)
        let s = page.environment.strings
        var names = JournalNames(catalog: page.catalog, locale: page.locale)
        var facts: [[String: String]] = [["label": page.t("web.journalWhen"), "value": when(record.start, page)]]
        if let end = record.end { facts.append(["label": page.t("web.journalEnd"), "value": when(end, page)]) }
        if let bbch = record.bbch { facts.append(["label": "BBCH", "value": String(bbch)]) }
        facts.append(["label": page.t("web.areaHa"), "value": s.number(record.area ?? field.area)])
        if let water = record.water { facts.append(["label": page.t("web.journalWater"), "value": s.number(water)]) }
        if let sprayer = record.sprayer { facts.append(["label": page.t("web.journalOperator"), "value": sprayer]) }
        let weather: [(String, Reading?)] = [
            ("wind", record.weather.wind), ("gusts", record.weather.gusts), ("temperature", record.weather.temperature),
            ("humidity", record.weather.humidity), ("rain", record.weather.rain),
        ]
        for case let (name, reading?) in weather {
            facts.append([
                "label": page.t(readingKey(name)),
                "value": s.number(reading.value) + " (" + page.t("journal.reading.\(reading.source.rawValue)") + ")",
            ])
        }
        var products: [[String: Any]] = []
        for line in record.products {
            let (name, registration) = try names.product(line.product)
            var pests: [String] = []
            for pest in line.pests { pests.append(try names.pest(pest)) }
            products.append([
                "name": name, "href": href(.product, line.product), "registration": registration ?? "",
                "dose": s.label(Dose(from: line.dose, to: nil, unit: line.unit)), "pests": pests.joined(separator: ", "),
            ])
        }
        // Each revision with the number of errors it was written with: the findings stored with
        // it name products in the language it was written in, so the page words only its count.
        let revisions = history.reversed().map { stored -> [String: Any] in
            let written = AgroPresentation.Environment.isoDate(stored.record.writtenAt)
            return [
                "title": page.t("journal.revision", stored.number, date(written, page)),
                "reason": stored.record.reason.map { page.t("journal.reason", $0) } ?? "",
                "summary": when(stored.record.start, page) + " · " + productsText(stored.record, names: &names, page),
                "errors": stored.errors > 0 ? "✗ " + s.plural("journal.errors.short", stored.errors) : "✓",
            ]
        }
        // The findings the record was written with, found again in the page's language: the
        // stored ones name products in the language they were written in. The season is the
        // field's as it stood then (the records written up to this revision), so later records
        // change nothing; the stored findings where the record no longer passes the checks.
        let asWritten = Journal(
            store: JournalAsOf(base: store, moment: record.writtenAt), catalog: page.catalog, locale: page.locale,
            now: record.writtenAt)
        let findings = (try? asWritten.check(record))?.findings ?? latest.findings
        let errors = findings.filter { $0.severity == .error }.count
        let values: [String: Any] = [
            "field": field.name, "fieldHref": journalFieldHref(field.id), "facts": facts, "products": products,
            "findings": findingItems(findings, page), "ok": findings.isEmpty, "okText": page.t("plan.ok"),
            "saved": page.web.flag("saved") ? page.t("web.journalSaved") : "",
            "errors": errors > 0 ? s.plural("journal.errors", errors) : "",
            "revisions": revisions, "hasRevisions": history.count > 1,
        ]
        return Rendered(template: "journalShow", title: page.t("web.journalRecord", when(record.start, page)), values: values)
    }
}

/// A journal's store as it stood at `moment`: the records whose latest revision was written by
/// then. A record's page checks it again against this season, to word its findings in the
/// page's language as they were found when it was written.
struct JournalAsOf<Base: JournalStore>: JournalStore {
    let base: Base
    let moment: Date

    func addField(_ field: Field) throws -> Bool { try base.addField(field) }
    func fields() throws -> [Field] { try base.fields() }
    func field(_ id: UUID) throws -> Field? { try base.field(id) }
    func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool { try base.append(record, findings: findings) }
    func records(field: UUID?) throws -> [StoredRecord] {
        try base.records(field: field).filter { $0.record.writtenAt <= moment }
    }
    func sprays(field: UUID) throws -> [SprayRecord] { try base.sprays(field: field).filter { $0.writtenAt <= moment } }
    func recordIDs(prefix: String) throws -> [UUID] { try base.recordIDs(prefix: prefix) }
    func history(record: UUID) throws -> [StoredRecord] { try base.history(record: record) }
    func revision(_ id: UUID) throws -> StoredRecord? { try base.revision(id) }
}
