import AgroTerminal
import Foundation

/// How `HTMLRenderer` lays out a document.
///
/// The renderer never looks at the terminal or the environment itself: the caller decides the
/// width and whether styles are wanted (see `TerminalCapabilities` in AgroTerminal), so the
/// same input always gives the same output.
public struct HTMLRenderOptions: Sendable, Equatable {
    /// Line width in terminal columns (clamped to 2...100,000). Preformatted text and the URL
    /// list may exceed it; everything else wraps.
    public var width: Int
    /// Whether bold, italic and underline are written as ANSI SGR sequences. Pass true only
    /// when writing to a terminal and `NO_COLOR` is unset (`TerminalCapabilities.wantsANSIStyles`).
    public var ansiStyles: Bool
    /// The document's own address: relative links and `<base href>` resolve against it.
    public var baseURL: URL?
    /// Whether links are numbered `[n]` and listed under "References:" at the end.
    public var listLinks: Bool

    /// Options with the defaults a plain dump wants: 80 columns, no styles, links listed.
    public init(width: Int = 80, ansiStyles: Bool = false, baseURL: URL? = nil, listLinks: Bool = true) {
        self.width = width
        self.ansiStyles = ansiStyles
        self.baseURL = baseURL
        self.listLinks = listLinks
    }
}

extension HTMLRenderOptions {
    /// Options for writing to `fileDescriptor`: `width` columns if given, else the terminal's
    /// (see `TerminalCapabilities.columns`); styles when the terminal takes them; relative
    /// links resolved against `base`.
    public static func terminal(
        width: Int?, base: String?, fileDescriptor: Int32 = 1, environment: [String: String]
    ) -> HTMLRenderOptions {
        HTMLRenderOptions(
            width: TerminalCapabilities.columns(requested: width, fileDescriptor: fileDescriptor, environment: environment),
            ansiStyles: TerminalCapabilities.wantsANSIStyles(fileDescriptor: fileDescriptor, environment: environment),
            baseURL: base.flatMap(URL.init(string:)))
    }
}
