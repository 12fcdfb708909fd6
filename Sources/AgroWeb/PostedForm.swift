import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird

/// A form posted to a page: `application/x-www-form-urlencoded`, or `multipart/form-data`
/// when it carries a file (the season plan). Read whole, up to a limit.
struct PostedForm: Sendable {
    struct Field: Sendable {
        var name: String
        var fileName: String?
        var data: Data
        var text: String { String(decoding: data, as: UTF8.self) }
    }

    var fields: [Field]

    init(_ request: Request, limit: Int) async throws {
        let body: Data
        do {
            body = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch {
            throw RequestError.bodyTooLarge(mebibytes: limit / 1_048_576)
        }
        let type = request.headers[.contentType] ?? ""
        if type.lowercased().hasPrefix("multipart/form-data"), let boundary = Self.boundary(type) {
            fields = Self.multipart(body, boundary: boundary)
        } else {
            fields = WebRequest.formDecoded(String(decoding: body, as: UTF8.self)).map {
                Field(name: $0.name, data: Data($0.value.utf8))
            }
        }
    }

    /// The text of field `name`, nil when absent or blank.
    func value(_ name: String) -> String? {
        guard let text = fields.first(where: { $0.name == name })?.text.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }

    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of a multipart body (RFC 7578): each part's name, file name and content.
    static func multipart(_ body: Data, boundary: String) -> [Field] {
        let delimiter = Data("--\(boundary)".utf8), headEnd = Data("\r\n\r\n".utf8)
        var fields: [Field] = []
        var rest = body[...]
        guard let first = rest.range(of: delimiter) else { return [] }
        rest = rest[first.upperBound...]
        while let next = rest.range(of: delimiter) {
            var part = rest[..<next.lowerBound]
            rest = rest[next.upperBound...]
            // Each part starts after the delimiter's line break and ends before the next one's.
            if part.starts(with: Data("\r\n".utf8)) { part = part.dropFirst(2) }
            if part.suffix(2) == Data("\r\n".utf8) { part = part.dropLast(2) }
            guard let split = part.range(of: headEnd) else { continue }
            let head = String(decoding: part[..<split.lowerBound], as: UTF8.self)
            var name: String?, fileName: String?
            for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                name = Self.attribute("name", in: line)
                fileName = Self.attribute("filename", in: line)
            }
            if let name { fields.append(Field(name: name, fileName: fileName, data: Data(part[split.upperBound...]))) }
        }
        return fields
    }

    /// `name="value"` in a Content-Disposition line.
    static func attribute(_ name: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// The season plan the form gives: the uploaded file, else the pasted text, else the rows
    /// of the short form written as the plan CSV (so every way is read by the one parser).
    func plan() throws -> (Data, String) {
        if let file = fields.first(where: { $0.name == "file" && !$0.data.isEmpty }) {
            return (file.data, file.fileName ?? "plan")
        }
        if let text = value("text") { return (Data(text.utf8), "plan") }
        var lines = [
            CSV.line(["culture", "sowing", "harvest", "area", "application", "date", "bbch", "product", "dose", "unit", "pests"])
        ]
        for index in 1...9 {
            guard let product = value("product\(index)") else { continue }
            let first = lines.count == 1
            lines.append(
                CSV.line([
                    first ? value("culture") ?? "" : "", first ? value("sowing") ?? "" : "", first ? value("harvest") ?? "" : "",
                    first ? (value("area") ?? "").replacingOccurrences(of: ",", with: ".") : "", "\(lines.count)",
                    value("date\(index)") ?? "", value("bbch\(index)") ?? "", product,
                    (value("dose\(index)") ?? "").replacingOccurrences(of: ",", with: "."), value("unit\(index)") ?? "l/ha",
                    value("pests\(index)") ?? "",
                ]))
        }
        guard lines.count > 1 else { throw PlanFileError(.noApplications) }
        return (Data(lines.joined(separator: "\n").utf8), "form.csv")
    }
}
