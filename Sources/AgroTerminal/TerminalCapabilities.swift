import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a program may assume about where its output goes: the width to lay text out at, and
/// whether ANSI styles are welcome. Decided once by the caller, so renderers stay pure.
public enum TerminalCapabilities {
    /// The width to lay out at: `requested` (a `--width` option) if given, else the terminal's
    /// width when `fileDescriptor` is a terminal, else `COLUMNS`, else 80.
    public static func columns(
        requested: Int? = nil, fileDescriptor: Int32 = 1, environment: [String: String] = [:]
    ) -> Int {
        if let requested, requested > 0 { return requested }
        if let size = windowSize(fileDescriptor: fileDescriptor), size.columns > 0 { return size.columns }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Rows and columns of the terminal `fileDescriptor` is, as the kernel reports them; nil
    /// when it is not a terminal.
    public static func windowSize(fileDescriptor: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard isatty(fileDescriptor) != 0, ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Whether styles are wanted: output is a terminal, `NO_COLOR` is unset or empty
    /// (https://no-color.org), and `TERM` is not "dumb".
    public static func wantsANSIStyles(fileDescriptor: Int32 = 1, environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(fileDescriptor) != 0
    }
}
