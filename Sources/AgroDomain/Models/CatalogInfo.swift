import Foundation

/// What a catalog file says about itself.
///
/// A catalog has an identity (whose catalog it is: a company's, a country's register) and a
/// version. Versions compare only within one identity.
public struct CatalogInfo: Sendable, Hashable, Codable {
    /// Whose catalog this is, e.g. "kz.demo-agro" or "ch.blv.srppp".
    public var identity: String
    /// The catalog's title in the requested locale.
    public var title: String
    /// Monotonic content version within the identity.
    public var version: Int
    /// Version of the file layout; a program reads the schema versions it knows.
    public var schemaVersion: Int
    /// ISO 8601 timestamp of the build.
    public var builtAt: String
    /// The locales the catalog carries, with their fallbacks.
    public var locales: LocaleChain
    /// Who the content comes from, and the terms it comes with.
    public var attribution: String?

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case identity, title, version, schemaVersion, builtAt, locales, attribution
    }

    /// Metadata as the catalog file records it.
    public init(
        identity: String, title: String, version: Int, schemaVersion: Int, builtAt: String,
        locales: LocaleChain, attribution: String? = nil
    ) {
        self.identity = identity
        self.title = title
        self.version = version
        self.schemaVersion = schemaVersion
        self.builtAt = builtAt
        self.locales = locales
        self.attribution = attribution
    }
}

/// The languages a catalog carries and, for each, where to look when a text is missing.
///
/// Reading in `kk` with fallbacks `["ru", "en"]` takes each field from the first language of
/// `kk, ru, en` that has it, then from any other language of the catalog, so that a name is
/// never empty while any language has it.
public struct LocaleChain: Sendable, Hashable, Codable {
    /// Catalog languages, the default first.
    public var locales: [String]
    /// Explicit fallbacks per language.
    public var fallbacks: [String: [String]]

    // The output contract (docs/json-keys.md): renaming a property leaves these alone.
    enum CodingKeys: String, CodingKey {
        case locales, fallbacks
    }

    /// A chain over `locales`, each falling back as `fallbacks` says, then to the first locale.
    public init(locales: [String], fallbacks: [String: [String]] = [:]) {
        self.locales = locales
        self.fallbacks = fallbacks
    }

    /// The default language of the catalog.
    public var defaultLocale: String { locales.first ?? "en" }

    /// The complete order in which to look for a text requested in `locale`.
    ///
    /// A region subtag falls back to its language (`ru-KZ` -> `ru`); a language the catalog
    /// lacks reads as the default one; every catalog language ends up in the chain.
    public func chain(for locale: String) -> [String] {
        var order: [String] = []
        func add(_ code: String) {
            if locales.contains(code), !order.contains(code) { order.append(code) }
        }
        let requested = LocaleChain.normalize(locale)
        add(requested)
        if let dash = requested.firstIndex(of: "-") { add(String(requested[..<dash])) }
        if order.isEmpty { add(defaultLocale) }
        for code in fallbacks[order.first ?? defaultLocale] ?? [] { add(code) }
        add(defaultLocale)
        for code in fallbacks[defaultLocale] ?? [] { add(code) }
        for code in locales { add(code) }
        return order
    }

    /// Lower-cases a locale identifier and turns `ru_KZ.UTF-8` into `ru-kz`.
    public static func normalize(_ identifier: String) -> String {
        var code = identifier
        if let dot = code.firstIndex(of: ".") { code = String(code[..<dot]) }
        if let at = code.firstIndex(of: "@") { code = String(code[..<at]) }
        // The standard library's map, not Foundation's replacingOccurrences: this runs at every
        // start, and the latter goes through NSString.
        return String(code.map { $0 == "_" ? "-" : $0 }).lowercased()
    }
}
