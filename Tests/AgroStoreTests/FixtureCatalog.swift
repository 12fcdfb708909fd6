import AgroDomain
import AgroStore
import Foundation

/// A small catalog written by hand for the store tests. Every expected answer in the tests is
/// worked out from these records, not from the program's output.
enum FixtureCatalog {
    static let locales = LocaleChain(locales: ["ru", "en", "kk"], fallbacks: ["kk": ["ru", "en"], "ru": ["en"], "en": ["ru"]])

    static func header(version: Int = 1) -> CatalogHeader {
        CatalogHeader(
            identity: "test.fixture", version: version, builtAt: "2026-01-01T00:00:00Z", locales: locales,
            title: ["en": "Fixture", "ru": "Тестовый"], attribution: ["en": "Written by hand for tests"])
    }

    /// Writes the fixture to a new temporary file and returns its path.
    static func write(version: Int = 1, extra: (CatalogWriter) throws -> Void = { _ in }) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-fixture-\(UUID().uuidString).sqlite").path
        let writer = try CatalogWriter(path: path, header: header(version: version))
        try writer.add(CatalogRecord.Company(id: "acme", name: ["ru": "Акме", "en": "Acme"]))
        try writer.add(
            CatalogRecord.Statement(code: "H302", text: ["en": "Harmful if swallowed.", "ru": "Вредно при проглатывании."]))
        try writer.add(CatalogRecord.Statement(code: "P280", text: ["en": "Wear protective gloves."]))
        try writer.add(CatalogRecord.Statement(code: "warning", text: ["en": "Warning", "ru": "Осторожно"]))
        try writer.add(
            CatalogRecord.Substance(
                id: "tebuconazole", name: ["en": "Tebuconazole", "ru": "Тебуконазол"],
                modeOfAction: ModeOfAction(scheme: "FRAC", group: "3")))
        try writer.add(
            CatalogRecord.Substance(
                id: "glyphosate", name: ["en": "Glyphosate", "ru": "Глифосат"],
                modeOfAction: ModeOfAction(scheme: "HRAC", group: "9")))
        try writer.add(
            CatalogRecord.Substance(
                id: "lambda-cyhalothrin", name: ["en": "Lambda-cyhalothrin", "ru": "Лямбда-цигалотрин"],
                modeOfAction: ModeOfAction(scheme: "IRAC", group: "3A")))
        for culture in cultures { try writer.add(culture) }
        for pest in pests { try writer.add(pest) }
        for product in products { try writer.add(product) }
        for use in uses { try writer.add(use) }
        try writer.add(
            CatalogRecord.Scheme(
                id: "scheme-wheat", cultureID: "wheat", title: ["en": "Wheat programme", "ru": "Схема для пшеницы"],
                stages: [
                    CatalogRecord.SchemeStage(
                        bbch: BBCHRange(from: 0, to: 9), name: ["en": "Seed treatment", "ru": "Протравливание"],
                        treatments: [
                            CatalogRecord.SchemeTreatment(
                                productID: "p-tebu", dose: Dose(from: 0.5, to: 0.5, unit: "l/t"), pestIDs: ["septoria"])
                        ]),
                    CatalogRecord.SchemeStage(
                        bbch: BBCHRange(from: 30, to: 39), name: ["en": "Stem elongation", "ru": "Выход в трубку"],
                        treatments: [
                            CatalogRecord.SchemeTreatment(
                                productID: "p-tebu", dose: Dose(from: 0.5, to: 1, unit: "l/ha"), pestIDs: ["rust", "septoria"])
                        ]),
                ]))
        try writer.add(
            CatalogRecord.Region(
                id: "KZ-AKM", kind: .region, name: ["ru": "Акмолинская область", "en": "Akmola Region"],
                centreName: ["en": "Kokshetau"], centre: Coordinates(latitude: 53.2833, longitude: 69.3833)))
        try writer.add(
            CatalogRecord.Region(
                id: "KZ-AST", kind: .city, name: ["ru": "Астана", "en": "Astana"],
                centre: Coordinates(latitude: 51.1694, longitude: 71.4491)))
        try writer.add(
            CatalogRecord.Representative(
                id: "rep-1", regionID: "KZ-AKM", name: ["ru": "Иван Демо", "en": "Ivan Demo"], position: ["en": "Agronomist"],
                phone: "+7 700 000 00 01", email: "ivan.demo@example.com"))
        try writer.add(
            CatalogRecord.Distributor(
                id: "dist-1", regionID: "KZ-AKM", name: ["en": "Demo Seeds"], address: ["en": "1 Demo Street"]))
        for (id, kind, date) in [
            ("n1", NewsKind.news, "2026-01-10"), ("n2", .article, "2025-05-01"), ("n3", .news, "2026-03-01"),
        ] {
            try writer.add(
                CatalogRecord.News(
                    id: id, kind: kind, date: date, title: ["en": "Title \(id)", "ru": "Заголовок \(id)"],
                    bodyHTML: ["en": "<p>Body of <b>\(id)</b> about rust</p>"]))
        }
        try extra(writer)
        try writer.finish()
        return path
    }

    static let cultures: [CatalogRecord.Culture] = [
        .init(id: "cereals", name: ["en": "Cereals", "ru": "Зерновые"]),
        .init(id: "wheat", name: ["en": "Wheat", "ru": "Пшеница", "kk": "Бидай"], parentIDs: ["cereals"]),
        .init(
            id: "winter-wheat", name: ["en": "Winter wheat", "ru": "Озимая пшеница"], parentIDs: ["wheat"],
            stages: [
                .init(bbch: BBCHRange(from: 0, to: 9), name: ["en": "Germination"]),
                .init(bbch: BBCHRange(from: 20, to: 29), name: ["en": "Tillering", "ru": "Кущение"]),
            ]),
        .init(id: "barley", name: ["en": "Barley", "ru": "Ячмень"], parentIDs: ["cereals"]),
        .init(id: "legumes", name: ["en": "Legumes", "ru": "Бобовые"]),
        .init(id: "oilseeds", name: ["en": "Oilseeds", "ru": "Масличные"]),
        .init(id: "soybean", name: ["en": "Soybean", "ru": "Соя"], parentIDs: ["legumes", "oilseeds"]),
        .init(id: "sunflower", name: ["en": "Sunflower", "ru": "Подсолнечник"], parentIDs: ["oilseeds"]),
    ]

    static let pests: [CatalogRecord.Pest] = [
        .init(
            id: "septoria", kind: .disease, latinName: "Zymoseptoria tritici",
            name: ["en": "Septoria leaf blotch", "ru": "Септориоз листьев"]),
        .init(
            id: "rust", kind: .disease, latinName: "Puccinia triticina",
            name: ["en": "Brown rust", "ru": "Бурая ржавчина", "kk": "Қоңыр тат"],
            description: ["en": "A fungal disease of leaves."]),
        .init(
            id: "yellow-rust", kind: .disease, latinName: "Puccinia striiformis",
            name: ["en": "Yellow rust", "ru": "Жёлтая ржавчина"]),
        .init(id: "wild-oat", kind: .weed, latinName: "Avena fatua", name: ["en": "Wild oat", "ru": "Овсюг"]),
        .init(
            id: "beetle", kind: .insect, latinName: "Leptinotarsa decemlineata",
            name: ["en": "Colorado potato beetle (Kartoffelkäfer)", "ru": "Колорадский жук"]),
    ]

    static let products: [CatalogRecord.Product] = [
        .init(
            id: "p-tebu", name: ["en": "Tebuconazole 250 EC", "ru": "Тебуконазол 250 КЭ"], category: .fungicide,
            formulation: "EC", companyID: "acme", registrationNumber: "KZ-0001", registrationExpiry: "2030-12-31",
            ingredients: [.init(substanceID: "tebuconazole", concentration: 250, unit: "g/l")],
            pictograms: ["GHS07", "GHS09"], signalWord: "warning", statements: ["H302", "P280"],
            links: [Link(kind: .label, url: "https://example.com/labels/p-tebu.pdf")],
            sections: [.init(title: ["en": "Mode of action"], body: ["en": "Systemic."])]),
        .init(
            id: "p-glyph", name: ["en": "Glyphosate 360 SL", "ru": "Глифосат 360 ВР", "kk": "Глифосат 360 СЕ"],
            category: .herbicide, formulation: "SL", registrationNumber: "KZ-0002",
            ingredients: [.init(substanceID: "glyphosate", concentration: 360, unit: "g/l")]),
        .init(
            id: "p-lambda", name: ["en": "Lambda-cyhalothrin 50 EC", "ru": "Лямбда-цигалотрин 50 КЭ"],
            category: .insecticide, registrationNumber: "W-7113",
            ingredients: [.init(substanceID: "lambda-cyhalothrin", concentration: 50, unit: "g/l")]),
        .init(
            id: "p-mix", name: ["en": "Tebuconazole + glyphosate mix", "ru": "Смесь"], category: .fungicide,
            companyID: "acme",
            ingredients: [
                .init(substanceID: "tebuconazole", concentration: 100, unit: "g/l"),
                .init(substanceID: "glyphosate", concentration: 50, unit: "g/l"),
            ]),
    ]

    static let uses: [CatalogRecord.Use] = [
        .init(
            id: "u1", productID: "p-tebu", cultureIDs: ["cereals"], pests: [.init(pestID: "septoria"), .init(pestID: "rust")],
            dose: Dose(from: 0.5, to: 1.0, unit: "l/ha"), phiDays: 30, maxApplications: 2,
            bbch: BBCHRange(from: 30, to: 69), notes: ["en": "Spray at first symptoms."]),
        .init(
            id: "u2", productID: "p-glyph", cultureIDs: ["wheat"], pests: [.init(pestID: "wild-oat")],
            dose: Dose(from: 2, to: 4, unit: "l/ha"), phiDays: 60),
        .init(
            id: "u3", productID: "p-lambda", cultureIDs: ["sunflower"], pests: [.init(pestID: "beetle", effect: .partial)],
            dose: Dose(from: 0.1, to: 0.2, unit: "l/ha")),
        .init(
            id: "u4", productID: "p-mix", cultureIDs: ["barley"], pests: [.init(pestID: "rust")],
            dose: Dose(from: 1, to: 1, unit: "l/ha")),
    ]
}
