import AgroDomain
import AgroStore
import Foundation

/// A hand-written catalog for the decision layer (compare uses, plan check, tank, alternatives).
/// Every expected value in the decision tests is worked out by hand from these records.
///
/// Cultures: cereals > wheat > winter-wheat; potato. Substances: tebuconazole (FRAC 3),
/// azoxystrobin (FRAC 11), pyraclostrobin (FRAC 11), lambda-cyhalothrin (IRAC 3A),
/// chlormequat (no group), prothioconazole (FRAC 3).
enum DecisionFixture {
    /// One catalog for every decision test (static, so written once per run).
    static let catalog: SQLiteCatalog = {
        do { return try SQLiteCatalog(path: write()) } catch { fatalError("cannot write the decision fixture: \(error)") }
    }()

    /// The cultures: wheat in the cereals, winter wheat in wheat, and potato apart.
    static let cultures: [CatalogRecord.Culture] = [
        .init(id: "cereals", name: ["en": "Cereals"]),
        .init(id: "wheat", name: ["en": "Wheat"], parentIDs: ["cereals"]),
        .init(id: "winter-wheat", name: ["en": "Winter wheat"], parentIDs: ["wheat"]),
        .init(id: "potato", name: ["en": "Potato"]),
    ]

    static let pests: [CatalogRecord.Pest] = [
        .init(id: "rust", kind: .disease, name: ["en": "Brown rust"]),
        .init(id: "septoria", kind: .disease, name: ["en": "Septoria"]),
        .init(id: "aphid", kind: .insect, name: ["en": "Grain aphid"]),
        .init(id: "lodging", kind: .other, name: ["en": "Lodging"]),
        .init(id: "late-blight", kind: .disease, name: ["en": "Late blight"]),
    ]

    static func write() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("agro-decisions-\(UUID().uuidString).sqlite").path
        let writer = try CatalogWriter(path: path, header: FixtureCatalog.header())
        let substances: [(String, String, ModeOfAction?)] = [
            ("tebuconazole", "Tebuconazole", ModeOfAction(scheme: "FRAC", group: "3")),
            ("prothioconazole", "Prothioconazole", ModeOfAction(scheme: "FRAC", group: "3")),
            ("azoxystrobin", "Azoxystrobin", ModeOfAction(scheme: "FRAC", group: "11")),
            ("pyraclostrobin", "Pyraclostrobin", ModeOfAction(scheme: "FRAC", group: "11")),
            ("lambda-cyhalothrin", "Lambda-cyhalothrin", ModeOfAction(scheme: "IRAC", group: "3A")),
            ("chlormequat", "Chlormequat chloride", nil),
        ]
        for (id, name, moa) in substances {
            try writer.add(CatalogRecord.Substance(id: id, name: ["en": name], modeOfAction: moa))
        }
        for culture in cultures { try writer.add(culture) }
        for pest in pests { try writer.add(pest) }
        func product(_ id: String, _ name: String, _ number: String, _ expiry: String, _ ingredients: [(String, Double)])
            -> CatalogRecord.Product
        {
            .init(
                id: id, name: ["en": name], category: .fungicide, registrationNumber: number, registrationExpiry: expiry,
                ingredients: ingredients.map { .init(substanceID: $0.0, concentration: $0.1, unit: "g/l") })
        }
        for p in [
            product("p-tebu", "Tebu 250 EC", "T-1", "2030-12-31", [("tebuconazole", 250)]),
            product("p-tebu-generic", "Tebu Generic", "T-2", "2030-12-31", [("tebuconazole", 250)]),
            product("p-azoxy", "Azoxy 250 SC", "A-1", "2030-12-31", [("azoxystrobin", 250)]),
            product("p-pyra", "Pyra 200", "Y-1", "2030-12-31", [("pyraclostrobin", 200)]),
            product("p-old", "Old Tebu", "O-1", "2024-12-31", [("tebuconazole", 250)]),
            product("p-lambda", "Lambda 50", "L-1", "2030-12-31", [("lambda-cyhalothrin", 50)]),
            product("p-pgr", "Chlormequat 750", "C-1", "2030-12-31", [("chlormequat", 750)]),
            product("p-prothio", "Prothio 250", "P-1", "2030-12-31", [("prothioconazole", 250)]),
        ] { try writer.add(p) }
        let l = "l/ha"
        for use: CatalogRecord.Use in [
            .init(
                id: "u1", productID: "p-tebu", cultureIDs: ["wheat"], pests: [.init(pestID: "rust"), .init(pestID: "septoria")],
                dose: Dose(from: 0.5, to: 1.0, unit: l), water: Dose(from: 200, to: 300, unit: l), phiDays: 30,
                maxApplications: 2, intervalDays: 14, bbch: BBCHRange(from: 30, to: 59), applicationArea: ["en": "Field"]),
            .init(
                id: "u2", productID: "p-tebu-generic", cultureIDs: ["cereals"], pests: [.init(pestID: "rust")],
                dose: Dose(from: 0.75, to: 1.0, unit: l), phiDays: 35, maxApplications: 1,
                bbch: BBCHRange(from: 31, to: 65)),
            .init(
                id: "u3", productID: "p-azoxy", cultureIDs: ["winter-wheat"],
                pests: [.init(pestID: "rust"), .init(pestID: "septoria")],
                dose: Dose(from: 0.8, to: 1.0, unit: l), phiDays: 35, maxApplications: 2, intervalDays: 21,
                bbch: BBCHRange(from: 30, to: 61)),
            .init(
                id: "u4", productID: "p-pyra", cultureIDs: ["wheat"], pests: [.init(pestID: "septoria")],
                dose: Dose(from: 1.0, to: 1.0, unit: l), phiDays: 35, maxApplications: 2, intervalDays: 14,
                bbch: BBCHRange(from: 30, to: 61)),
            .init(
                id: "u5", productID: "p-old", cultureIDs: ["wheat"], pests: [.init(pestID: "rust")],
                dose: Dose(from: 0.5, to: 0.5, unit: l), phiDays: 30, maxApplications: 1,
                bbch: BBCHRange(from: 30, to: 59)),
            .init(
                id: "u6", productID: "p-lambda", cultureIDs: ["cereals"], pests: [.init(pestID: "aphid")],
                dose: Dose(from: 150, to: 200, unit: "ml/ha"), phiDays: 20, maxApplications: 2, intervalDays: 14,
                bbch: BBCHRange(from: 30, to: 75)),
            .init(
                id: "u7", productID: "p-pgr", cultureIDs: ["winter-wheat"], pests: [.init(pestID: "lodging")],
                dose: Dose(from: 1.0, to: 2.0, unit: l), maxApplications: 1, bbch: BBCHRange(from: 21, to: 32)),
            .init(
                id: "u8", productID: "p-prothio", cultureIDs: ["potato"], pests: [.init(pestID: "late-blight")],
                dose: Dose(from: 0.5, to: 0.5, unit: l), phiDays: 14, maxApplications: 3),
        ] { try writer.add(use) }
        try writer.add(
            CatalogRecord.GroupLimit(
                id: "frac-11-cereals",
                GroupLimit(
                    scheme: "FRAC", group: "11", culture: "cereals", maxApplications: 2, source: "test: QoI in cereals")))
        try writer.add(
            CatalogRecord.GroupLimit(
                id: "frac-11-share",
                GroupLimit(
                    scheme: "FRAC", group: "11", maxShare: 0.5, source: "test: QoI share")))
        try writer.add(
            CatalogRecord.GroupLimit(
                id: "frac-3-potato",
                GroupLimit(
                    scheme: "FRAC", group: "3", culture: "potato", maxConsecutive: 1, source: "test: DMI in potato")))
        try writer.add(
            CatalogRecord.TankIncompatibility(
                id: "tebu-lambda", productID: "p-tebu", otherID: "p-lambda", reason: ["en": "test: do not mix"]))
        try writer.finish()
        return path
    }
}
