import AgroCaching
import AgroDomain
import AgroTerminal
import Foundation

/// How a command prints what it found.
package enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, csv
}

/// Everything a command needs from the outside world, built once from the global options and
/// passed down; there are no singletons.
package struct Environment: Sendable {
    package let paths: Paths
    package let configuration: Configuration
    /// Language of data and interface.
    package let locale: String
    package let strings: Localizer
    package let format: OutputFormat
    package let output: Terminal
    /// An explicit catalog file (--catalog, or the config file), if any.
    package let catalogPath: String?
    package let processEnvironment: [String: String]

    /// Today, as an ISO 8601 date ("2026-05-01"): what "expired" and "registered today" are
    /// judged against. Read once where the environment is made, so one command or one request
    /// sees one day, and tests can fix it.
    package let today: String
    /// The moment the environment was made: what a journal record's age is judged against.
    package let now: Date

    /// The tables of `Assets/` (pictogram and formulation names), read once per file and
    /// shared by every environment derived from this one: a server reads each once, not per card.
    package let assetTables: KeyedCache<String, [String: [String: String]]>

    /// The stores the catalog and the favorites are opened with, chosen by the program's
    /// composition root (each executable's `main`), the one place that names the store's types.
    package let stores: (any StoreOpener)?

    package init(
        paths: Paths, configuration: Configuration, locale: String, format: OutputFormat, output: Terminal,
        catalogPath: String?, processEnvironment: [String: String], today: String, now: Date? = nil,
        stores: (any StoreOpener)? = nil
    ) {
        self.paths = paths
        self.configuration = configuration
        self.locale = locale
        strings = Localizer(locale: locale, directoryPath: paths.localizablePath)
        self.format = format
        self.output = output
        self.catalogPath = catalogPath
        self.processEnvironment = processEnvironment
        self.today = today
        // Noon of `today` when no moment is given: a test that fixes the day fixes the clock.
        self.now = now ?? PlanDate(today).map { Date(timeIntervalSince1970: Double($0.day) * 86_400 + 43_200) } ?? Date()
        assetTables = KeyedCache(maxCount: 16, eviction: .keepFirst)
        self.stores = stores
    }

    /// Today's date in the ISO 8601 form `today` holds (`2026-11-25`), the day in UTC.
    package static func isoDate(_ date: Date) -> String {
        // Integer arithmetic: setting up an ISO8601DateFormatter cost 6% of the instructions of
        // a catalog query's whole process, at every start (Benchmarks/startup/README.md).
        let (year, month, day) = GregorianDays.date(Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
    }

    /// Whether the user is at a terminal on both ends, so the pager may prompt.
    package var isInteractive: Bool {
        output.isInteractive && isatty(STDIN_FILENO) == 1
    }

    /// Whether to style output with ANSI escapes: on a terminal, unless NO_COLOR is set.
    package var usesStyles: Bool {
        TerminalCapabilities.wantsANSIStyles(fileDescriptor: output.fileDescriptor, environment: processEnvironment)
    }

    /// Columns a table may use: the terminal's width, or no limit when output goes to a pipe
    /// or a file (so nothing is cut off for grep).
    package var tableWidth: Int { output.isInteractive ? output.size.columns : Int.max / 4 }

    /// `stores`, which an environment that opens a catalog must have been given.
    private var opener: any StoreOpener {
        get throws {
            guard let stores else { throw StoresNotGiven() }
            return stores
        }
    }

    /// Where the catalog is: --catalog or the config file's, else the installed and bundled ones.
    package var catalogLocation: CatalogLocation {
        CatalogLocation(explicitPath: catalogPath, dataDirectory: paths.dataPath, bundledPath: paths.bundledCatalogPath)
    }

    /// Opens the catalog to read: --catalog, else the config file's, else the newest valid one
    /// among the bundled and the installed catalogs.
    ///
    /// A missing or corrupt installed catalog falls back to the bundled one with a one-line
    /// warning on stderr. The catalog is hot-swappable: in an interactive session (the pager)
    /// a catalog installed or rolled back by another process is picked up between two pages.
    package func openCatalog() throws -> any SwappableCatalog {
        let (catalog, warning) = try opener.openCatalog(at: catalogLocation, watching: isInteractive)
        Self.warn(warning)
        return catalog
    }

    /// `openCatalog()` for a command whose process ends with it: the catalog is never closed.
    ///
    /// Closing would free GRDB's dispatch queue, and libdispatch disposes of a queue by waking
    /// a worker thread, which it first has to create: a thread started only to be killed by
    /// the exit a moment later (Benchmarks/startup/README.md). The exit closes the file.
    package func openCatalogUntilExit() throws -> any Catalog {
        Self.keptUntilExit(try openCatalog())
    }

    /// The catalog `openCatalog()` opens, for a one-shot list printed whole (no pager, no card
    /// opened from it): the stores may answer these use cases faster. Never closed either.
    package func openListUntilExit() throws -> any CatalogList {
        let (catalog, warning) = try opener.openList(at: catalogLocation)
        Self.warn(warning)
        return Self.keptUntilExit(catalog)
    }

    /// `catalog`, never released: the exit closes its file.
    private static func keptUntilExit<Opened>(_ catalog: Opened) -> Opened {
        _ = Unmanaged.passRetained(catalog as AnyObject)
        return catalog
    }

    /// The selection's warning (an unusable installed catalog), one line on stderr.
    private static func warn(_ warning: String?) {
        if let warning { Terminal.standardError.line("agro: warning: " + warning) }
    }

    /// Opens the favorites in the user database.
    package func openFavorites() throws -> any FavoritesUseCase {
        try opener.openFavorites(path: paths.userDatabase.path)
    }

    /// Prints lines of content: control characters removed, emphasis styled on a terminal.
    package func print(_ lines: [String]) {
        for line in lines { output.line(line, styles: usesStyles) }
    }

    package func print(_ line: String = "") {
        output.line(line, styles: usesStyles)
    }

    /// Text emphasised on a styled terminal, plain elsewhere.
    package func bold(_ text: String) -> String {
        Terminal.bold(text)
    }

    /// Writes a JSON document for `value`, keys sorted so output is stable.
    package func printJSON<T: Encodable>(_ value: T) throws {
        output.write(try Environment.json(value))
    }

    /// Writes an encoded JSON document (see `json(data:)`).
    package func printJSON(data: Data) {
        output.write(Environment.json(data: data))
    }

    /// The JSON document every command prints for `value` (keys sorted, so output is stable),
    /// ending with a newline; `agro web` answers with the same bytes.
    package static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return json(data: try encoder.encode(value))
    }

    /// An encoded JSON document as printed. The encoder escapes C0 controls but writes DEL and
    /// C1 controls (U+007F...U+009F, CSI among them) as they are; content is not ours, so those
    /// are escaped too. They can only occur inside strings, so the document stays the same JSON.
    package static func json(data: Data) -> String {
        // Bidirectional controls too: valid in a string, but they reorder a terminal's line.
        let escaped = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && TerminalText.isUnsafe(scalar.value) }
        let decoded = String(decoding: data, as: UTF8.self)
        // Most documents have nothing to escape: reading them is much cheaper than rebuilding
        // them scalar by scalar (a third of the encoding time of an `agro web` answer).
        guard decoded.unicodeScalars.contains(where: escaped) else { return decoded + "\n" }
        var text = String.UnicodeScalarView()
        for scalar in decoded.unicodeScalars {
            if escaped(scalar) {
                text.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                text.append(scalar)
            }
        }
        return String(text) + "\n"
    }
}

/// An environment asked to open a catalog without the stores to open it with: a command that
/// the program's `main` did not hand them to. A fault in agro, said in one line, not a crash.
package struct StoresNotGiven: UserFacingError {
    package var message: String { "this command was run without the catalog's stores (a fault in agro: please report it)" }
}
