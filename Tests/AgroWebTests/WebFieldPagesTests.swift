import AgroTestSupport
import Foundation
import XCTest

/// The pages an agronomist decides with, read as a person reads them: every use labelled in
/// each language with no raw key, expired registrations marked wherever the product appears,
/// the uses page equal to `agro uses`, pickers instead of ids, the plan check and the tank
/// through the API with the CLI's bytes. The bundled catalog, a real server on loopback.
final class WebFieldPagesTests: BundledCatalogWebTestCase {
    static let examples = WebProcess.root.appendingPathComponent("Database/examples")

    /// The page's text as a person reads it: tags dropped, entities decoded, spaces collapsed.
    static func text(_ html: String) -> String {
        var text = html.replacingOccurrences(of: #"<(script|style)[^>]*>.*?</\1>"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    /// An interface key printed instead of its string (`use.phi`, `web.water`, `mark.expired`).
    static let rawKey =
        #"\b(use|web|mark|section|column|field|relation|effect|unit|plan|tank|weather|spray|current)\.[a-z][A-Za-z]*(\.[a-z]+)?\b"#

    func page(_ target: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let answer = try server.get(target)
        XCTAssertEqual(answer.status, 200, "\(target): \(answer.body.prefix(400))", file: file, line: line)
        let text = Self.text(answer.body)
        XCTAssertNil(
            text.range(of: Self.rawKey, options: .regularExpression).map { String(text[$0]) }, target, file: file, line: line)
        return answer.body
    }

    func json(_ target: String) throws -> [String: Any] {
        try XCTUnwrap(try server.get(target).json as? [String: Any], target)
    }

    /// Every product card in every language: each use's PHI under its label, no raw key.
    func testEveryProductCardLabelsItsUsesInEachLanguage() throws {
        let products = try XCTUnwrap(try json("/api/v1/products?all=true")["items"] as? [[String: Any]])
        XCTAssertEqual(products.count, 58)
        var withPHI = 0
        for product in products {
            let id = try XCTUnwrap(product["id"] as? String)
            let uses = try XCTUnwrap(try json("/api/v1/product/\(id)")["uses"] as? [[String: Any]])
            let phis = Set(uses.compactMap { $0["phiDays"] as? Int })
            let english = Self.text(try page("/product/\(id)?lang=en"))
            let russian = Self.text(try page("/product/\(id)?lang=ru"))
            let kazakh = Self.text(try page("/product/\(id)?lang=kk"))
            guard !phis.isEmpty else { continue }
            withPHI += 1
            XCTAssertTrue(english.contains("Pre-harvest interval"), id)
            XCTAssertTrue(russian.contains("Срок ожидания"), id)
            XCTAssertTrue(kazakh.contains("Күту мерзімі"), id)
            for phi in phis {
                XCTAssertTrue(english.contains(phi == 1 ? "1 day" : "\(phi) days"), "\(id): PHI \(phi) in English")
                XCTAssertTrue(russian.contains(RussianPlural.days(phi)), "\(id): PHI \(phi) in Russian")
                XCTAssertTrue(kazakh.contains("\(phi) күн"), "\(id): PHI \(phi) in Kazakh")
            }
            // The uses come before the hazards, which fold away.
            let html = try server.get("/product/\(id)").body
            if let hazards = html.range(of: "<details class=\"hazards\">"), let uses = html.range(of: "class=\"use-facts\"") {
                XCTAssertLessThan(uses.lowerBound, hazards.lowerBound, id)
            }
        }
        XCTAssertGreaterThan(withPHI, 40)
        // A window is one unbreakable value: "BBCH 30-39" never splits at the dash.
        let card = try page("/product/tebuconazole-250-ec?lang=ru")
        XCTAssertNotNil(
            card.range(of: #"<dd class="keep">\d+–\d+</dd>"#, options: .regularExpression), "a BBCH range, kept whole")
        XCTAssertTrue(Self.text(card).contains("Фазы (BBCH)"))
    }

    /// schemes.json: scheme-maize's pre-emergence stage is BBCH 0-8, printed with the
    /// language's `number.range` (an en dash in Russian and Kazakh, a hyphen in English).
    func testSchemeStagesUseTheLanguagesRangeSign() throws {
        let russian = Self.text(try page("/scheme/maize?lang=ru"))
        XCTAssertTrue(russian.contains("(BBCH 0–8)"), russian)
        XCTAssertFalse(russian.contains("BBCH 0-8"), russian)
        XCTAssertTrue(Self.text(try page("/scheme/maize?lang=kk")).contains("(BBCH 0–8)"))
        let english = Self.text(try page("/scheme/maize?lang=en"))
        XCTAssertTrue(english.contains("(BBCH 0-8)"), english)
        XCTAssertFalse(english.contains("BBCH 0–8"), english)
    }

    /// A scheme's heading names its culture once: "Potato", not "Potato — Potato"; a title that
    /// does not name the culture is followed by it. Every scheme of the catalog, each language.
    func testSchemeHeadingsNameTheCultureOnce() throws {
        for culture in ["maize", "potato", "soybean", "spring-barley", "spring-wheat", "sugar-beet", "winter-wheat"] {
            for locale in ["en", "ru", "kk"] {
                let schemes = try XCTUnwrap(
                    try JSONSerialization.jsonObject(
                        with: Data(try server.get("/api/v1/scheme/\(culture)?lang=\(locale)").body.utf8))
                        as? [[String: Any]])
                let headings = try page("/scheme/\(culture)?lang=\(locale)").components(separatedBy: "<h1>").dropFirst()
                    .compactMap { $0.components(separatedBy: "</h1>").first }.map(Self.text)
                XCTAssertEqual(headings.count, schemes.count, "\(culture) [\(locale)]")
                for (heading, scheme) in zip(headings, schemes) {
                    let title = try XCTUnwrap(scheme["title"] as? String)
                    let name = try XCTUnwrap((scheme["culture"] as? [String: Any])?["name"] as? String).lowercased()
                    XCTAssertTrue(heading.hasPrefix(title), "\(heading) [\(locale)]")
                    XCTAssertEqual(heading.lowercased().components(separatedBy: name).count - 1, 1, "\(heading) [\(locale)]")
                }
            }
        }
    }

    /// The card offers the alternatives (`agro product ID --alternatives`) and lists them, in
    /// the CLI's order, when asked.
    func testTheProductCardListsItsAlternatives() throws {
        let card = try page("/product/tebuconazole-250-ec")
        XCTAssertTrue(card.contains("href=\"/product/tebuconazole-250-ec?alternatives=1#alternatives\""))
        let html = try page("/product/tebuconazole-250-ec?alternatives=1&lang=ru")
        let section =
            html.components(separatedBy: "<section id=\"alternatives\">").last?.components(separatedBy: "</section>").first ?? ""
        let listed = section.components(separatedBy: "<li><a href=\"/product/").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        let cli = try server.cli([
            "--catalog", Self.catalog, "product", "tebuconazole-250-ec", "--alternatives", "--lang", "ru", "--format", "json",
        ])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let items = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertFalse(items.isEmpty)
        XCTAssertEqual(listed, Array(items.compactMap { $0["id"] as? String }.prefix(30)))
        XCTAssertTrue(Self.text(section).contains("другой механизм действия"), "the relation in Russian")
    }

    /// The registrations `Database/content/products.json` says have ended, read from the
    /// source (id, English and Russian name).
    func expiredProducts() throws -> [(id: String, en: String, ru: String)] {
        let data = try Data(contentsOf: WebProcess.root.appendingPathComponent("Database/content/products.json"))
        let products = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: Date())
        return products.compactMap { product in
            guard let expires = (product["registration"] as? [String: Any])?["expires"] as? String, expires < today,
                let names = product["name"] as? [String: String]
            else { return nil }
            return (product["id"] as? String ?? "", names["en"] ?? "", names["ru"] ?? "")
        }
    }

    func testExpiredRegistrationsAreMarkedWhereverTheProductAppears() throws {
        let expired = try expiredProducts()
        XCTAssertTrue(expired.contains { $0.id == "propiconazole-250-ec" }, "the source's expired product")
        func marked(_ html: String, _ name: String, _ mark: String, _ target: String) {
            let text = Self.text(html)
            XCTAssertTrue(text.contains(name), "\(target) lists \(name)")
            XCTAssertNotNil(
                text.range(
                    of: NSRegularExpression.escapedPattern(for: name) + #" [^·]{0,20}"# + mark, options: .regularExpression),
                "\(target): \(name) is marked \(mark)")
        }
        for product in expired {
            marked(try page("/product/\(product.id)"), product.en, "registration expired", "card")
            marked(try page("/product/\(product.id)?lang=ru"), product.ru, "регистрация истекла", "card ru")
            marked(try page("/products?all=true"), product.en, "registration expired", "list")
            marked(
                try page("/?q=" + (product.en.split(separator: " ").first ?? "")), product.en, "registration expired", "search")
        }
        // Propiconazole is offered against septoria on wheat: marked on the pest card and the uses page.
        marked(try page("/pest/zymoseptoria-tritici"), "Propiconazole 250 g/L EC", "registration expired", "pest card")
        marked(
            try page("/uses?pest=zymoseptoria-tritici&culture=winter-wheat&all=true"), "Propiconazole 250 g/L EC",
            "registration expired", "uses")
        let current = Self.text(try page("/product/tebuconazole-250-ec"))
        XCTAssertFalse(current.contains("registration expired"))
    }

    /// The rows of the uses page: product ids in order, from the product links of the rows.
    static func rowProducts(_ html: String) -> [String] {
        let pattern = try! NSRegularExpression(
            pattern: #"<li class="use-row[^"]*">\s*<p class="targets"><a href="/product/([^"]+)">"#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    /// What a person reads in each row of the uses page against fusarium head blight on wheat,
    /// written by hand from Database/content (uses u-0097 and u-0123, their products' names):
    /// the product, its dose and its pre-harvest interval, in each language.
    func testTheUsesRowsReadAsTheRegisterSays() throws {
        // (language, [(product id, its name, dose, pre-harvest interval)])
        let cases: [(String, [(String, String, String, String)])] = [
            (
                "en",
                [
                    (
                        "prothioconazole-tebuconazole-250-ec", "Prothioconazole 125 g/L + tebuconazole 125 g/L EC",
                        "Dose 0.8-1 l/ha", "Pre-harvest interval 35 days"
                    ),
                    ("tebuconazole-250-ec", "Tebuconazole 250 g/L EC", "Dose 0.75-1 l/ha", "Pre-harvest interval 30 days"),
                ]
            ),
            (
                "ru",
                [
                    (
                        "prothioconazole-tebuconazole-250-ec", "Протиоконазол 125 г/л + тебуконазол 125 г/л КЭ",
                        "Норма 0,8–1 л/га", "Срок ожидания 35 дней"
                    ),
                    ("tebuconazole-250-ec", "Тебуконазол 250 г/л КЭ", "Норма 0,75–1 л/га", "Срок ожидания 30 дней"),
                ]
            ),
            (
                "kk",
                [
                    (
                        "prothioconazole-tebuconazole-250-ec", "Протиоконазол 125 г/л + тебуконазол 125 г/л КЭ",
                        "Мөлшер 0,8–1 л/га", "Күту мерзімі 35 күн"
                    ),
                    ("tebuconazole-250-ec", "Тебуконазол 250 г/л КЭ", "Мөлшер 0,75–1 л/га", "Күту мерзімі 30 күн"),
                ]
            ),
        ]
        for (language, rows) in cases {
            let html = try page("/uses?pest=fusarium-graminearum&culture=wheat&all=true&lang=\(language)")
            // Each row's text, from its `<li>` to the next.
            let texts = html.components(separatedBy: "<li class=\"use-row").dropFirst().map {
                Self.text($0.components(separatedBy: "</li>")[0])
            }
            XCTAssertEqual(Set(Self.rowProducts(html)), Set(rows.map(\.0)), language)
            for (id, name, dose, phi) in rows {
                let row = try XCTUnwrap(
                    zip(Self.rowProducts(html), texts).first { $0.0 == id }?.1, "\(language): the row of \(id)")
                XCTAssertTrue(row.contains(name), "\(language): \(row)")
                XCTAssertTrue(row.contains(dose), "\(language): \(dose) in \(row)")
                XCTAssertTrue(row.contains(phi), "\(language): \(phi) in \(row)")
            }
        }
    }

    func testTheUsesPageListsWhatAgroUsesLists() throws {
        let cases: [(String, [String])] = [
            ("pest=zymoseptoria-tritici&culture=winter-wheat", ["--pest", "zymoseptoria-tritici", "--culture", "winter-wheat"]),
            (
                "pest=zymoseptoria-tritici&culture=winter-wheat&sort=phi",
                ["--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--sort", "phi"]
            ),
            (
                "pest=zymoseptoria-tritici&culture=winter-wheat&sort=dose",
                ["--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--sort", "dose"]
            ),
            (
                "pest=zymoseptoria-tritici&culture=winter-wheat&group=FRAC+3",
                ["--pest", "zymoseptoria-tritici", "--culture", "winter-wheat", "--group", "FRAC 3"]
            ),
            ("culture=winter+wheat", ["--culture", "winter wheat"]),
        ]
        for (query, arguments) in cases {
            let html = try page("/uses?\(query)&all=true&lang=ru")
            let cli = try server.cli(
                ["--catalog", Self.catalog, "uses"] + arguments + ["--all", "--format", "json", "--lang", "ru"])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            let items = try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
            XCTAssertFalse(items.isEmpty, query)
            XCTAssertEqual(Self.rowProducts(html), items.compactMap { $0["productId"] as? String }, query)
            let text = Self.text(html)
            for item in items {
                if let phi = item["phiDays"] as? Int {
                    XCTAssertTrue(text.contains(RussianPlural.days(phi)), "\(query): PHI \(phi)")
                }
                for group in item["groups"] as? [String] ?? [] { XCTAssertTrue(text.contains(group), "\(query): \(group)") }
                XCTAssertTrue(text.contains(item["name"] as? String ?? "?"))
            }
        }
        // The group filter offers the groups of the rows; the pickers show names, the choice kept.
        let html = try page("/uses?pest=zymoseptoria-tritici&culture=winter+wheat")
        XCTAssertTrue(html.contains("<option value=\"FRAC 3\">FRAC 3</option>"), "the group filter")
        XCTAssertTrue(html.contains("<option value=\"winter-wheat\" selected>Winter wheat</option>"), "the culture picker")
        XCTAssertTrue(try page("/uses?culture=winter-wheat&lang=kk").contains(">Күздік бидай</option>"), "Kazakh names")
        // Reached from the pest card (a culture chosen) and from the culture card.
        let pest = try page("/pest/zymoseptoria-tritici")
        XCTAssertTrue(pest.contains("<form class=\"filters\" action=\"/uses#results\" method=\"get\">"))
        XCTAssertTrue(pest.contains("<input type=\"hidden\" name=\"pest\" value=\"zymoseptoria-tritici\">"))
        let culture = try page("/culture/winter-wheat")
        XCTAssertTrue(
            culture.contains("href=\"/uses?culture=winter-wheat&amp;pest=zymoseptoria-tritici\""), "the culture card's pests")
        // Each card names its EPPO code, in the page's language.
        XCTAssertTrue(
            culture.contains("EPPO code&nbsp;<span translate=\"no\">TRZAW</span>"),
            "the culture's EPPO code")
        XCTAssertTrue(
            pest.contains("EPPO code&nbsp;<span translate=\"no\">SEPTTR</span>"), "the pest's EPPO code")
        XCTAssertTrue(
            try page("/culture/spring-barley?lang=ru").contains(
                "Код EPPO&nbsp;<span translate=\"no\">HORVS</span>"))
    }

    /// Wheat against septoria: wheat's own use (propiconazole, expired), then the six
    /// products registered on each of spring and winter wheat under the member's name, and a
    /// sentence saying so in the page's language; written by hand from `Database/content`
    /// (uses u-0100, u-0095...u-0122).
    func testAGroupListsItsMembersUsesByMemberAndSaysSo() throws {
        let sentence = [
            "en":
                "Wheat includes Spring wheat, Winter wheat: what is registered on each of them is listed too, under its name, after what is registered on Wheat itself.",
            "ru":
                "«Пшеница» включает: Пшеница озимая, Пшеница яровая. Зарегистрированное на каждой из них тоже показано, под её названием, после зарегистрированного на самой культуре «Пшеница».",
            "kk":
                "«Бидай» құрамына кіретін дақылдар: Жаздық бидай, Күздік бидай. Олардың әрқайсысына тіркелгендер де өз атауымен, «Бидай» дақылының өзіне тіркелгендерден кейін көрсетілген.",
        ]
        // The headings in the page's name order: wheat itself, then its members.
        let headings = [
            "en": ["Wheat", "Spring wheat", "Winter wheat"], "ru": ["Пшеница", "Пшеница озимая", "Пшеница яровая"],
            "kk": ["Бидай", "Жаздық бидай", "Күздік бидай"],
        ]
        let tebuconazole = ["en": "Tebuconazole 250 g/L EC", "ru": "Тебуконазол 250 г/л КЭ", "kk": "Тебуконазол 250 г/л КЭ"]
        for locale in ["en", "ru", "kk"] {
            let html = try page("/uses?culture=wheat&pest=zymoseptoria-tritici&lang=\(locale)")
            let text = Self.text(html)
            XCTAssertTrue(text.contains(sentence[locale] ?? "?"), "\(locale): \(text)")
            let shown = html.components(separatedBy: "<h2 class=\"member\">").dropFirst()
                .compactMap { $0.components(separatedBy: "</h2>").first }
            XCTAssertEqual(shown, headings[locale], locale)
            let products = Self.rowProducts(html)
            XCTAssertEqual(products.count, 13, "\(locale): one on wheat, six on each member")
            XCTAssertEqual(products.first, "propiconazole-250-ec", locale)
            XCTAssertEqual(products.filter { $0 == "tebuconazole-250-ec" }.count, 2, "\(locale): once per member")
            XCTAssertEqual(text.components(separatedBy: tebuconazole[locale] ?? "?").count - 1, 2, locale)
        }
        // Winter wheat itself has no member: no sentence, no headings, its seven products.
        let winter = try page("/uses?culture=winter-wheat&pest=zymoseptoria-tritici&lang=kk")
        XCTAssertFalse(winter.contains("class=\"members\""))
        XCTAssertFalse(winter.contains("<h2 class=\"member\">"))
        XCTAssertEqual(Self.rowProducts(winter).count, 7)
    }

    /// The pest picker offers the pests registered on the chosen crop (its groups, its members)
    /// first, under a label naming the crop, then every other pest; the form folds away once a
    /// question is asked and sends the person to the answer (`#results`).
    func testThePestPickerOffersTheCropsPestsFirstAndTheAnswerComesFirst() throws {
        let html = try page("/uses?culture=wheat&pest=zymoseptoria-tritici&lang=kk")
        let picker = try XCTUnwrap(
            html.components(separatedBy: "<select name=\"pest\">").dropFirst().first?.components(separatedBy: "</select>")
                .first)
        let groups = picker.components(separatedBy: "<optgroup label=\"").dropFirst()
        XCTAssertEqual(groups.count, 2, picker)
        let registered = try XCTUnwrap(groups.first), others = try XCTUnwrap(groups.last)
        XCTAssertTrue(registered.hasPrefix("«Бидай» дақылында тіркелгендер\">"), registered)
        XCTAssertTrue(others.hasPrefix("Басқа зиянды ағзалар\">"), others)
        // Both septorias of wheat among the first; soybean's septoria among the others.
        XCTAssertTrue(
            registered.contains("<option value=\"zymoseptoria-tritici\" selected>Бидай жапырағының септориозы</option>"))
        XCTAssertTrue(registered.contains("<option value=\"parastagonospora-nodorum\">Масақ септориозы (стагоноспороз)</option>"))
        XCTAssertFalse(registered.contains("septoria-glycines"))
        XCTAssertTrue(others.contains("<option value=\"septoria-glycines\">Сояның септориозы</option>"))
        XCTAssertFalse(others.contains("zymoseptoria-tritici"))
        // Every pest is offered once.
        let pests = try XCTUnwrap(try json("/api/v1/pests?lang=kk&perPage=500")["items"] as? [[String: Any]])
        XCTAssertEqual(picker.components(separatedBy: "<option value=\"").count - 2, pests.count, "every pest, and \"any\"")

        // Asked: the form folded under its summary, the answer first; not asked: the form open.
        XCTAssertTrue(html.contains("<details class=\"ask\"><summary>Дақыл, зиянды ағза және сүзгілер</summary>"))
        XCTAssertTrue(html.contains("<form class=\"filters\" action=\"/uses#results\" method=\"get\">"))
        XCTAssertTrue(html.contains("<h1 id=\"results\">"), "the form sends to the question and its answer")
        XCTAssertTrue(
            try page("/uses?lang=ru").contains(
                "<details class=\"ask\" open><summary>Культура, вредный объект и фильтры</summary>"))
        // Septoria is not registered on potato: nothing to show, the form stays open to change the question.
        let none = try page("/uses?culture=potato&pest=zymoseptoria-tritici&lang=en")
        XCTAssertTrue(none.contains("<details class=\"ask\" open><summary>Crop, pest and filters</summary>"), none)
        XCTAssertTrue(Self.text(none).contains("Nothing found."), none)
    }

    /// The pest card's culture picker asks ("choose a culture", in the page's language) instead of
    /// starting on the first culture; the uses page answers once one is chosen.
    func testPestCardAsksForACulture() throws {
        let choose = ["en": "— choose a culture —", "ru": "— выберите культуру —", "kk": "— дақылды таңдаңыз —"]
        let wheat = ["en": "Winter wheat", "ru": "Пшеница озимая", "kk": "Күздік бидай"]
        for (locale, prompt) in choose {
            let html = try page("/pest/zymoseptoria-tritici?lang=\(locale)")
            let picker = try XCTUnwrap(
                html.components(separatedBy: "<select name=\"culture\" required>").dropFirst().first?
                    .components(separatedBy: "</select>").first, html)
            XCTAssertTrue(picker.hasPrefix("<option value=\"\">\(prompt)</option><option value=\""), picker)
            XCTAssertFalse(picker.contains(" selected"), picker)
            XCTAssertTrue(picker.contains("<option value=\"winter-wheat\">\(wheat[locale] ?? "?")</option>"), picker)

            // What the form sends once winter wheat is chosen: the uses on it, the choice kept.
            let uses = try page("/uses?pest=zymoseptoria-tritici&culture=winter-wheat&lang=\(locale)")
            XCTAssertTrue(uses.contains("<option value=\"winter-wheat\" selected>\(wheat[locale] ?? "?")</option>"), locale)
            XCTAssertTrue(Self.text(uses).contains("Propiconazole 250 g/L EC") || locale != "en", locale)
            XCTAssertTrue(Self.text(uses).contains("Пропиконазол 250 г/л КЭ") || locale == "en", locale)
        }
    }

    /// The pest card names each product once, with all its uses against the pest under it: as
    /// many products and uses as the API's pest document lists, every use's cultures shown.
    func testPestCardListsEachProductOnceWithItsUses() throws {
        let pest = "zymoseptoria-tritici"
        let uses = try XCTUnwrap(try json("/api/v1/pest/\(pest)")["uses"] as? [[String: Any]])
        let products = Set(uses.compactMap { ($0["product"] as? [String: Any])?["id"] as? String })
        XCTAssertGreaterThan(uses.count, products.count, "the fixture has a product with several uses against septoria")
        let html = try page("/pest/\(pest)")
        let list = try XCTUnwrap(
            html.components(separatedBy: "<ul class=\"uses items\">").dropFirst().first?.components(separatedBy: "</ul>")
                .first)
        let entries = list.components(separatedBy: "<li>").dropFirst()
        XCTAssertEqual(entries.count, products.count, "one entry per product")
        for product in products {
            XCTAssertEqual(list.components(separatedBy: "<a href=\"/product/\(product)\">").count - 1, 1, product)
        }
        XCTAssertEqual(list.components(separatedBy: "<div class=\"use\">").count - 1, uses.count, "every use shown")
        XCTAssertTrue(html.contains(">Products against it (\(products.count))<"), "the heading counts the entries")
    }

    /// The card's formulation in Kazakh: the abbreviation the product's Kazakh name ends with,
    /// then the international code; never the code alone.
    func testProductCardWritesTheFormulationInTheReadersLanguage() throws {
        let product = try json("/api/v1/product/tebuconazole-250-ec?lang=kk")
        let name = try XCTUnwrap(product["name"] as? String)
        let code = try XCTUnwrap(product["formulation"] as? String)
        let abbreviation = try XCTUnwrap(name.split(separator: " ").last)
        let card = Self.text(try page("/product/tebuconazole-250-ec?lang=kk"))
        XCTAssertNotNil(card.range(of: "\(abbreviation) \\([^)]+, \(code)\\)", options: .regularExpression), card)
    }

    /// The product card groups its uses under their cultures, each culture a link in the group's
    /// heading, and does not repeat them under every use.
    func testProductCardNamesEachUsesCulturesOnceAsItsHeading() throws {
        let uses = try XCTUnwrap(try json("/api/v1/product/mcpa-750-sl")["uses"] as? [[String: Any]])
        let groups = Set(uses.map { (($0["cultures"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String } })
        XCTAssertGreaterThan(groups.count, 1)
        let html = try page("/product/mcpa-750-sl")
        let headings = html.components(separatedBy: "<section class=\"uses\"").dropFirst()
            .compactMap { $0.components(separatedBy: "<h3>").dropFirst().first?.components(separatedBy: "</h3>").first }
        XCTAssertEqual(headings.count, groups.count)
        for cultures in groups {
            XCTAssertTrue(
                headings.contains { heading in cultures.allSatisfy { heading.contains("<a href=\"/culture/\($0)\">") } },
                "\(cultures) heads a group")
        }
        XCTAssertFalse(Self.text(html).contains("Cultures:"), "no culture line under each use")
    }

    /// A card with many uses says at its top how many uses on how many crops (counted here from
    /// the API's document: its uses, their distinct cultures), and lists its crop groups as
    /// links to them above the uses, one per group.
    func testProductCardCountsItsUsesAndCropsAndJumpsToEachGroup() throws {
        let uses = try XCTUnwrap(try json("/api/v1/product/lambda-cyhalothrin-50-ec")["uses"] as? [[String: Any]])
        let crops = Set(uses.flatMap { (($0["cultures"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String } })
        XCTAssertGreaterThan(crops.count, 1)
        let html = try page("/product/lambda-cyhalothrin-50-ec")
        XCTAssertTrue(
            html.contains("<a href=\"#uses\">\(uses.count) registered uses on \(crops.count) crops</a>"),
            "the summary at the top")
        let sections = html.components(separatedBy: "<section class=\"uses\" id=\"").dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        let jumps = html.components(separatedBy: "<nav class=\"jump\"").dropFirst().first?
            .components(separatedBy: "</nav>").first?.components(separatedBy: "<a href=\"#").dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        XCTAssertGreaterThan(sections.count, 1)
        XCTAssertEqual(jumps, sections, "one link per crop group, in their order")
        let summary = try XCTUnwrap(html.range(of: "href=\"#uses\""))
        let firstGroup = try XCTUnwrap(html.range(of: "<section class=\"uses\""))
        XCTAssertLessThan(summary.lowerBound, firstGroup.lowerBound)
    }

    /// The home page asks the app's question with pickers: a form to the uses page with every
    /// culture and pest by name in the page's language; a search answers without it.
    func testHomePageOffersTheUsesComparison() throws {
        let cultures = try XCTUnwrap(try json("/api/v1/cultures?lang=kk&perPage=500")["items"] as? [[String: Any]])
        let home = try page("/?lang=kk")
        let form = try XCTUnwrap(
            home.components(separatedBy: "<form class=\"filters\" action=\"/uses#results\" method=\"get\">").dropFirst().first?
                .components(separatedBy: "</form>").first, home)
        for culture in cultures {
            let id = try XCTUnwrap(culture["id"] as? String), name = try XCTUnwrap(culture["name"] as? String)
            XCTAssertTrue(form.contains("<option value=\"\(id)\">\(name)</option>"), "\(id) \(name)")
        }
        XCTAssertTrue(form.contains("<select name=\"pest\">"))
        XCTAssertTrue(Self.text(home).contains("Дақылды зиянды ағзадан немен қорғауға болады?"))
        XCTAssertFalse(try page("/?q=wheat").contains("action=\"/uses#results\""), "a search's answer is the hits")
        // What the form sends answers with the uses of that pest on that culture.
        XCTAssertTrue(
            Self.text(try page("/uses?culture=winter-wheat&pest=zymoseptoria-tritici&lang=kk")).contains("Тебуконазол 250 г/л КЭ")
        )
    }

    func testPickersAndEchoedQueries() throws {
        let products = try page("/products?culture=winter+wheat&lang=ru")
        XCTAssertTrue(products.contains("<select name=\"culture\">"))
        XCTAssertTrue(
            products.contains("<option value=\"winter-wheat\" selected>Пшеница озимая</option>"), "chosen by name, not id")
        XCTAssertTrue(try page("/?q=winter+wheat").contains("value=\"winter wheat\""), "a space, not a plus")
        // The language links keep the query, spaces encoded as spaces.
        XCTAssertTrue(try page("/?q=winter+wheat").contains("href=\"/?q=winter%20wheat&amp;lang=ru\""))
    }

    /// Every link from the cultures tree answers, schemes included (none where no scheme exists).
    func testCultureTreeLinksAnswer() throws {
        let html = try page("/cultures")
        let links = Set(
            html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
                .filter { $0.hasPrefix("/scheme/") || $0.hasPrefix("/culture/") })
        XCTAssertGreaterThan(links.filter { $0.hasPrefix("/scheme/") }.count, 3)
        for link in links { _ = try page(link.replacingOccurrences(of: "&amp;", with: "&")) }
        let substance = try page("/substance/tebuconazole")
        XCTAssertTrue(Self.text(substance).contains("FRAC 3"))
        XCTAssertTrue(substance.contains("href=\"/product/tebuconazole-250-ec\""))
    }

    func testPlanCheckAnswersWithTheCLIsJSON() throws {
        for (file, type, locale) in [
            ("winter-wheat-kz-fails.json", "application/json", "en"), ("winter-wheat-kz.json", "application/json", "ru"),
            ("winter-wheat-kz.csv", "text/csv", "kk"),
        ] {
            let path = Self.examples.appendingPathComponent(file).path
            let answer = try server.exchange(
                "POST", "/api/v1/plan/check?lang=\(locale)", headers: ["Content-Type": type],
                body: try Data(contentsOf: URL(fileURLWithPath: path)))
            XCTAssertEqual(answer.status, 200, answer.body)
            let cli = try server.cli(["--catalog", Self.catalog, "--lang", locale, "plan", "check", path, "--format", "json"])
            XCTAssertEqual(cli.status, file.contains("fails") ? 20 : 0, cli.stderr)
            XCTAssertEqual(answer.body, cli.stdout, file)
        }
        let bad = try server.exchange(
            "POST", "/api/v1/plan/check", headers: ["Content-Type": "application/json"],
            body: Data("{\"culture\": \"winter-wheat\"}".utf8))
        XCTAssertEqual(bad.status, 400, bad.body)

        // The page: a file uploaded, the findings under their application as the CLI groups them.
        let boundary = "agro-test-boundary"
        var body = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"plan.json\"\r\nContent-Type: application/json\r\n\r\n"
                .utf8)
        body += try Data(contentsOf: Self.examples.appendingPathComponent("winter-wheat-kz-fails.json"))
        body += Data("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n\r\n--\(boundary)--\r\n".utf8)
        let posted = try server.exchange(
            "POST", "/plan?lang=ru", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
        XCTAssertEqual(posted.status, 200, posted.body)
        let applications =
            posted.body.components(separatedBy: "<ol class=\"applications\">").last?.components(separatedBy: "</ol>").first ?? ""
        let items = Array(applications.components(separatedBy: "<p><strong>").dropFirst())
        XCTAssertEqual(items.count, 5, "one entry per application")
        XCTAssertTrue(items[0].contains("[норма]"), "application 1 holds the dose finding, its rule in Russian")
        XCTAssertFalse(items[1].contains("class=\"finding error\""), "application 2 passes")
        XCTAssertTrue(items[4].contains("[срок ожидания]"), "application 5 holds the PHI finding, its rule in Russian")
        XCTAssertFalse(posted.body.contains("[pre_harvest_interval]"), "no rule code on a Russian page")
        XCTAssertTrue(Self.text(posted.body).contains("Весь сезон"), "the whole season's findings")
        XCTAssertEqual(posted.body.components(separatedBy: "class=\"finding error\"").count - 1, 4, "4 violations")

        // The short form: one application, read through the plan CSV.
        let form =
            "culture=winter-wheat&harvest=2026-07-28&date1=2026-04-28&bbch1=25&product1=tribenuron-750-wg&dose1=30&unit1=g%2Fha&pests1=descurainia-sophia"
        let filled = try server.exchange(
            "POST", "/plan", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        XCTAssertEqual(filled.status, 200, filled.body)
        XCTAssertTrue(Self.text(filled.body).contains("[dose]"), Self.text(filled.body))
    }

    func testTankAnswersWithTheCLIsJSON() throws {
        let cases: [(String, [String])] = [
            (
                "product=tebuconazole-250-ec&dose=0.75&unit=l/ha&area=100&water=200&tank=3000",
                [
                    "--product", "tebuconazole-250-ec", "--dose", "0.75", "--unit", "l/ha", "--area", "100", "--water", "200",
                    "--tank", "3000",
                ]
            ),
            (
                "product=tribenuron-750-wg&dose=20&unit=g/ha&product=fenoxaprop-69-ew&dose=0.8&unit=l/ha&area=120&water=150&tank=2500&lang=ru",
                [
                    "--product", "tribenuron-750-wg", "--dose", "20", "--unit", "g/ha", "--product", "fenoxaprop-69-ew", "--dose",
                    "0.8",
                    "--unit", "l/ha", "--area", "120", "--water", "150", "--tank", "2500", "--lang", "ru",
                ]
            ),
            (
                "product=propiconazole-250-ec&dose=0.5&area=10&water=200&tank=600",
                ["--product", "propiconazole-250-ec", "--dose", "0.5", "--area", "10", "--water", "200", "--tank", "600"]
            ),
        ]
        for (query, arguments) in cases {
            let answer = try server.get("/api/v1/tank?\(query)")
            XCTAssertEqual(answer.status, 200, answer.body)
            let cli = try server.cli(["--catalog", Self.catalog, "tank"] + arguments + ["--format", "json"])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(answer.body, cli.stdout, query)
        }
        let negative = try server.get("/api/v1/tank?product=tebuconazole-250-ec&dose=-1&area=100&water=200&tank=3000")
        XCTAssertEqual(negative.status, 400)
        let cli = try server.cli([
            "--catalog", Self.catalog, "tank", "--product", "tebuconazole-250-ec", "--dose=-1", "--area", "100",
            "--water", "200", "--tank", "3000",
        ])
        XCTAssertEqual(cli.status, 64)
        let error = try XCTUnwrap((negative.json as? [String: Any])?["error"] as? [String: Any])
        // The same words, each front naming the parameter as it takes it: `--dose`, `dose=`.
        XCTAssertEqual(
            "agro: " + (error["message"] as? String ?? "").replacingOccurrences(of: "dose=", with: "--dose") + "\n", cli.stderr)
        XCTAssertFalse((error["message"] as? String ?? "").contains("--"), "an API message names no command-line flag")

        // Numbers each finite whose quotient is not: a clear 400 in the request's language, no "inf".
        for lang in ["en", "ru", "kk"] {
            let huge = try server.get(
                "/api/v1/tank?product=tebuconazole-250-ec&dose=1&area=100&water=1e-300&tank=1e300&lang=\(lang)")
            XCTAssertEqual(huge.status, 400, huge.body)
            let message = try XCTUnwrap(((huge.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String)
            XCTAssertFalse(message.contains("inf") || message.contains("Encoding") || message.contains("--"), message)
            XCTAssertTrue(message.contains("water=") && message.contains("tank="), message)
            XCTAssertEqual(lang == "en", message.contains("check"), message)
            let page = try server.get("/tank?product=tebuconazole-250-ec&dose=1&area=100&water=1e-300&tank=1e300&lang=\(lang)")
            XCTAssertFalse(Self.text(page.body).contains("inf ha"), "the page must not say it covers inf ha")
        }

        // A dose that is not a number and a missing area: 400, each naming its parameter.
        let words = try server.get("/api/v1/tank?product=tebuconazole-250-ec&dose=abc&area=100&water=200&tank=3000")
        XCTAssertEqual(words.status, 400, words.body)
        XCTAssertTrue(words.body.contains("dose"), words.body)
        let noArea = try server.get("/api/v1/tank?product=tebuconazole-250-ec&dose=1&water=200&tank=3000")
        XCTAssertEqual(noArea.status, 400, noArea.body)
        XCTAssertTrue(noArea.body.contains("area= is needed"), noArea.body)

        // The page: a decimal comma typed, the loads in the page's language. 100 ha at 200 l/ha
        // is 20000 l: 6 full loads of 3000 l (15 ha, 11.25 l of product each) and one of 2000 l
        // (10 ha, 7.5 l); 75 l in all, 18750 g of tebuconazole at 250 g/l.
        let html = try page(
            "/tank?product=tebuconazole-250-ec&dose=0%2C75&unit=l%2Fha&product=&dose=&area=100&water=200&tank=3000&lang=ru")
        let result = Self.text(
            html.components(separatedBy: "id=\"result\"").last?.components(separatedBy: "</section>").first ?? "")
        // The loads counted as Russian counts them, as `agro tank` words them.
        for expected in [
            "20 000 л", "7 заправок: 6 полных по 3000 л и последняя 2000 л", "15 га", "11,25 л", "7,5 л", "75 л", "18 750 г",
        ] {
            XCTAssertTrue(result.contains(expected), "\(expected) in \(result)")
        }
        // Thousands grouped as Russian writes them, with a no-break space that never wraps.
        XCTAssertTrue(html.contains("20\u{00A0}000 л") && html.contains("18\u{00A0}750 г"), html)
    }
}
