import AgroDomain
import AgroStore
import XCTest

final class UseCaseTests: StoreTestCase {
    func testCatalogInfoReadsTheHeader() throws {
        let info = try catalog.catalogInfo()
        XCTAssertEqual(info.identity, "test.fixture")
        XCTAssertEqual(info.version, 1)
        XCTAssertEqual(info.schemaVersion, CatalogSchema.version)
        XCTAssertEqual(info.locales.locales, ["ru", "en", "kk"])
        XCTAssertEqual(info.locales.fallbacks["kk"], ["ru", "en"])
        XCTAssertEqual(info.title, "Тестовый", "title in the default locale (ru)")
    }

    func testProductFiltersBySubstanceCategoryAndCompany() throws {
        XCTAssertEqual(try productIDs(ProductFilter(substance: "tebuconazole")), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(category: .fungicide)), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(category: .herbicide)), ["p-glyph"])
        XCTAssertEqual(try productIDs(ProductFilter(company: "acme")), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(pest: "rust")), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(pest: "beetle")), ["p-lambda"])
    }

    /// Every combination of the filters (each a query shape of its own, its SQL text kept)
    /// finds what all of its filters find alone, in the order of the unfiltered list, in
    /// either language, on every page.
    func testCombinedFiltersFindWhatEachFindsAlone() throws {
        let singles: [(inout ProductFilter) -> Void] = [
            { $0.pest = "rust" }, { $0.culture = "barley" }, { $0.substance = "tebuconazole" },
            { $0.category = .fungicide }, { $0.company = "acme" }, { $0.letter = "t" },
        ]
        for locale in ["en", "ru"] {
            let all = try catalog.products(ProductFilter(), page: .all, locale: locale).items.map(\.id)
            let alone = try singles.map { set -> Set<String> in
                var filter = ProductFilter()
                set(&filter)
                return try productIDs(filter, locale: locale)
            }
            for mask in 1..<(1 << singles.count) {
                var filter = ProductFilter()
                var expected = Set(all)
                for (index, set) in singles.enumerated() where mask & (1 << index) != 0 {
                    set(&filter)
                    expected.formIntersection(alone[index])
                }
                let found = try catalog.products(filter, page: .all, locale: locale)
                XCTAssertEqual(found.items.map(\.id), all.filter(expected.contains), "\(filter) \(locale)")
                let first = try catalog.products(filter, page: PageRequest(page: 1, perPage: 1), locale: locale)
                XCTAssertEqual(first.items.map(\.id), Array(found.items.map(\.id).prefix(1)))
                XCTAssertEqual(first.total, found.total)
            }
        }
    }

    func testProductsAreOrderedByNameInTheLocale() throws {
        let en = try catalog.products(ProductFilter(), page: .all, locale: "en").items.map(\.name)
        XCTAssertEqual(
            en, ["Glyphosate 360 SL", "Lambda-cyhalothrin 50 EC", "Tebuconazole + glyphosate mix", "Tebuconazole 250 EC"])
        let ru = try catalog.products(ProductFilter(), page: .all, locale: "ru").items.map(\.name)
        XCTAssertEqual(ru, ["Глифосат 360 ВР", "Лямбда-цигалотрин 50 КЭ", "Смесь", "Тебуконазол 250 КЭ"])
    }

    func testLettersAndLetterFilter() throws {
        XCTAssertEqual(try catalog.productLetters(ProductFilter(), locale: "en"), ["G", "L", "T"])
        XCTAssertEqual(try catalog.productLetters(ProductFilter(), locale: "ru"), ["Г", "Л", "С", "Т"])
        XCTAssertEqual(try productIDs(ProductFilter(letter: "t")), ["p-tebu", "p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(letter: "с"), locale: "ru"), ["p-mix"])
        XCTAssertEqual(try productIDs(ProductFilter(category: .herbicide, letter: "T")), [])
    }

    func testProductCard() throws {
        let product = try XCTUnwrap(catalog.product(id: "p-tebu", locale: "en"))
        XCTAssertEqual(product.name, "Tebuconazole 250 EC")
        XCTAssertEqual(product.company, EntityRef(id: "acme", name: "Acme"))
        XCTAssertEqual(product.registrationNumber, "KZ-0001")
        XCTAssertEqual(product.registrationExpiry, "2030-12-31")
        XCTAssertEqual(product.ingredients.map(\.substance.id), ["tebuconazole"])
        XCTAssertEqual(product.ingredients.first?.modeOfAction, ModeOfAction(scheme: "FRAC", group: "3"))
        XCTAssertEqual(product.ingredients.first?.concentration, 250)
        XCTAssertEqual(product.hazard.pictograms, ["GHS07", "GHS09"])
        XCTAssertEqual(product.hazard.signalWord, "Warning")
        XCTAssertEqual(product.hazard.hazardStatements, [Statement(code: "H302", text: "Harmful if swallowed.")])
        XCTAssertEqual(product.hazard.precautionaryStatements, [Statement(code: "P280", text: "Wear protective gloves.")])
        XCTAssertEqual(product.links, [Link(kind: .label, url: "https://example.com/labels/p-tebu.pdf")])
        XCTAssertEqual(product.sections, [TextSection(title: "Mode of action", body: "Systemic.")])
        XCTAssertNil(try catalog.product(id: "nope", locale: "en"))
    }

    func testUsesOfAProduct() throws {
        let uses = try catalog.uses(UseFilter(product: "p-tebu"), locale: "en")
        XCTAssertEqual(uses.count, 1)
        let use = try XCTUnwrap(uses.first)
        XCTAssertEqual(use.cultures, [EntityRef(id: "cereals", name: "Cereals")])
        XCTAssertEqual(Set(use.pests.map(\.pest.id)), ["septoria", "rust"])
        XCTAssertEqual(use.dose, Dose(from: 0.5, to: 1.0, unit: "l/ha"))
        XCTAssertEqual(use.dose.label, "0.5-1 l/ha")
        XCTAssertEqual(use.phiDays, 30)
        XCTAssertEqual(use.maxApplications, 2)
        XCTAssertEqual(use.bbch, BBCHRange(from: 30, to: 69))
        XCTAssertEqual(use.notes, "Spray at first symptoms.")
        let partial = try catalog.uses(UseFilter(pest: "beetle"), locale: "en")
        XCTAssertEqual(partial.first?.pests.first?.effect, .partial)
    }

    func testSubstances() throws {
        let page = try catalog.substances(page: .all, locale: "en")
        XCTAssertEqual(page.items.map(\.id), ["glyphosate", "lambda-cyhalothrin", "tebuconazole"])
        XCTAssertEqual(try catalog.substance(id: "lambda-cyhalothrin", locale: "en")?.modeOfAction?.label, "IRAC 3A")
    }

    func testPestsByKindAndCulture() throws {
        let weeds = try catalog.pests(PestFilter(kind: .weed), page: .all, locale: "en").items.map(\.id)
        XCTAssertEqual(weeds, ["wild-oat"])
        // Pests with uses on winter wheat: through wheat (wild oat) and cereals (septoria, rust).
        let onWinterWheat = Set(try catalog.pests(PestFilter(culture: "winter-wheat"), page: .all, locale: "en").items.map(\.id))
        XCTAssertEqual(onWinterWheat, ["wild-oat", "septoria", "rust"])
        let pest = try XCTUnwrap(catalog.pest(id: "beetle", locale: "ru"))
        XCTAssertEqual(pest.latinName, "Leptinotarsa decemlineata")
        XCTAssertEqual(pest.kind, .insect)
    }

    func testCulturesAndTheirTree() throws {
        let nodes = try catalog.cultures(locale: "en")
        XCTAssertEqual(nodes.count, FixtureCatalog.cultures.count)
        XCTAssertEqual(Set(nodes.first { $0.id == "soybean" }?.parentIDs ?? []), ["legumes", "oilseeds"])
        let wheat = try XCTUnwrap(catalog.culture(id: "wheat", locale: "en"))
        XCTAssertEqual(wheat.parents.map(\.id), ["cereals"])
        XCTAssertEqual(wheat.children.map(\.id), ["winter-wheat"])
        let winter = try XCTUnwrap(catalog.culture(id: "winter-wheat", locale: "ru"))
        XCTAssertEqual(winter.growthStages.map(\.bbch), [BBCHRange(from: 0, to: 9), BBCHRange(from: 20, to: 29)])
        XCTAssertEqual(winter.growthStages.map(\.name), ["Germination", "Кущение"])
    }

    func testSchemesComeFromTheNearestGroupThatHasOne() throws {
        let own = try catalog.schemes(cultureID: "wheat", locale: "en")
        XCTAssertEqual(own.map(\.id), ["scheme-wheat"])
        let inherited = try catalog.schemes(cultureID: "winter-wheat", locale: "en")
        XCTAssertEqual(inherited.map(\.id), ["scheme-wheat"])
        let scheme = try XCTUnwrap(inherited.first)
        XCTAssertEqual(scheme.stages.map(\.bbch), [BBCHRange(from: 0, to: 9), BBCHRange(from: 30, to: 39)])
        XCTAssertEqual(scheme.stages[1].treatments.first?.product.id, "p-tebu")
        XCTAssertEqual(scheme.stages[1].treatments.first?.pests.map(\.id), ["rust", "septoria"])
        XCTAssertEqual(scheme.stages[0].treatments.first?.dose, Dose(from: 0.5, to: 0.5, unit: "l/t"))
        XCTAssertEqual(try catalog.schemes(cultureID: "barley", locale: "en"), [])
        XCTAssertEqual(try catalog.culturesWithSchemes(locale: "en").map(\.id), ["wheat"])
    }

    func testContacts() throws {
        let regions = try catalog.regions(locale: "en")
        XCTAssertEqual(regions.map(\.id), ["KZ-AKM", "KZ-AST"])
        XCTAssertEqual(regions.first?.centre, Coordinates(latitude: 53.2833, longitude: 69.3833))
        let contacts = try XCTUnwrap(catalog.contacts(regionID: "KZ-AKM", locale: "en"))
        XCTAssertEqual(contacts.representatives.map(\.name), ["Ivan Demo"])
        XCTAssertEqual(
            contacts.representatives.first?.location, Coordinates(latitude: 53.2833, longitude: 69.3833),
            "a representative without a location sits at the region's centre")
        XCTAssertEqual(contacts.distributors.map(\.address), ["1 Demo Street"])
        XCTAssertNil(try catalog.contacts(regionID: "KZ-XXX", locale: "en"))
    }

    func testNewsNewestFirstAndByKind() throws {
        XCTAssertEqual(try catalog.news(kind: nil, page: .all, locale: "en").items.map(\.id), ["n3", "n1", "n2"])
        XCTAssertEqual(try catalog.news(kind: .article, page: .all, locale: "en").items.map(\.id), ["n2"])
        let item = try XCTUnwrap(catalog.newsItem(id: "n1", locale: "ru"))
        XCTAssertEqual(item.title, "Заголовок n1")
        XCTAssertEqual(item.bodyHTML, "<p>Body of <b>n1</b> about rust</p>", "body falls back to en")
    }
}
