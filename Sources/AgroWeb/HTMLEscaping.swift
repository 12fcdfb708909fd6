import Foundation
import Mustache

/// The one HTML escaping of `agro web` (templates, rows written by hand, sanitized articles),
/// byte by byte over the UTF-8: the same five characters as Mustache's own (`<`, `>`, `&`, `"`,
/// `'`), which it looks up per `Character` in a dictionary, a quarter of a product card's time.
/// Escaping bytes also escapes a quote that a combining mark follows (one `Character` to
/// Mustache, which left it as it was, ending an attribute's value early).
struct HTMLEscaping: MustacheContentType {
    /// The name templates select it by (`{{% CONTENT_TYPE: AGRO_HTML}}`).
    static let name = "AGRO_HTML"

    func escapeText(_ text: String) -> String { Self.escape(text) }

    /// `text` for HTML content or a quoted attribute value.
    static func escape(_ text: String) -> String {
        // Most values (ids, numbers, names) have nothing to escape: returned as they are.
        guard text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x22: bytes.append(contentsOf: "&quot;".utf8)
            case 0x27: bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A template of `text` escaping with `HTMLEscaping` like the library's: registered here too,
    /// since Mustache's registry of content types is the process's and a template made before
    /// any library would otherwise escape with Mustache's own.
    static func template(_ text: String) throws -> MustacheTemplate {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
        return try MustacheTemplate(string: "{{% CONTENT_TYPE: \(name)}}\n" + text)
    }

    /// The `.mustache` templates of `directory`, each named by its file name without the
    /// extension, escaping with `HTMLEscaping`: a standalone pragma line is put before each
    /// template's text (Mustache drops the line, and a partial starts again with its own).
    static func library(directory: URL) throws -> MustacheLibrary {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "mustache" {
            let text = try String(contentsOf: file, encoding: .utf8)
            try library.register("{{% CONTENT_TYPE: \(name)}}\n" + text, named: file.deletingPathExtension().lastPathComponent)
        }
        return library
    }
}
