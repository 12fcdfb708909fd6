import AgroDomain

/// A page of search hits as `Environment.json(PageDocument(page))` writes it, byte for byte,
/// written directly with `ProductPageJSON`'s writer (same key order, indentation, escaping and
/// numbers): `JSONEncoder` was 0.8 M of a search's 18 M instructions at start-up
/// (Benchmarks/README.md). A test compares the two.
package enum SearchPageJSON {
    /// The document, with the final newline `Environment.json` adds.
    package static func json(_ page: Page<SearchHit>) -> String {
        ProductPageJSON.Writer.document(page, bytesPerItem: 160, item: hit)
    }

    /// One hit at depth 2 (`SearchHit`'s synthesized encoding: `detail` left out when nil).
    private static func hit(_ hit: SearchHit, into out: inout ProductPageJSON.Writer) {
        out.raw("    {\n      ")
        if let detail = hit.detail {
            out.raw("\"detail\" : ")
            out.string(detail)
            out.raw(",\n      ")
        }
        out.raw("\"id\" : ")
        out.string(hit.id)
        out.raw(",\n      \"kind\" : ")
        out.string(hit.kind.rawValue)
        out.raw(",\n      \"name\" : ")
        out.string(hit.name)
        out.raw(",\n      \"rank\" : ")
        out.raw(ProductPageJSON.number(hit.rank))
        out.raw("\n    }")
    }
}
