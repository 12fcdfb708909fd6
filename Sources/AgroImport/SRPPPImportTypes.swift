import AgroDomain
import Foundation

/// Failures that stop an import. Data errors inside an otherwise usable register do not stop
/// it: they are counted in `SRPPPImportReport.dataErrors`.
public enum SRPPPImportError: UserFacingError, Equatable {
    /// The input file cannot be opened.
    case cannotOpen(path: String, reason: String)
    /// The file is something other than the BLV register (wrong root element, not XML, ...).
    case notThisRegister(path: String, reason: String)
    /// The file starts as the register but its XML breaks off or is damaged.
    case malformedXML(path: String, line: Int, message: String)
    /// `xz` or `unzip` failed on the file.
    case decompressionFailed(path: String, tool: String, message: String)
    /// A decompressor the file needs is not installed.
    case toolMissing(tool: String)
    /// No `--version` was given and none can be derived from the file name.
    case versionUnknown(path: String)
    /// The catalog file could not be written.
    case cannotWrite(path: String, reason: String)

    /// The error in English, one line, naming the file.
    public var message: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open \(path): \(reason)"
        case let .notThisRegister(path, reason):
            return "\(path) is not the Swiss register of plant protection products (BLV PublicationData XML): \(reason)"
        case let .malformedXML(path, line, message):
            let place = line > 0 ? " at line \(line)" : ""
            return "\(path) is damaged\(place): \(message)"
        case let .decompressionFailed(path, tool, message):
            let detail = message.isEmpty ? "" : ": \(message)"
            return "cannot unpack \(path) as \(tool)\(detail)"
        case let .toolMissing(tool):
            return
                "reading this file needs the `\(tool)` program; install it (apt-get install \(tool == "xz" ? "xz-utils" : tool))"
        case let .versionUnknown(path):
            return "cannot tell the publication date of \(path) from its name; pass --version N"
        case let .cannotWrite(path, reason):
            return "cannot write the catalog \(path): \(reason)"
        }
    }
}

/// Where an import has got to, for a progress line.
public enum SRPPPImportProgress: Sendable, Hashable {
    /// Streaming the XML; `elements` read so far.
    case reading(elements: Int)
    /// Writing catalog records.
    case writing(records: Int)
    /// Deriving culture closure and search indexes, compacting.
    case finishing
}

/// Settings of an import.
public struct SRPPPImportOptions: Sendable, Hashable {
    /// Catalog version; nil derives it from the publication date in the file name
    /// (`PublicationData_2024_12_16.xml` gives 20241216).
    public var version: Int?
    /// How many examples each kind of data error keeps.
    public var examplesPerError: Int

    /// Import settings; the defaults derive the version from the file name.
    public init(version: Int? = nil, examplesPerError: Int = 5) {
        self.version = version
        self.examplesPerError = examplesPerError
    }
}

/// One kind of problem found in the register data, with how often it occurred.
public struct SRPPPDataError: Sendable, Hashable, Codable {
    /// What went wrong, e.g. "missing Culture key" or "unparsable number".
    public var kind: String
    /// How many times it occurred in the register.
    public var count: Int
    /// The first occurrences, each naming the record and the offending value.
    public var examples: [String]

    /// A kind of data error seen `count` times, with its first `examples`.
    public init(kind: String, count: Int, examples: [String]) {
        self.kind = kind
        self.count = count
        self.examples = examples
    }
}

/// What an import wrote and what it had to skip.
public struct SRPPPImportReport: Sendable, Hashable, Codable {
    /// The catalog file written.
    public var catalogPath: String
    /// The catalog's identity (`ch.blv.srppp`).
    public var identity: String
    /// The catalog's version (from `--version` or the publication date).
    public var version: Int
    /// Publication date as ISO 8601 (YYYY-MM-DD), when known from the file name.
    public var publicationDate: String?
    /// Registered products and sale permissions (one per wNbr).
    public var products: Int
    /// Sale permissions (products sold under another name), counted in `products`.
    public var salePermissions: Int
    /// Parallel imports, counted in `products`.
    public var parallelImports: Int
    /// Uses (indications), of products and parallel imports together.
    public var uses: Int
    /// Uses of registered products.
    public var productUses: Int
    /// Uses of parallel imports.
    public var parallelImportUses: Int
    /// Cultures written (the register's cultures and culture groups).
    public var cultures: Int
    /// Pests written.
    public var pests: Int
    /// Active substances, safeners and synergists written.
    public var substances: Int
    /// Registration holders written.
    public var companies: Int
    /// Distinct conditions of use written, each text once.
    public var obligations: Int
    /// Data errors by kind, sorted by kind. Empty for a clean register.
    public var dataErrors: [SRPPPDataError]

    /// Total number of data errors of every kind.
    public var dataErrorCount: Int { dataErrors.reduce(0) { $0 + $1.count } }

    /// A few lines for the terminal: counts, then each kind of data error with examples.
    public var summary: String {
        var lines = [
            "imported \(products) products (\(salePermissions) sale permissions), \(parallelImports) parallel imports, "
                + "\(uses) uses, \(cultures) cultures, \(pests) pests, \(substances) substances into \(catalogPath) "
                + "(\(identity) version \(version))"
        ]
        if dataErrors.isEmpty {
            lines.append("no data errors")
        } else {
            lines.append("\(dataErrorCount) data errors (skipped or left empty):")
            for error in dataErrors {
                lines.append("  \(error.count) × \(error.kind), e.g. \(error.examples.joined(separator: "; "))")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension SRPPPImportError: DescribedError {
    /// This case as data, for the program to word (`error.SRPPPImportError.<name>` in Localizable).
    public var errorCase: ErrorCase {
        switch self {
        case let .cannotOpen(v0, v1): return ErrorCase("SRPPPImportError", "cannotOpen", ["\(v0)", "\(v1)"])
        case let .notThisRegister(v0, v1): return ErrorCase("SRPPPImportError", "notThisRegister", ["\(v0)", "\(v1)"])
        case let .malformedXML(path, line, message) where line > 0:
            return ErrorCase("SRPPPImportError", "malformedXML.line", [path, "\(line)", message])
        case let .malformedXML(path, _, message): return ErrorCase("SRPPPImportError", "malformedXML", [path, message])
        case let .decompressionFailed(path, tool, message) where message.isEmpty:
            return ErrorCase("SRPPPImportError", "decompressionFailed", [path, tool])
        case let .decompressionFailed(path, tool, message):
            return ErrorCase("SRPPPImportError", "decompressionFailed.detail", [path, tool, message])
        case let .toolMissing(tool):
            // The Debian package to install: xz comes in xz-utils, the other tools under their names.
            return ErrorCase("SRPPPImportError", "toolMissing", [tool, tool == "xz" ? "xz-utils" : tool])
        case let .versionUnknown(v0): return ErrorCase("SRPPPImportError", "versionUnknown", ["\(v0)"])
        case let .cannotWrite(v0, v1): return ErrorCase("SRPPPImportError", "cannotWrite", ["\(v0)", "\(v1)"])
        }
    }
}
