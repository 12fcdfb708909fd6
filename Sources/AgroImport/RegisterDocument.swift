import Foundation

/// The register as read from the XML, still in the register's own terms: metadata keys as
/// `RegisterKey`s (integers in 2024, GUIDs in 2026), numbers and dates as written. Mapping to catalog
/// records, with its checks, happens in `RegisterMapper`.
struct RegisterDocument: Sendable {
    /// A row of a `<MetaData>` table.
    struct Detail: Sendable {
        var key: RegisterKey
        var iupacName: String?
        /// First non-empty description per language ("de", "fr", "it", "en", "lt").
        var texts: [String: String] = [:]
        /// The `<Code value>` of the first description that has one (H-code, GHS code, ...).
        var code: String?
        var parents: [RegisterKey] = []
    }

    struct Holder: Sendable {
        var key: RegisterKey
        var name: String = ""
    }

    struct Ingredient: Sendable {
        var substanceKey = RegisterKey.empty
        /// ACTIVE_INGREDIENT, ADDITIVE_TO_DECLARE, SAFENER, SYNERGIST.
        var type: String = ""
        var percent: String = ""
        var gramsPerLitre: String = ""
    }

    struct Reference: Sendable {
        var key: RegisterKey
        var additionalTextKey = RegisterKey.empty
        /// For pests: PEST_FULL_EFFECT, PEST_PARTIAL_EFFECT, PEST_SIDE_EFFECT.
        var type: String = ""
    }

    struct Indication: Sendable {
        var line: Int
        var dosageFrom = "", dosageTo = ""
        var expenditureFrom = "", expenditureTo = ""
        var waitingPeriod = ""
        var measureKey = RegisterKey.empty, timeMeasureKey = RegisterKey.empty
        var applicationAreaKey = RegisterKey.empty, commentKey = RegisterKey.empty
        var cultureFormKeys: [RegisterKey] = []
        var cultures: [Reference] = []
        var pests: [Reference] = []
        var obligationKeys: [RegisterKey] = []
    }

    /// A `<Product>` (registered product or sale permission) or a `<Parallelimport>`.
    struct Product: Sendable {
        var isParallelImport: Bool
        var line: Int
        var id = "", wNbr = "", name = ""
        var soldOutDeadline = "", exhaustionDeadline = ""
        var isSalePermission = false
        var categoryKeys: [RegisterKey] = []
        var formulationKeys: [RegisterKey] = []
        var dangerSymbolKeys: [RegisterKey] = []
        var signalWordKeys: [RegisterKey] = []
        var codeRKeys: [RegisterKey] = []
        var codeSKeys: [RegisterKey] = []
        var holderKeys: [RegisterKey] = []
        var ingredients: [Ingredient] = []
        var indications: [Indication] = []
    }

    /// Metadata tables by their `name` attribute, rows by primary key.
    var metadata: [String: [RegisterKey: Detail]] = [:]
    var holders: [RegisterKey: Holder] = [:]
    var products: [Product] = []
    var parallelImports: [Product] = []
    /// `numberOfProducts` as declared by the file.
    var declaredProducts: Int?
    /// `<MetaData>` tables a products-only pass skipped (read by the metadata pass before).
    var skippedTables = 0
    /// `<MetaData>` tables read.
    var tableCount = 0

    func table(_ name: String) -> [RegisterKey: Detail] { metadata[name] ?? [:] }
}
