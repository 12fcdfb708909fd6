import AgroDomain
import AgroStore
import Foundation

/// Small real catalogs of a given identity and version, for tests and benchmarks.
public enum TestCatalogs {
    /// Writes a catalog with `products` products whose names carry the version
    /// ("Product 3 v7"), so a query shows which catalog answered it.
    ///
    /// - Parameter padding: bytes of filler text per product, to make larger files.
    public static func make(
        at path: String, identity: String = "test.agro", version: Int, products: Int = 20, padding: Int = 0
    ) throws {
        let writer = try CatalogWriter(
            path: path,
            header: CatalogHeader(
                identity: identity, version: version, builtAt: "2026-11-21T00:00:00Z",
                locales: LocaleChain(locales: ["en", "ru"]), title: ["en": "Test catalog \(identity)"]))
        let filler = padding > 0 ? syntheticText(bytes: padding, seed: version) : nil
        for index in 0..<products {
            var sections: [CatalogRecord.Section] = []
            if let filler {
                sections.append(CatalogRecord.Section(
                    title: ["en": "Label"], body: ["en": "\(index) " + filler, "ru": "\(index) " + filler]))
            }
            try writer.add(CatalogRecord.Product(
                id: "p\(index)", name: ["en": "Product \(index) v\(version)", "ru": "Препарат \(index) v\(version)"],
                category: .herbicide, registrationNumber: "REG-\(version)-\(index)", sections: sections))
        }
        try writer.finish()
    }

    /// Text that compresses about as well as real label text: words drawn from a fixed list
    /// by a deterministic generator.
    public static func syntheticText(bytes: Int, seed: Int) -> String {
        let words = ["apply", "before", "emergence", "wheat", "barley", "dose", "litre", "hectare", "weeds",
                     "broadleaf", "spray", "water", "volume", "interval", "days", "harvest", "protective",
                     "gloves", "avoid", "drift", "rain", "fast", "tank", "mix", "compatible", "stage", "BBCH"]
        var state = UInt64(truncatingIfNeeded: seed) &* 6364136223846793005 &+ 1442695040888963407
        var text = ""
        text.reserveCapacity(bytes + 16)
        while text.utf8.count < bytes {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            text += words[Int((state >> 33) % UInt64(words.count))]
            text += (state >> 20) % 11 == 0 ? ". " : " "
            if (state >> 40) % 7 == 0 { text += String(state % 100_000) + " " }
        }
        return text
    }
}
