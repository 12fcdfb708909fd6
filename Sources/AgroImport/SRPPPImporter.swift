import AgroDomain
import AgroStore
import Foundation

/// Imports the Swiss register of plant protection products (BLV, "SRPPP", published as XML at
/// https://www.psm.admin.ch) into an agro catalog.
///
/// Reads the XML directly or inside its `.zip` or `.xz`, in both published variants (2024:
/// integer keys; 2026: GUID keys), streaming: a plain file metadata first (the tables at its
/// end, then the products, written as they are read), a compressed one in one pass. It writes
/// a catalog in the schema of the bundled one:
///
/// ```swift
/// let report = try SRPPPImporter(options: .init(version: 2)).importFile(at: input, to: "ch.sqlite")
/// print(report.summary)
/// ```
///
/// How the register maps onto the catalog:
/// - Ids: a product is its wNbr ("6151"; sale permission "6649-1") with registration number
///   "W-6151"; a parallel import is its permission id ("F-4806", also its registration number);
///   a use is "6151#001" in register order. Cultures, pests, substances, obligations and
///   companies keep the register's primary keys, upper-cased (integers in 2024, GUIDs from
///   2026 on), so only product ids carry over from a 2024 catalog to a 2026 one.
/// - A sale permission "6649-1" points to W-6649; a parallel import to the wNbr it names.
/// - Category: the first register category with a catalog equivalent (all of them are listed
///   in a "Kategorie" section); pests get a kind from the categories of the products used
///   against them (the register has none).
/// - Ingredients: active substances, safeners and synergists, in g/l when given, else in %.
/// - Dose: the amount per area with its measure when given, else the spray concentration in %
///   (a concentration given beside an amount goes in the notes); the waiting period in days
///   (weeks converted); the culture form (field, greenhouse) after the application area; the
///   notes hold the application comment and the culture and pest additional texts.
/// - Texts in de, fr, it, en; English falls back to German, German to French.
///
///     let importer = SRPPPImporter(options: SRPPPImportOptions(version: 20260203))
///     let report = try importer.importFile(at: "PublicationData_2026_02_03.xml.xz", to: "ch.sqlite")
///     print(report.products, report.uses, report.dataErrors.count)
public struct SRPPPImporter: Sendable {
    /// The identity of every catalog made from the register.
    public static let identity = "ch.blv.srppp"

    /// The settings of the import (version, error examples kept).
    public var options: SRPPPImportOptions

    /// An importer with `options`; nothing is read until `importRegister` is called.
    public init(options: SRPPPImportOptions = SRPPPImportOptions()) {
        self.options = options
    }

    /// Reads the register at `inputPath` and writes a new catalog at `catalogPath` (replacing
    /// any file there; nothing is left behind on failure).
    ///
    /// - Throws: `SRPPPImportError` when the input cannot be read or is not the register
    ///   (`.notThisRegister`, exit status `.badContent`), or the catalog cannot be written.
    ///   Data errors inside the register do not throw; they are in the report.
    public func importFile(
        at inputPath: String, to catalogPath: String,
        progress: (@Sendable (SRPPPImportProgress) -> Void)? = nil
    ) throws -> SRPPPImportReport {
        let input = try RegisterInput(path: inputPath)
        defer { input.close() }
        // Settled before the long read, so a missing --version fails at once.
        let date = Self.publicationDate(in: input.documentName) ?? Self.publicationDate(in: inputPath)
        guard let version = options.version ?? date.flatMap({ Int($0.replacingOccurrences(of: "-", with: "")) }) else {
            throw SRPPPImportError.versionUnknown(path: inputPath)
        }
        let header = Self.header(version: version, date: date)
        let target = Target(catalogPath: catalogPath, header: header, progress: progress)
        // A plain file is read metadata first, so that products are mapped and written while
        // libxml2 reads on; a pipe from a decompressor cannot be read twice.
        let layout = input.packaging == .xml ? RegisterLayout.find(in: input.fileDescriptor) : nil
        let mapped =
            try layout.flatMap { try importMetadataFirst(input, layout: $0, path: inputPath, to: target) }
            ?? importInOnePass(input, path: inputPath, to: target)
        return SRPPPImportReport(
            catalogPath: catalogPath, identity: header.identity, version: version, publicationDate: date,
            products: mapped.products - mapped.parallelImports, salePermissions: mapped.salePermissions,
            parallelImports: mapped.parallelImports, uses: mapped.uses, productUses: mapped.productUses,
            parallelImportUses: mapped.parallelImportUses, cultures: mapped.cultures, pests: mapped.pests,
            substances: mapped.substances, companies: mapped.companies,
            obligations: mapped.obligations, dataErrors: mapped.errors)
    }

    /// Where and how a catalog is written.
    private struct Target {
        var catalogPath: String
        var header: CatalogHeader
        var progress: (@Sendable (SRPPPImportProgress) -> Void)?
    }

    /// Reads the whole register, then maps it while the writer thread stores the records.
    private func importInOnePass(_ input: RegisterInput, path: String, to target: Target) throws -> RegisterMapper.Output {
        // Mapping and writing overlap: the mapper hands records over in batches to a thread
        // that owns the catalog writer, so SQLite stores one batch while the next is mapped.
        let records = BatchChannel<RegisterMapper.Record>(capacity: Self.batchesAhead)
        var writing: WorkerThread<Void>?
        let mapped = try { () throws -> RegisterMapper.Output in
            // The parsed document lives only until it is mapped, so it is freed while the
            // writer goes on.
            let reader = XMLNodeStream(
                source: XMLByteSource(fileDescriptor: input.fileDescriptor), documentName: input.documentName, path: path)
            let document: RegisterDocument
            do {
                // The reading thread ends before the input is finished or closed.
                defer { reader.stop() }
                document = try RegisterParser(path: path, progress: target.progress).parse(reader)
            }
            try input.finish()
            target.progress?(.writing(records: 0))
            writing = WorkerThread(name: "agro.import.writer") {
                try Self.write(records, header: target.header, to: target.catalogPath, progress: target.progress)
            }
            var sender = BatchSender(records, batchSize: 256)
            let output = RegisterMapper.map(consume document, examplesPerError: options.examplesPerError) { record in
                sender.send(record)
            }
            sender.flush()
            records.close()
            return output
        }()
        if let writing { try Self.join(writing, catalogPath: target.catalogPath) }
        return mapped
    }

    /// Reads the `<MetaData>` tables at the end of the file first, then the products from the
    /// start, each mapped and handed to the writer thread as soon as libxml2 has read it: the
    /// writer stores products while the rest of the file is read, instead of waiting for the
    /// whole document. Each product's uses follow it.
    ///
    /// Returns nil, with the descriptor back at the start, when the file is not laid out as
    /// `layout` says after all (the metadata pass fails, or the products pass meets other
    /// tables): the one-pass import then reads it and reports what is wrong with its lines.
    private func importMetadataFirst(
        _ input: RegisterInput, layout: RegisterLayout, path: String, to target: Target
    ) throws -> RegisterMapper.Output? {
        let descriptor = input.fileDescriptor
        // A few batches ahead are enough to keep the writer busy; more only hold mapped records
        // (some 0.6 MB a batch of uses) while SQLite's cache grows.
        let records = BatchChannel<RegisterMapper.Record>(capacity: Self.batchesAhead)
        target.progress?(.writing(records: 0))
        // The writer creates its schema, and libxml2 starts on the products, while the
        // metadata pass runs.
        let writing = WorkerThread(name: "agro.import.writer") {
            try Self.write(records, header: target.header, to: target.catalogPath, progress: target.progress)
        }
        // On any way out but the last, the writer stops and leaves no file.
        var finished = false
        defer {
            if !finished {
                records.cancel()
                _ = try? writing.join()
            }
        }
        // One key cache for both passes: the keys the products refer to are then the strings
        // of the metadata rows, and compare as such.
        let keys = KeyCache()
        let reader = XMLNodeStream(
            source: XMLByteSource(fileDescriptor: descriptor), documentName: input.documentName, path: path, keys: keys)
        // The reading thread ends before the input is finished or closed.
        defer { reader.stop() }
        // The metadata and the products read live only until they are mapped, so they are
        // freed before the writer's last steps (indexes, VACUUM), where its memory peaks.
        let mapped = try { () throws -> RegisterMapper.Output? in
            let metadata: RegisterDocument
            do {
                let source = XMLByteSource(fileDescriptor: descriptor, head: layout.head, tailFrom: layout.metadataOffset)
                let tables = XMLNodeStream(source: source, documentName: input.documentName, path: path, keys: keys)
                defer { tables.stop() }
                metadata = try RegisterParser(path: path, part: .metadata).parse(tables)
            } catch {
                return nil
            }
            var sender = BatchSender(records, batchSize: 256)
            var run = RegisterMapper(document: metadata, examplesPerError: options.examplesPerError).run(uses: .withProduct) {
                record in
                sender.send(record)
            }
            _ = run.begin()
            let products = try RegisterParser(path: path, progress: target.progress, part: .products).parse(reader) {
                product in
                _ = run.add(product)
                return true
            }
            // Some table is elsewhere than the scan found: the file is read again, in one pass.
            guard products.skippedTables == metadata.tableCount else { return nil }
            let output = run.finish()
            sender.flush()
            return output
        }()
        reader.stop()
        guard let output = mapped else {
            lseek(descriptor, 0, SEEK_SET)
            return nil
        }
        try input.finish()
        records.close()
        finished = true
        try Self.join(writing, catalogPath: target.catalogPath)
        return output
    }

    /// How many batches of mapped records may wait for the writer.
    private static let batchesAhead = 8

    /// Waits for the writer thread; its errors as the import's.
    private static func join(_ writing: WorkerThread<Void>, catalogPath: String) throws {
        do {
            try writing.join()
        } catch let error as any UserFacingError {
            throw error
        } catch {
            throw SRPPPImportError.cannotWrite(path: catalogPath, reason: "\(error)")
        }
    }

    /// The import stopped before every record was sent: the writer leaves no catalog.
    private struct WritingCancelled: Error {}

    /// Runs on the writer thread: stores the records coming through `records`, then finishes
    /// the catalog. On failure, cancels the channel (so the mapper stops) and leaves no file.
    private static func write(
        _ records: BatchChannel<RegisterMapper.Record>, header: CatalogHeader, to path: String,
        progress: (@Sendable (SRPPPImportProgress) -> Void)?
    ) throws {
        let writer: CatalogWriter
        do {
            writer = try CatalogWriter(path: path, header: header)
        } catch {
            records.cancel()
            throw SRPPPImportError.cannotWrite(path: path, reason: "\(error)")
        }
        do {
            var written = 0
            var finished: [RegisterMapper.Record] = []
            while let batch = records.receive(returning: consume finished) {
                try writer.batch {
                    // Read in place: iterating the array copied each record (a retain of each of
                    // its texts and arrays, which the mapping thread shares) and released the copy.
                    try batch.withUnsafeBufferPointer { records in
                        for index in records.indices {
                            switch records[index] {
                            case let .company(company): try writer.add(company)
                            case let .statement(statement): try writer.add(statement)
                            case let .substance(substance): try writer.add(substance)
                            case let .culture(culture): try writer.add(culture)
                            case let .pest(pest): try writer.add(pest)
                            case let .obligation(obligation): try writer.add(obligation)
                            case let .product(product): try writer.add(product)
                            case let .use(use): try writer.add(use)
                            case let .original(productID, originalID): try writer.setOriginal(of: productID, to: originalID)
                            }
                            written += 1
                            if written % 5000 == 0 { progress?(.writing(records: written)) }
                        }
                    }
                }
                finished = batch
            }
            // A cancelled channel ends like a closed one, with records missing.
            if records.isCancelled { throw WritingCancelled() }
            progress?(.finishing)
            // Compacted: this is the file a publisher ships to phones, and uncompacted it
            // compresses a quarter larger (2026 register: 6.47 MB against 5.09 MB gzipped).
            try writer.finish()
        } catch {
            records.cancel()
            writer.discard()
            throw error
        }
    }

    /// "2024-12-16" from a name holding 2024_12_16, 2024-12-16 or 20241216.
    static func publicationDate(in name: String) -> String? {
        let file = (name as NSString).lastPathComponent
        guard let range = file.range(of: #"(19|20)[0-9]{2}[-_]?[0-9]{2}[-_]?[0-9]{2}"#, options: .regularExpression) else {
            return nil
        }
        // ASCII digits only: other scripts' digits match `isNumber` but not `Int(_:)`.
        let digits = file[range].filter { $0.isASCII && $0.isNumber }
        let year = digits.prefix(4), month = digits.dropFirst(4).prefix(2), day = digits.suffix(2)
        guard let m = Int(month), (1...12).contains(m), let d = Int(day), (1...31).contains(d) else { return nil }
        return "\(year)-\(month)-\(day)"
    }

    /// The catalog header: languages with German as the default, and the attribution the
    /// register's terms of use require (BLV named, official register referenced).
    static func header(version: Int, date: String?) -> CatalogHeader {
        let published = date ?? ""
        let suffix = published.isEmpty ? "" : " \(published)"
        return CatalogHeader(
            identity: identity, version: version,
            builtAt: published.isEmpty ? "1970-01-01T00:00:00Z" : "\(published)T00:00:00Z",
            locales: LocaleChain(
                locales: RegisterMapper.locales,
                fallbacks: ["en": ["de"], "fr": ["de"], "it": ["de"], "de": ["fr"]]),
            title: [
                "de": "Pflanzenschutzmittelverzeichnis der Schweiz\(suffix)",
                "fr": "Index des produits phytosanitaires de Suisse\(suffix)",
                "it": "Elenco dei prodotti fitosanitari della Svizzera\(suffix)",
                "en": "Swiss register of plant protection products\(suffix)",
            ],
            attribution: [
                "de": "Quelle: Bundesamt für Lebensmittelsicherheit und Veterinärwesen (BLV), "
                    + "Pflanzenschutzmittelverzeichnis, https://www.psm.admin.ch. Die Aufführung eines Produkts "
                    + "ist keine Empfehlung; im Zweifel gelten einzig die Zulassungsunterlagen.",
                "fr": "Source : Office fédéral de la sécurité alimentaire et des affaires vétérinaires (OSAV), "
                    + "index des produits phytosanitaires, https://www.psm.admin.ch. La mention d'un produit "
                    + "n'est pas une recommandation ; en cas de doute, seuls les documents d'homologation font foi.",
                "it": "Fonte: Ufficio federale della sicurezza alimentare e di veterinaria (USAV), "
                    + "elenco dei prodotti fitosanitari, https://www.psm.admin.ch. L'elenco di un prodotto "
                    + "non è una raccomandazione; in caso di dubbio fanno stato unicamente i documenti di omologazione.",
                "en": "Source: Swiss Federal Food Safety and Veterinary Office (FSVO/BLV), register of plant "
                    + "protection products, https://www.psm.admin.ch. A listing is no recommendation; in case of "
                    + "doubt only the original registration documents apply.",
            ])
    }
}
