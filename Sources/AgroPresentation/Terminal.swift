import AgroDomain
import AgroTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A place the program prints to: standard output or standard error.
///
/// Everything printed passes through `sanitize`, so catalog content cannot carry escape
/// sequences or other control characters to the user's terminal.
package struct Terminal: Sendable {
    package let fileDescriptor: Int32

    package static let standardOutput = Terminal(fileDescriptor: STDOUT_FILENO)
    package static let standardError = Terminal(fileDescriptor: STDERR_FILENO)

    /// Whether this is an interactive terminal (not a pipe or a file).
    package var isInteractive: Bool { isatty(fileDescriptor) == 1 }

    /// Rows and columns of the terminal, else from LINES/COLUMNS, else 24 x 80.
    package var size: (rows: Int, columns: Int) {
        if let window = TerminalCapabilities.windowSize(fileDescriptor: fileDescriptor), window.rows > 0, window.columns > 0 {
            return window
        }
        let environment = ProcessVariables.read()
        return (environment["LINES"].flatMap(Int.init) ?? 24, environment["COLUMNS"].flatMap(Int.init) ?? 80)
    }

    /// Writes `text` as it is; callers sanitize content first.
    package func write(_ text: String) {
        var data = Array(text.utf8)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return writeDescriptor(fileDescriptor, base + offset, buffer.count - offset)
            }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// Writes one line of content, control characters removed. Emphasis marked by `bold(_:)`
    /// becomes an ANSI style when `styles` is true and disappears otherwise: escape sequences
    /// are added only after the content has been cleaned.
    package func line(_ text: String = "", styles: Bool = false) {
        let clean = Terminal.sanitize(text)
        // Most lines mark no emphasis: Foundation's replacingOccurrences, even finding nothing,
        // costs a catalog query 1% of its instructions in the runtime's conformance look-ups.
        let markers = (Terminal.boldOn + Terminal.boldOff).unicodeScalars
        guard clean.unicodeScalars.contains(where: { markers.contains($0) }) else {
            write(clean + "\n")
            return
        }
        let styled =
            styles
            ? clean.replacingOccurrences(of: Terminal.boldOn, with: "\u{1B}[1m")
                .replacingOccurrences(of: Terminal.boldOff, with: "\u{1B}[0m")
            : clean.replacingOccurrences(of: Terminal.boldOn, with: "").replacingOccurrences(of: Terminal.boldOff, with: "")
        write(styled + "\n")
    }

    /// Private-use characters marking emphasis until a line is printed.
    package static let boldOn = "\u{E000}", boldOff = "\u{E001}"

    /// `text` marked for emphasis (see `line(_:styles:)`).
    package static func bold(_ text: String) -> String {
        boldOn + text.replacingOccurrences(of: boldOn, with: "").replacingOccurrences(of: boldOff, with: "") + boldOff
    }

    /// Content with control, bidirectional and invisible characters removed (`TerminalText`);
    /// newlines and tabs kept.
    package static func sanitize(_ text: String) -> String {
        TerminalText.sanitize(text)
    }

    /// A one-line message (error, warning): line breaks become spaces (`TerminalText.oneLine`).
    package static func oneLine(_ text: String) -> String {
        TerminalText.oneLine(text)
    }

    /// Content for one table cell or one line: as `sanitize`, and line breaks and tabs removed.
    package static func singleLine(_ text: String) -> String {
        TerminalText.sanitize(text, keepNewlines: false)
            .replacingOccurrences(of: "\u{2028}", with: " ")
    }
}

/// write(2), named apart from the methods called `write` here.
private func writeDescriptor(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(descriptor, buffer, count)
    #else
        return Darwin.write(descriptor, buffer, count)
    #endif
}
