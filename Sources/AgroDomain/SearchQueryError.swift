/// A search text over the size a search takes (`SearchQuery.maximumWords` and
/// `maximumLength` in AgroStore): each word is a prefix term over the whole index, so the
/// cost grows with their number.
public struct SearchQueryError: UserFacingError, Equatable {
    public var maximumWords: Int
    public var maximumLength: Int

    public init(maximumWords: Int, maximumLength: Int) {
        self.maximumWords = maximumWords
        self.maximumLength = maximumLength
    }

    public var message: String {
        "a search takes at most \(maximumWords) words and \(maximumLength) characters"
    }
}
