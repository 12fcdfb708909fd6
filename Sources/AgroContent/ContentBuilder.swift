import AgroDomain
import AgroStore
import Foundation

/// Builds a catalog file from the reviewable JSON sources in `Database/content`
/// (format: `Database/content/README.md`).
///
/// Every source is read and checked before anything is written; all problems are reported
/// together, each with its file and entry. Entries are written sorted by id, so the same
/// sources always give the same bytes.
///
///     let builder = ContentBuilder(sourceDirectory: URL(fileURLWithPath: "Database/content"))
///     let report = try builder.build(to: "Database/catalog.sqlite")
///     print(report.info.version, report.counts["products"] ?? 0)
public struct ContentBuilder: Sendable {
    /// The folder holding `catalog.json` and the other source files.
    public let sourceDirectory: URL

    /// A builder for the sources in `sourceDirectory`; nothing is read until `build(to:)` or `load()`.
    public init(sourceDirectory: URL) {
        self.sourceDirectory = sourceDirectory
    }

    /// What a successful build wrote.
    public struct Report: Sendable, Hashable {
        /// Identity, version, locales and titles of the catalog written.
        public var info: CatalogHeader
        /// Entries written per kind (`"products": 58`), for the build's summary line.
        public var counts: [String: Int]
    }

    /// Reads and checks the sources, then writes the catalog to `path`.
    /// - Throws: `ContentBuildError` listing every problem; nothing is left at `path`.
    @discardableResult
    public func build(to path: String) throws -> Report {
        let content = try load()
        let temporary = path + ".building"
        let writer: CatalogWriter
        do {
            writer = try CatalogWriter(path: temporary, header: content.header)
        } catch let CatalogWriterError.cannotWrite(_, reason) {
            throw CatalogWriterError.cannotWrite(path: path, reason: reason)
        }
        do {
            try content.companies.forEach(writer.add)
            try content.statements.forEach(writer.add)
            try content.substances.forEach(writer.add)
            try content.cultures.forEach(writer.add)
            try content.pests.forEach(writer.add)
            try content.products.forEach(writer.add)
            try content.obligations.forEach(writer.add)
            try content.uses.forEach(writer.add)
            try content.schemes.forEach(writer.add)
            try content.groupLimits.forEach(writer.add)
            try content.tankIncompatibilities.forEach(writer.add)
            try content.regions.forEach(writer.add)
            try content.representatives.forEach(writer.add)
            try content.distributors.forEach(writer.add)
            try content.news.forEach(writer.add)
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return Report(info: content.header, counts: content.counts)
    }

    /// Reads and checks every source without writing anything.
    public func load() throws -> CatalogContent {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: sourceDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ContentBuildError(problems: [
                ContentProblem(file: sourceDirectory.path, entry: nil, problem: "no such folder of catalog sources")
            ])
        }
        let reader = SourceReader(directory: sourceDirectory)
        let content = reader.read()
        if !reader.problems.problems.isEmpty {
            throw ContentBuildError(problems: reader.problems.problems)
        }
        return content
    }
}

/// The checked content of a sources directory, each list sorted by id.
public struct CatalogContent: Sendable {
    /// Identity, version, release date, locales, fallbacks and titles (`catalog.json`).
    public var header: CatalogHeader
    /// Registration holders and manufacturers (`companies.json`).
    public var companies: [CatalogRecord.Company] = []
    /// Hazard and precautionary statements the products refer to (`hazard-statements.json`).
    public var statements: [CatalogRecord.Statement] = []
    /// Active substances with their mode-of-action groups (`substances.json`).
    public var substances: [CatalogRecord.Substance] = []
    /// Cultures and culture groups with their parents (`cultures.json`).
    public var cultures: [CatalogRecord.Culture] = []
    /// Pests: insects, diseases, weeds (`pests.json`).
    public var pests: [CatalogRecord.Pest] = []
    /// Products with their ingredients and registrations (`products.json`).
    public var products: [CatalogRecord.Product] = []
    /// Registered uses: product, cultures, pests, dose, PHI, BBCH window (`uses.json`).
    public var uses: [CatalogRecord.Use] = []
    /// Conditions of use, each distinct text once, referred to by the uses.
    public var obligations: [CatalogRecord.Obligation] = []
    /// Protection schemes by culture and growth stage (`schemes.json`).
    public var schemes: [CatalogRecord.Scheme] = []
    /// Regions with their centres (`regions.json`).
    public var regions: [CatalogRecord.Region] = []
    /// Regional representatives (`representatives.json`).
    public var representatives: [CatalogRecord.Representative] = []
    /// Distributors per region (`distributors.json`).
    public var distributors: [CatalogRecord.Distributor] = []
    /// News items and articles (`news.json`, `news/`).
    public var news: [CatalogRecord.News] = []
    /// Resistance-management limits per mode-of-action group (`group-limits.json`).
    public var groupLimits: [CatalogRecord.GroupLimit] = []
    /// Products not to be mixed (`tank-incompatibilities.json`).
    public var tankIncompatibilities: [CatalogRecord.TankIncompatibility] = []

    /// Entries per kind, as `ContentBuilder.Report.counts` reports them.
    public var counts: [String: Int] {
        [
            "companies": companies.count, "statements": statements.count, "substances": substances.count,
            "cultures": cultures.count, "pests": pests.count, "products": products.count, "uses": uses.count,
            "obligations": obligations.count, "schemes": schemes.count, "regions": regions.count,
            "representatives": representatives.count,
            "distributors": distributors.count, "news": news.count,
        ]
    }
}
