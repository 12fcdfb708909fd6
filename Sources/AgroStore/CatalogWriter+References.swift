import AgroDomain
import Foundation
import GRDB

// The references of the use tables are checked by the writer itself rather than by
// `PRAGMA foreign_key_check`: a register import writes some 370 000 use rows, and the pragma
// looked up the parent row of each one in its B-tree (about 0.15 s of its 0.175 s for the 2026
// register). The writer sees every id it writes, so it keeps the ids that uses refer to and
// looks the references up in memory at the end. The other tables are still checked by the
// pragma, table by table (`CatalogWriter.finish()`).

/// A text compared and hashed as SQLite's BINARY collation compares it: by its UTF-8 bytes.
/// (`String` equality is canonical equivalence: "é" as one code point and as two are equal
/// strings but two different keys to SQLite.)
struct StoredText: Hashable {
    var text: String

    init(_ text: String) { self.text = text }

    static func == (a: StoredText, b: StoredText) -> Bool {
        a.text.utf8.count == b.text.utf8.count
            && a.text.withUTF8Bytes { x in
                b.text.withUTF8Bytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
    }

    func hash(into hasher: inout Hasher) {
        text.withUTF8Bytes { hasher.combine(bytes: $0) }
    }
}

/// The ids of the rows that uses refer to, and the references of the uses, as written.
/// Records may come in any order, so references are looked up once everything is in, by
/// `firstMissing()` on a thread of its own while the writer derives the lookup tables: the
/// writer itself only appends the ids (it is the import's slowest thread).
struct UseReferences: Sendable {
    /// A reference from a use table to its parent table.
    enum Kind: Int, CaseIterable {
        case product, culture, pest, obligation

        /// The table holding the reference and the table it refers to, as the schema says.
        var tables: (table: String, parent: String) {
            switch self {
            case .product: return ("uses", "products")
            case .culture: return ("use_cultures", "cultures")
            case .pest: return ("use_pests", "pests")
            case .obligation: return ("use_obligations", "obligations")
            }
        }
    }

    /// Every foreign key of the tables whose references the writer checks itself, as
    /// (table, column, parent table): the references of `Kind`, and each use table's `use_id`,
    /// which `CatalogWriter.add(_: Use)` writes only after the use's own row, with its id.
    /// `PRAGMA foreign_key_check` skips these tables; a test holds this list to the schema.
    static let checkedForeignKeys: [(table: String, column: String, parent: String)] = [
        ("uses", "product_id", "products"),
        ("use_cultures", "use_id", "uses"), ("use_cultures", "culture_id", "cultures"),
        ("use_pests", "use_id", "uses"), ("use_pests", "pest_id", "pests"),
        ("use_obligations", "use_id", "uses"), ("use_obligations", "obligation_id", "obligations"),
        ("use_i18n", "use_id", "uses"),
    ]

    /// The tables `PRAGMA foreign_key_check` leaves to the writer.
    static let checkedTables = Set(checkedForeignKeys.map(\.table))

    /// By `Kind`: the ids of the parent rows written, and the ids the use rows refer to.
    private var written: [[String]] = Array(repeating: [], count: Kind.allCases.count)
    private var referred: [[String]] = Array(repeating: [], count: Kind.allCases.count)

    /// A row of `kind`'s parent table was written with `id`.
    mutating func wrote(_ kind: Kind, _ id: String) {
        written[kind.rawValue].append(id)
    }

    /// A use row refers to `id` of `kind`'s parent table.
    mutating func refer(_ kind: Kind, to id: String) {
        referred[kind.rawValue].append(id)
    }

    /// A reference to a row that was never written, the first of the first `Kind` that has
    /// one; as the error `PRAGMA foreign_key_check` would have given.
    func firstMissing() -> DatabaseError? {
        for kind in Kind.allCases {
            let ids = Set(written[kind.rawValue].lazy.map(StoredText.init))
            if referred[kind.rawValue].contains(where: { !ids.contains(StoredText($0)) }) {
                return CatalogWriter.danglingReference(table: kind.tables.table, parent: kind.tables.parent)
            }
        }
        return nil
    }
}

extension CatalogWriter {
    /// The error of a reference to a missing row, whichever check finds it.
    static func danglingReference(table: String, parent: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: "FOREIGN KEY constraint failed: a row of \(table) refers to a missing row of \(parent)")
    }
}
