import AgroDomain
import AgroStore
import Foundation

/// Reads the source files in dependency order and checks every reference.
final class SourceReader {
    let directory: URL
    let problems = ProblemLog()
    private var locales: Set<String> = []
    /// Obligation texts by the key `obligationTexts` made for them.
    private var obligationsByKey: [String: LocalizedText] = [:]
    /// The files in news/, listed once for all news entries.
    private lazy var newsFiles: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("news").path)) ?? []).sorted()

    init(directory: URL) {
        self.directory = directory
    }

    func read() -> CatalogContent {
        let header = readHeader()
        var content = CatalogContent(header: header)
        content.companies = entries("companies.json") { e, id in
            CatalogRecord.Company(id: id, name: e.text("name", required: true))
        }
        content.statements = entries("hazard-statements.json", idField: "code") { e, code in
            CatalogRecord.Statement(code: code, text: e.text("text", required: true))
        }
        content.substances = entries("substances.json") { e, id in
            var moa: ModeOfAction?
            if let object = e.object("moa") {
                if let scheme = object["scheme"] as? String, let group = object["group"] as? String {
                    moa = ModeOfAction(scheme: scheme, group: group)
                } else {
                    e.report("field \"moa\" needs string fields \"scheme\" and \"group\"")
                }
            }
            return CatalogRecord.Substance(
                id: id, name: e.text("name", required: true), iupacName: e.string("iupac"),
                casNumber: e.string("cas"), modeOfAction: moa, description: e.text("description"))
        }
        content.cultures = entries("cultures.json") { e, id in
            let stages = e.objects("stages").enumerated().compactMap { index, object -> CatalogRecord.GrowthStage? in
                let stage = self.nested(e, object, "stages[\(index)]")
                guard let bbch = stage.bbch("bbch", required: true) else { return nil }
                return CatalogRecord.GrowthStage(bbch: bbch, name: stage.text("name", required: true))
            }
            return CatalogRecord.Culture(
                id: id, name: e.text("name", required: true), latinName: e.string("latin"), eppoCode: e.eppoCode("eppo"),
                description: e.text("description"), parentIDs: e.strings("parents"), stages: stages)
        }
        content.pests = entries("pests.json") { e, id in
            CatalogRecord.Pest(
                id: id, kind: e.choice("kind", PestKind.self, required: true) ?? .other, latinName: e.string("latin"),
                eppoCode: e.eppoCode("eppo"), name: e.text("name", required: true), description: e.text("description"),
                images: e.strings("images"))
        }
        content.products = entries("products.json") { e, id in self.product(e, id: id) }
        content.uses = entries("uses.json") { e, id in self.use(e, id: id) }
        content.obligations = collectObligations(&content.uses)
        content.schemes = entries("schemes.json") { e, id in self.scheme(e, id: id) }
        // Optional files (schema 2): sources without them build a catalog without limits.
        if exists("group-limits.json") {
            content.groupLimits = entries("group-limits.json") { e, id in self.groupLimit(e, id: id) }
        }
        if exists("tank-incompatibilities.json") {
            content.tankIncompatibilities = entries("tank-incompatibilities.json") { e, id in
                let products = e.strings("products")
                if products.count != 2 { e.report("field \"products\" needs exactly two product ids") }
                let reason = e.text("reason", required: true)
                return CatalogRecord.TankIncompatibility(
                    id: id, productID: products.first ?? "", otherID: products.dropFirst().first ?? "", reason: reason)
            }
        }
        content.regions = entries("regions.json") { e, id in
            let centre = e.object("centre", required: true).map { self.nested(e, $0, "centre") }
            let lat = centre?.number("lat"), lon = centre?.number("lon")
            if centre != nil && (lat == nil || lon == nil) { e.report("field \"centre\" needs numbers \"lat\" and \"lon\"") }
            if let lat, let lon, !(-90...90).contains(lat) || !(-180...180).contains(lon) {
                e.report("field \"centre\" is outside latitude -90..90 / longitude -180..180")
            }
            return CatalogRecord.Region(
                id: id, kind: e.choice("kind", Region.Kind.self, required: true) ?? .region,
                name: e.text("name", required: true), centreName: centre?.text("name") ?? [:],
                centre: Coordinates(latitude: lat ?? 0, longitude: lon ?? 0))
        }
        content.representatives = entries("representatives.json") { e, id in
            let location = e.object("location").flatMap { object -> Coordinates? in
                let l = self.nested(e, object, "location")
                guard let lat = l.number("lat"), let lon = l.number("lon") else { return nil }
                return Coordinates(latitude: lat, longitude: lon)
            }
            return CatalogRecord.Representative(
                id: id, regionID: e.string("region", required: true) ?? "", name: e.text("name", required: true),
                position: e.text("position"), phone: e.string("phone"), email: e.string("email"),
                photo: e.string("photo"), location: location)
        }
        content.distributors = entries("distributors.json") { e, id in
            CatalogRecord.Distributor(
                id: id, regionID: e.string("region", required: true) ?? "", name: e.text("name", required: true),
                address: e.text("address"), phone: e.string("phone"), email: e.string("email"),
                website: e.string("website"))
        }
        content.news = entries("news.json") { e, id in self.news(e, id: id) }
        checkReferences(content)
        checkCultureCycles(content.cultures)
        return content
    }

    // MARK: - Files and entries

    private func readHeader() -> CatalogHeader {
        let file = "catalog.json"
        let fallback = CatalogHeader(identity: "", version: 0, builtAt: "", locales: LocaleChain(locales: ["en"]), title: [:])
        guard let object = json(file) as? [String: Any] else {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
                problems.add(ContentProblem(file: file, entry: nil, problem: "must hold one JSON object"))
            }
            return fallback
        }
        // Locales first: every localized text is checked against them.
        let declared = (object["locales"] as? [String]) ?? []
        if declared.isEmpty {
            problems.add(ContentProblem(file: file, entry: nil, problem: "missing required field \"locales\""))
        }
        locales = Set(declared)
        let e = SourceEntry(fields: object, file: file, label: "catalog", locales: locales, problems: problems)
        var fallbacks: [String: [String]] = [:]
        for (locale, chain) in e.object("fallbacks") ?? [:] {
            guard let chain = chain as? [String] else {
                e.report("fallbacks of \"\(locale)\" must be a list of locales")
                continue
            }
            for code in [locale] + chain where !locales.contains(code) {
                e.report("unknown locale \"\(code)\" in field \"fallbacks\"")
            }
            fallbacks[locale] = chain
        }
        let released = e.string("released", required: true) ?? ""
        if !released.isEmpty && ISO8601DateFormatter().date(from: released) == nil {
            e.report("field \"released\" must be an ISO 8601 timestamp like 2026-11-21T00:00:00Z")
        }
        let version = e.integer("version", required: true)
        return CatalogHeader(
            identity: e.string("identity", required: true) ?? "", version: version ?? 0, builtAt: released,
            locales: LocaleChain(locales: declared, fallbacks: fallbacks),
            title: e.text("title", required: true), attribution: e.text("attribution"))
    }

    private func exists(_ file: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
    }

    private func groupLimit(_ e: SourceEntry, id: String) -> CatalogRecord.GroupLimit {
        let scheme = e.string("scheme", required: true) ?? ""
        if !scheme.isEmpty, !["FRAC", "IRAC", "HRAC"].contains(scheme) {
            e.report("field \"scheme\" must be FRAC, IRAC or HRAC")
        }
        let maxApplications = e.integer("maxApplications"), maxConsecutive = e.integer("maxConsecutive")
        let maxShare = e.number("maxShare")
        if let maxShare, !(maxShare > 0 && maxShare <= 1) { e.report("field \"maxShare\" must lie in (0, 1]") }
        if maxApplications == nil && maxConsecutive == nil && maxShare == nil {
            e.report("a limit needs \"maxApplications\", \"maxConsecutive\" or \"maxShare\"")
        }
        return CatalogRecord.GroupLimit(
            id: id,
            GroupLimit(
                scheme: scheme, group: e.string("group", required: true) ?? "", culture: e.string("culture"),
                maxApplications: maxApplications, maxConsecutive: maxConsecutive, maxShare: maxShare,
                source: e.string("source", required: true) ?? ""))
    }

    private func json(_ file: String) -> Any? {
        let url = directory.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problems.add(ContentProblem(file: file, entry: nil, problem: "file not found in \(directory.path)"))
            return nil
        }
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            problems.add(ContentProblem(file: file, entry: nil, problem: "not valid JSON: \(reason)"))
            return nil
        }
    }

    /// Reads a file holding a JSON array of entries; each must have a unique, well-formed id.
    private func entries<T>(
        _ file: String, idField: String = "id", _ make: (SourceEntry, String) -> T
    ) -> [T] {
        guard let value = json(file) else { return [] }
        guard let array = value as? [Any] else {
            problems.add(ContentProblem(file: file, entry: nil, problem: "must hold a JSON array of entries"))
            return []
        }
        var seen = Set<String>()
        var made: [(String, T)] = []
        for (index, item) in array.enumerated() {
            guard let fields = item as? [String: Any] else {
                problems.add(ContentProblem(file: file, entry: "#\(index + 1)", problem: "must be a JSON object"))
                continue
            }
            let id = (fields[idField] as? String) ?? ""
            let e = SourceEntry(
                fields: fields, file: file, label: id.isEmpty ? "#\(index + 1)" : id, locales: locales,
                problems: problems)
            guard !id.isEmpty else {
                e.report("missing required field \"\(idField)\"")
                continue
            }
            if idField == "id" && !Self.isWellFormedID(id) {
                e.report("id must be ASCII letters, digits, '.', '_' or '-', starting with a letter or digit")
            }
            guard seen.insert(id).inserted else {
                e.report("duplicate id \"\(id)\"")
                continue
            }
            made.append((id, make(e, id)))
        }
        return made.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func nested(_ parent: SourceEntry, _ fields: [String: Any], _ path: String) -> SourceEntry {
        SourceEntry(fields: fields, file: parent.file, label: "\(parent.label) \(path)", locales: locales, problems: problems)
    }

    static func isWellFormedID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
        return id.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || "._-".unicodeScalars.contains($0) }
    }

    // MARK: - Entities with structure

    private func product(_ e: SourceEntry, id: String) -> CatalogRecord.Product {
        let registration = e.object("registration").map { nested(e, $0, "registration") }
        let hazard = e.object("hazard").map { nested(e, $0, "hazard") }
        let ingredients = e.objects("ingredients").enumerated().compactMap { index, object -> CatalogRecord.Ingredient? in
            let i = nested(e, object, "ingredients[\(index)]")
            guard let substance = i.string("substance", required: true) else { return nil }
            return CatalogRecord.Ingredient(
                substanceID: substance, concentration: i.number("concentration"), unit: i.string("unit"))
        }
        let links = e.objects("links").enumerated().compactMap { index, object -> Link? in
            let l = nested(e, object, "links[\(index)]")
            guard let kind = l.choice("kind", Link.Kind.self, required: true), let url = l.string("url", required: true)
            else { return nil }
            return Link(kind: kind, url: url)
        }
        let sections = e.objects("sections").enumerated().map { index, object in
            let s = nested(e, object, "sections[\(index)]")
            return CatalogRecord.Section(title: s.text("title", required: true), body: s.text("body", required: true))
        }
        return CatalogRecord.Product(
            id: id, name: e.text("name", required: true),
            category: e.choice("category", ProductCategory.self, required: true) ?? .other,
            formulation: e.string("formulation"), companyID: e.string("company"),
            registrationNumber: registration?.string("number"), registrationExpiry: registration?.string("expires"),
            ingredients: ingredients, pictograms: hazard?.strings("pictograms") ?? [],
            signalWord: hazard?.string("signalWord"), statements: hazard?.strings("statements") ?? [],
            links: links, sections: sections)
    }

    private func use(_ e: SourceEntry, id: String) -> CatalogRecord.Use {
        var targets: [CatalogRecord.Target] = []
        _ = e.present("pests", required: true)
        for (index, item) in ((e.fields["pests"] as? [Any]) ?? []).enumerated() {
            if let pest = item as? String {
                targets.append(CatalogRecord.Target(pestID: pest))
            } else if let object = item as? [String: Any] {
                let t = nested(e, object, "pests[\(index)]")
                if let pest = t.string("pest", required: true) {
                    targets.append(CatalogRecord.Target(pestID: pest, effect: t.choice("effect", PestEffect.self) ?? .full))
                }
            } else {
                e.report("pests[\(index)] must be a pest id or {\"pest\": id, \"effect\": ...}")
            }
        }
        if e.has("pests") && targets.isEmpty { e.report("field \"pests\" must not be empty") }
        let dose = e.range("dose", required: true)
        let water = e.range("water")
        return CatalogRecord.Use(
            id: id, productID: e.string("product", required: true) ?? "", cultureIDs: e.strings("cultures", required: true),
            pests: targets, dose: Dose(from: dose?.from, to: dose?.to, unit: e.string("unit", required: true)),
            water: Dose(from: water?.from, to: water?.to, unit: water == nil ? nil : "l/ha"),
            phiDays: e.integer("phi"), maxApplications: e.integer("maxApplications"),
            intervalDays: e.integer("interval"), bbch: e.bbch("bbch"), applicationArea: e.text("area"),
            notes: e.text("notes"), obligationIDs: obligationTexts(e))
    }

    /// Obligations of a use, each as one key (its texts, canonical JSON) until
    /// `collectObligations` gives every distinct text an id; `obligationsByKey` keeps the texts.
    private func obligationTexts(_ e: SourceEntry) -> [String] {
        guard e.has("obligations") else { return [] }
        guard let items = e.fields["obligations"] as? [Any] else {
            e.report("field \"obligations\" must be a list of localized texts")
            return []
        }
        return items.indices.compactMap { index in
            let text = nested(e, ["text": items[index]], "obligations[\(index)]").text("text", required: true)
            guard !text.isEmpty, let data = try? JSONSerialization.data(withJSONObject: text, options: [.sortedKeys])
            else { return nil }
            let key = String(decoding: data, as: UTF8.self)
            obligationsByKey[key] = text
            return key
        }
    }

    /// Replaces the obligation texts of the uses by ids, one per distinct text, numbered in
    /// sorted order of the texts so the same sources give the same ids.
    private func collectObligations(_ uses: inout [CatalogRecord.Use]) -> [CatalogRecord.Obligation] {
        let keys = Set(uses.flatMap(\.obligationIDs)).sorted()
        let ids = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, String(format: "obligation-%04d", $0 + 1)) })
        for index in uses.indices { uses[index].obligationIDs = uses[index].obligationIDs.compactMap { ids[$0] } }
        return keys.compactMap { key in
            guard let id = ids[key], let text = obligationsByKey[key] else { return nil }
            return CatalogRecord.Obligation(id: id, text: text)
        }
    }

    private func scheme(_ e: SourceEntry, id: String) -> CatalogRecord.Scheme {
        let stages = e.objects("stages", required: true).enumerated().map { index, object -> CatalogRecord.SchemeStage in
            let s = nested(e, object, "stages[\(index)]")
            let treatments = s.objects("treatments").enumerated().map { t, object -> CatalogRecord.SchemeTreatment in
                let tr = nested(e, object, "stages[\(index)].treatments[\(t)]")
                let dose = tr.range("dose", required: true)
                return CatalogRecord.SchemeTreatment(
                    productID: tr.string("product", required: true) ?? "",
                    dose: Dose(from: dose?.from, to: dose?.to, unit: tr.string("unit", required: true)),
                    pestIDs: tr.strings("pests"), note: tr.text("note"))
            }
            return CatalogRecord.SchemeStage(
                bbch: s.bbch("bbch", required: true) ?? BBCHRange(from: 0, to: 0), name: s.text("name", required: true),
                treatments: treatments)
        }
        return CatalogRecord.Scheme(
            id: id, cultureID: e.string("culture", required: true) ?? "", title: e.text("title", required: true),
            description: e.text("description"), stages: stages)
    }

    private func news(_ e: SourceEntry, id: String) -> CatalogRecord.News {
        let date = e.string("date", required: true) ?? ""
        if !date.isEmpty && date.range(of: #"^\d{4}-\d{2}-\d{2}"#, options: .regularExpression) == nil {
            e.report("field \"date\" must start with a YYYY-MM-DD date")
        }
        var bodies: LocalizedText = [:]
        let newsDirectory = directory.appendingPathComponent("news")
        for file in newsFiles where file.hasPrefix(id + ".") && file.hasSuffix(".html") {
            let locale = String(file.dropFirst(id.count + 1).dropLast(".html".count))
            guard !locale.contains(".") else { continue }
            guard locales.contains(locale) else {
                problems.add(ContentProblem(file: "news/\(file)", entry: id, problem: "unknown locale \"\(locale)\""))
                continue
            }
            if let data = FileManager.default.contents(atPath: newsDirectory.appendingPathComponent(file).path),
                let html = String(data: data, encoding: .utf8)
            {
                bodies[locale] = html
            } else {
                problems.add(ContentProblem(file: "news/\(file)", entry: id, problem: "not readable as UTF-8"))
            }
        }
        if bodies.isEmpty { e.report("no body: expected news/\(id).<locale>.html") }
        return CatalogRecord.News(
            id: id, kind: e.choice("kind", NewsKind.self, required: true) ?? .news, date: date,
            title: e.text("title", required: true), summary: e.text("summary"), bodyHTML: bodies,
            image: e.string("image"), source: e.string("source"))
    }

    // MARK: - References

    private func checkReferences(_ content: CatalogContent) {
        let ids = { (list: [String]) in Set(list) }
        let companies = ids(content.companies.map(\.id)), statements = ids(content.statements.map(\.code))
        let substances = ids(content.substances.map(\.id)), cultures = ids(content.cultures.map(\.id))
        let pests = ids(content.pests.map(\.id)), products = ids(content.products.map(\.id))
        let regions = ids(content.regions.map(\.id))
        func check(_ file: String, _ entry: String, _ kind: String, _ id: String?, in known: Set<String>) {
            guard let id, !id.isEmpty, !known.contains(id) else { return }
            problems.add(ContentProblem(file: file, entry: entry, problem: "unknown \(kind) \"\(id)\""))
        }
        for c in content.cultures {
            c.parentIDs.forEach { check("cultures.json", c.id, "parent culture", $0, in: cultures) }
        }
        for p in content.products {
            check("products.json", p.id, "company", p.companyID, in: companies)
            p.ingredients.forEach { check("products.json", p.id, "substance", $0.substanceID, in: substances) }
            check("products.json", p.id, "signal word", p.signalWord, in: statements)
            p.statements.forEach { check("products.json", p.id, "statement", $0, in: statements) }
        }
        for u in content.uses {
            check("uses.json", u.id, "product", u.productID, in: products)
            u.cultureIDs.forEach { check("uses.json", u.id, "culture", $0, in: cultures) }
            u.pests.forEach { check("uses.json", u.id, "pest", $0.pestID, in: pests) }
        }
        for s in content.schemes {
            check("schemes.json", s.id, "culture", s.cultureID, in: cultures)
            for stage in s.stages {
                for t in stage.treatments {
                    check("schemes.json", s.id, "product", t.productID, in: products)
                    t.pestIDs.forEach { check("schemes.json", s.id, "pest", $0, in: pests) }
                }
            }
        }
        content.groupLimits.forEach { check("group-limits.json", $0.id, "culture", $0.limit.culture, in: cultures) }
        for t in content.tankIncompatibilities {
            check("tank-incompatibilities.json", t.id, "product", t.productID, in: products)
            check("tank-incompatibilities.json", t.id, "product", t.otherID, in: products)
        }
        content.representatives.forEach { check("representatives.json", $0.id, "region", $0.regionID, in: regions) }
        content.distributors.forEach { check("distributors.json", $0.id, "region", $0.regionID, in: regions) }
    }

    /// Culture parents must form a DAG: report a culture that is its own ancestor.
    private func checkCultureCycles(_ cultures: [CatalogRecord.Culture]) {
        let parents = Dictionary(cultures.map { ($0.id, $0.parentIDs) }, uniquingKeysWith: { a, _ in a })
        for culture in cultures {
            var stack = culture.parentIDs, visited = Set<String>()
            while let next = stack.popLast() {
                if next == culture.id {
                    problems.add(
                        ContentProblem(
                            file: "cultures.json", entry: culture.id,
                            problem: "culture is its own ancestor (parents form a cycle)"))
                    break
                }
                if visited.insert(next).inserted { stack += parents[next] ?? [] }
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
