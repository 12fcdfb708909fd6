/// A search text over the size a search takes (`SearchQuery.maximumWords` and
/// `maximumLength` in AgroStore): each word is a prefix term over the whole index, so the
/// cost grows with their number.
public struct SearchQueryError: UserFacingError, Equatable {
    /// The most words a search takes.
    public var maximumWords: Int
    /// The most characters a search takes.
    public var maximumLength: Int

    /// The error for a search over `maximumWords` words or `maximumLength` characters.
    public init(maximumWords: Int, maximumLength: Int) {
        self.maximumWords = maximumWords
        self.maximumLength = maximumLength
    }

    /// The limits, in English, for library users (the fronts word it in the interface language).
    public var message: String {
        "a search takes at most \(maximumWords) words and \(maximumLength) characters"
    }
}
