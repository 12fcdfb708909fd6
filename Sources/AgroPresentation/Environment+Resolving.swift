import AgroDomain
import Foundation

package extension Environment {
    /// Turns a user's id or name into one entity id, or throws a message naming the
    /// candidates (ambiguous) or the closest names (unknown).
    func resolve(_ text: String?, _ kind: EntityKind, in catalog: some LookupUseCase) throws -> EntityID? {
        guard let text else { return nil }
        return try catalog.resolve(text, kind: kind, locale: locale).id
    }

    /// A dose or concentration as labels print it, in the interface language: its numbers
    /// and range as `Localizer.range` writes them, its unit translated when Localizable has it
    /// ("0,75–1 л/га" in Russian, "0.75-1 l/ha" in English).
    func label(_ dose: Dose) -> String { strings.label(dose) }

    /// A registration number, marked when the registration has expired (as the card marks it).
    func registration(_ number: String?, expiry: String?) -> String {
        guard let number else { return "" }
        guard let expiry, expiry < today else { return number }
        return "\(number) (\(strings("product.expired")))"
    }

    /// "Tebuconazole 250 g/l + Prothioconazole 125 g/l".
    func label(_ ingredients: [ActiveIngredient]) -> String {
        ingredients.map { ingredient in
            let amount = label(Dose(from: ingredient.concentration, to: nil, unit: ingredient.unit))
            return amount.isEmpty ? ingredient.substance.name : "\(ingredient.substance.name) \(amount)"
        }.joined(separator: " + ")
    }

    /// Pictogram codes with their names from `Assets/ghs-pictograms.json` in the interface
    /// language: "GHS07 (Exclamation mark)", or the code alone when the asset lacks it.
    func pictograms(_ codes: [String]) -> [String] {
        let names = assetNames("ghs-pictograms.json")
        return codes.map { code in names(code).map { "\(code) (\($0))" } ?? code }
    }

    /// A formulation code (CropLife's, as catalogs store it) as the interface language writes
    /// it, from `Assets/formulations.json`: "КЭ (концентрат эмульсии, EC)" in Russian, where
    /// labels and product names use the Russian abbreviation; the code alone when unknown.
    func formulation(_ code: String) -> String {
        assetNames("formulations.json")(code) ?? code
    }

    /// A lookup in an asset of names per code and language (`{"CODE": {"en": ..., "ru": ...}}`),
    /// following the interface's language chain; nil for a code the asset lacks.
    private func assetNames(_ file: String) -> (String) -> String? {
        let names = assetTables.value(file) {
            paths.assets
                .flatMap { FileManager.default.contents(atPath: $0.appendingPathComponent(file).path) }
                .flatMap { try? JSONDecoder().decode([String: [String: String]].self, from: $0) } ?? [:]
        }
        let chain = strings.chain
        return { code in names[code].flatMap { byLocale in chain.lazy.compactMap { byLocale[$0] }.first } }
    }

    /// A scheme's heading: its title, followed by its culture's name unless the title names it
    /// already ("Spring wheat: northern Kazakhstan", not "... — Spring wheat"; "Potato", not
    /// "Potato — Potato"); compared folded, so case and diacritics do not matter.
    func heading(of scheme: ProtectionScheme) -> String {
        let culture = scheme.culture.name
        guard !TextFolding.fold(scheme.title).contains(TextFolding.fold(culture)) else { return scheme.title }
        return "\(scheme.title) — \(culture)"
    }

    /// Localized name of a product category.
    func name(of category: ProductCategory) -> String { strings("category.\(category.rawValue)") }

    /// Localized name of a pest kind.
    func name(of kind: PestKind) -> String { strings("pestKind.\(kind.rawValue)") }

    /// Localized name of an entity kind.
    func name(of kind: EntityKind) -> String { strings("kind.\(kind.rawValue)") }

    /// Parses a category typed by the user: its code (`seed_treatment`, `seed-treatment`,
    /// `seed treatment`) or its name in the interface language, case-insensitive.
    func category(_ text: String?) throws -> ProductCategory? {
        guard let text else { return nil }
        let folded = TextFolding.fold(text).replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if let category = ProductCategory.allCases.first(where: {
            $0.rawValue == folded || TextFolding.fold(name(of: $0)).replacingOccurrences(of: " ", with: "_") == folded
        }) {
            return category
        }
        throw RequestError.unknownValue(.category, value: text, valid: ProductCategory.allCases.map(\.rawValue))
    }

    /// Parses a pest kind typed by the user: its code or its name in the interface language.
    func pestKind(_ text: String?) throws -> PestKind? {
        guard let text else { return nil }
        let folded = TextFolding.fold(text)
        if let kind = PestKind.allCases.first(where: { $0.rawValue == folded || TextFolding.fold(name(of: $0)) == folded }) {
            return kind
        }
        throw RequestError.unknownValue(.kind, value: text, valid: PestKind.allCases.map(\.rawValue))
    }
}
