import AgroDomain

/// Failure to find any catalog to open at start-up.
public enum CatalogSelectionError: DescribedError, Equatable {
    /// Neither the installed nor the bundled catalog can be used; says why for each.
    case noCatalog(String)

    /// One line naming the reasons.
    public var message: String {
        switch self {
        case let .noCatalog(reason): return "no usable catalog: \(reason)"
        }
    }

    /// This case as data, for the program to word (`error.CatalogSelectionError.<name>`).
    public var errorCase: ErrorCase {
        switch self {
        case let .noCatalog(reason): return ErrorCase("CatalogSelectionError", "noCatalog", [reason])
        }
    }
}
