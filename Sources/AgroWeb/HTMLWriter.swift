/// HTML appended piece by piece: markup as it is, text escaped as the templates escape a
/// `{{value}}` (`HTMLEscaping`), so that what a page writes directly escapes as the templates do.
struct HTMLWriter {
    private(set) var html = ""

    init(capacity: Int) { html.reserveCapacity(capacity) }

    /// Markup, written as it is.
    mutating func markup(_ text: String) { html += text }

    /// Markup, written as it is (a part of a kept text, not copied first).
    mutating func markup(_ text: Substring) { html += text }

    /// A value, escaped.
    mutating func text(_ value: String) { html += HTMLEscaping.escape(value) }
}
