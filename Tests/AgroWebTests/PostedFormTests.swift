import Foundation
import XCTest

@testable import AgroWeb

/// The multipart reader of posted forms (RFC 7578, RFC 2046), on bodies written by hand.
final class PostedFormTests: XCTestCase {
    private func body(_ boundary: String, _ parts: [(head: String, content: String)]) -> Data {
        var text = "preamble ignored\r\n"
        for part in parts { text += "--\(boundary)\r\n\(part.head)\r\n\r\n\(part.content)\r\n" }
        return Data((text + "--\(boundary)--\r\nepilogue").utf8)
    }

    func testFieldsAndAFileAreRead() {
        let boundary = "----form7MA4YWxkTrZu0gW"
        let data = body(
            boundary,
            [
                ("Content-Disposition: form-data; name=\"culture\"", "winter-wheat"),
                (
                    "Content-Disposition: form-data; name=\"file\"; filename=\"plan.csv\"\r\nContent-Type: text/csv",
                    "culture,date\r\n--not a delimiter,2026-05-01"
                ),
                ("Content-Disposition: form-data; name=\"empty\"", ""),
            ])
        let fields = PostedForm.multipart(data, boundary: boundary)
        XCTAssertEqual(fields.map(\.name), ["culture", "file", "empty"])
        XCTAssertEqual(fields[0].text, "winter-wheat")
        XCTAssertEqual(fields[1].fileName, "plan.csv")
        // A line starting with "--" inside a file is content, not a delimiter.
        XCTAssertEqual(fields[1].text, "culture,date\r\n--not a delimiter,2026-05-01")
        XCTAssertEqual(fields[2].text, "")
        // The first delimiter may open the body.
        let opened = Data("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--b--\r\n".utf8)
        XCTAssertEqual(PostedForm.multipart(opened, boundary: "b").map(\.text), ["1"])
    }

    func testTheBoundaryIsCappedAtSeventyCharacters() {
        let seventy = String(repeating: "a", count: 70)
        XCTAssertEqual(PostedForm.boundary("multipart/form-data; boundary=\(seventy)"), seventy)
        XCTAssertEqual(PostedForm.boundary("multipart/form-data; boundary=\"\(seventy)\""), seventy)
        XCTAssertNil(PostedForm.boundary("multipart/form-data; boundary=\(seventy)a"))
        XCTAssertNil(PostedForm.boundary("multipart/form-data; boundary="))
        XCTAssertNil(PostedForm.boundary("multipart/form-data"))
    }

    func testABodyOfNearMissesHoldsNoPart() {
        // Every position starts like the delimiter and fails at its last byte: the worst case
        // of a naive search, which the reader passes through once.
        let boundary = String(repeating: "x", count: 69) + "y"
        let nearMiss = "\r\n--" + String(repeating: "x", count: 69) + "z"
        let data = Data(String(repeating: nearMiss, count: 20_000).utf8)
        XCTAssertEqual(PostedForm.multipart(data, boundary: boundary).count, 0)
        XCTAssertNil(PostedForm.find(Array("abd".utf8), in: Array("abcabcab".utf8), from: 0))
        XCTAssertEqual(PostedForm.find(Array("cab".utf8), in: Array("abcabcab".utf8), from: 3), 5)
        XCTAssertNil(PostedForm.find(Array("ab".utf8), in: Array("abc".utf8), from: 9))
    }
}
