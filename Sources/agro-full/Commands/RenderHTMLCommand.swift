import AgroCLI
import AgroDomain
import AgroHTML
import AgroPresentation
import ArgumentParser
import Foundation

struct RenderHTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-html",
        abstract: "Render HTML as terminal text: wrapped paragraphs, lists, tables, numbered links.",
        discussion: "Bold, italic and underline are shown as terminal styles on a terminal only, never with NO_COLOR.")

    @Argument(help: "HTML file, or - for standard input.") var file: String = "-"
    @Option(help: "Width in columns (default: the terminal's, else 80).") var width: Int?
    @Option(help: "Base URL that relative links resolve against.") var base: String?

    func validate() throws {
        if let width, width < 10 {
            throw UsageError(.belowMinimum(option: "--width", value: String(width), minimum: 10), command: "agro render-html")
        }
    }

    func run() throws {
        let data: Data
        if file == "-" {
            do { data = try FileHandle.standardInput.readToEnd() ?? Data() } catch { throw PathError.unreadable(file) }
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw PathError.unreadable(file)
            }
            data = contents
        }
        let options = HTMLRenderOptions.terminal(width: width, base: base, environment: ProcessInfo.processInfo.environment)
        // The renderer's output is already free of control characters other than its own styles.
        Terminal.standardOutput.write(HTMLRenderer.render(html: data, options: options))
    }
}
