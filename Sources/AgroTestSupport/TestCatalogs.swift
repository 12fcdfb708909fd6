import AgroDomain
import AgroStore
import Foundation

/// Small real catalogs of a given identity and version, for tests and benchmarks.
public enum TestCatalogs {
    /// Writes a catalog with `products` products whose names carry the version
    /// ("Product 3 v7"), so a query shows which catalog answered it.
    ///
    /// - Parameters:
    ///   - padding: bytes of filler text per product, to make larger files.
    ///   - pickers: also a culture and a pest whose names carry the version ("Wheat v7",
    ///     "Aphid v7"), so the web pages' pickers show which catalog they come from.
    public static func make(
        at path: String, identity: String = "test.agro", version: Int, products: Int = 20, padding: Int = 0,
        pickers: Bool = false
    ) throws {
        let writer = try CatalogWriter(
            path: path,
            header: CatalogHeader(
                identity: identity, version: version, builtAt: "2026-11-21T00:00:00Z",
                locales: LocaleChain(locales: ["en", "ru"]), title: ["en": "Test catalog \(identity)"]))
        for index in 0..<products {
            var sections: [CatalogRecord.Section] = []
            if padding > 0 {
                // Different text per product, so the file compresses like real content.
                let filler = syntheticText(bytes: padding, seed: version &* 1_000_003 &+ index)
                sections.append(
                    CatalogRecord.Section(
                        title: ["en": "Label"], body: ["en": "\(index) " + filler, "ru": "\(index) " + filler]))
            }
            try writer.add(
                CatalogRecord.Product(
                    id: "p\(index)", name: ["en": "Product \(index) v\(version)", "ru": "Препарат \(index) v\(version)"],
                    category: .herbicide, registrationNumber: "REG-\(version)-\(index)", sections: sections))
        }
        if pickers, products > 0 {
            try writer.add(CatalogRecord.Culture(id: "wheat", name: ["en": "Wheat v\(version)", "ru": "Пшеница v\(version)"]))
            try writer.add(
                CatalogRecord.Pest(id: "aphid", kind: .insect, name: ["en": "Aphid v\(version)", "ru": "Тля v\(version)"]))
            try writer.add(
                CatalogRecord.Use(
                    id: "u0", productID: "p0", cultureIDs: ["wheat"], pests: [CatalogRecord.Target(pestID: "aphid")],
                    dose: Dose(from: 1, to: nil, unit: "l/ha")))
        }
        try writer.finish()
    }

    /// Text that compresses about as well as real label text (about 3:1 with gzip): common
    /// words mixed with made-up ones and numbers, drawn by a deterministic generator.
    public static func syntheticText(bytes: Int, seed: Int) -> String {
        let words = [
            "apply", "before", "emergence", "wheat", "barley", "dose", "litre", "hectare", "weeds",
            "broadleaf", "spray", "water", "volume", "interval", "days", "harvest", "protective",
            "gloves", "avoid", "drift", "rain", "fast", "tank", "mix", "compatible", "stage", "BBCH",
        ]
        let syllables = [
            "ka", "ro", "mi", "sul", "fen", "tra", "zol", "ine", "pyr", "ox", "am", "et", "clo", "dia",
            "mes", "tri", "flu", "ben", "pro", "the", "nil", "cyp", "hex", "az", "or", "ul", "qui", "vex",
        ]
        var state = UInt64(truncatingIfNeeded: seed) &* 6364136223846793005 &+ 1442695040888963407
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 29
        }
        var text = ""
        text.reserveCapacity(bytes + 32)
        while text.utf8.count < bytes {
            switch next() % 10 {
            case 0..<5: text += words[Int(next() % UInt64(words.count))]
            case 5..<9:
                for _ in 0..<(2 + next() % 3) { text += syllables[Int(next() % UInt64(syllables.count))] }
            default: text += String(next() % 100_000)
            }
            text += next() % 12 == 0 ? ". " : " "
        }
        return text
    }
}
