import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `HTMLRenderer` lays out a document.
///
/// The renderer never looks at the terminal or the environment itself: the caller decides the
/// width and whether styles are wanted (see `resolvedWidth` and `wantsANSIStyles`), so the
/// same input always gives the same output.
public struct HTMLRenderOptions: Sendable, Equatable {
    /// Line width in terminal columns (clamped to 2...100,000). Preformatted text and the URL
    /// list may exceed it; everything else wraps.
    public var width: Int
    /// Whether bold, italic and underline are written as ANSI SGR sequences. Pass true only
    /// when writing to a terminal and `NO_COLOR` is unset (`wantsANSIStyles`).
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

    /// The width to render at: `requested` (a `--width` option) if given, else the terminal's
    /// width when `fileDescriptor` is a terminal, else `COLUMNS`, else 80.
    public static func resolvedWidth(
        requested: Int?, fileDescriptor: Int32 = 1, environment: [String: String] = [:]
    ) -> Int {
        if let requested, requested > 0 { return requested }
        var size = winsize()
        if isatty(fileDescriptor) != 0, ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Whether styles are wanted: output is a terminal and `NO_COLOR` is unset or empty
    /// (https://no-color.org), and `TERM` is not "dumb".
    public static func wantsANSIStyles(fileDescriptor: Int32 = 1, environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(fileDescriptor) != 0
    }
}
