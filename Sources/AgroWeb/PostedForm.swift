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

    /// A form of `fields` already read (a page's own link giving the form's fields).
    init(fields: [Field]) { self.fields = fields }

    /// The form a link of the page's own fills again (a name chosen among several): the fields
    /// of the query but `lang`; nil for the bare page, the empty form.
    init?(linkOf request: WebRequest) {
        let fields = request.parameters.filter { $0.name != "lang" }
        guard !fields.isEmpty else { return nil }
        self.init(fields: fields.map { Field(name: $0.name, data: Data($0.value.utf8)) })
    }

    init(_ request: Request, limit: Int) async throws {
        let body: Data
        do {
            body = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch {
            throw RequestError.bodyTooLarge(mebibytes: limit / 1_048_576)
        }
        let type = request.headers[.contentType] ?? ""
        if type.lowercased().hasPrefix("multipart/form-data") {
            guard let boundary = Self.boundary(type) else {
                throw RequestError.badMultipart(maximumBoundary: Self.maximumBoundary)
            }
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

    /// RFC 2046, 5.1.1: a boundary is 1 to 70 characters.
    static let maximumBoundary = 70

    /// The boundary parameter of a multipart Content-Type, nil when absent or longer than
    /// `maximumBoundary`: the search for it costs its length for every byte of the body.
    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.utf8.count > maximumBoundary ? nil : value
        }
        return nil
    }

    /// The parts of a multipart body (RFC 7578): each part's name, file name and content.
    ///
    /// One pass over the body: each delimiter (`CRLF--boundary`) is found by `memchr` for its
    /// first byte and `memcmp` for the rest, so the cost is the body's size times at most the
    /// capped boundary's length, never the body's square.
    static func multipart(_ body: Data, boundary: String) -> [Field] {
        let bytes = [UInt8](body)
        let delimiter = Array("\r\n--\(boundary)".utf8), headEnd = Array("\r\n\r\n".utf8)
        // The first delimiter may open the body without its line break.
        let opening = Array(delimiter.dropFirst(2))
        var start: Int
        if bytes.starts(with: opening) {
            start = opening.count
        } else if let first = find(delimiter, in: bytes, from: 0) {
            start = first + delimiter.count
        } else {
            return []
        }
        var fields: [Field] = []
        while let next = find(delimiter, in: bytes, from: start) {
            // The part runs from after the delimiter's line break to the next delimiter.
            var partStart = start
            if bytes.count >= partStart + 2, bytes[partStart] == 13, bytes[partStart + 1] == 10 { partStart += 2 }
            defer { start = next + delimiter.count }
            guard partStart <= next, let split = find(headEnd, in: bytes, from: partStart), split < next else { continue }
            let head = String(decoding: bytes[partStart..<split], as: UTF8.self)
            var name: String?, fileName: String?
            for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                name = Self.attribute("name", in: line)
                fileName = Self.attribute("filename", in: line)
            }
            if let name {
                fields.append(Field(name: name, fileName: fileName, data: Data(bytes[(split + headEnd.count)..<next])))
            }
        }
        return fields
    }

    /// Where `needle` first stands in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from >= 0, haystack.count - from >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                var position = from
                let last = hay.count - pin.count
                while position <= last {
                    guard let found = memchr(base + position, Int32(first), last - position + 1) else { return nil }
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, pinBase, pin.count) == 0 { return index }
                    position = index + 1
                }
                return nil
            }
        }
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
