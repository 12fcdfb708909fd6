import AgroDomain
import Foundation
import XCTest

/// Dates and journal moments travel in JSON as their text, and a text that is none says so.
final class CodedAsTextTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// Why decoding `json` failed, as the error says it.
    private func refusal<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            _ = try decode(type, json)
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    func testADateIsItsText() throws {
        // 1970-01-01 is day 0; 2026-05-14 is 20,587 days later (56 years with 14 leap days, then
        // 133 days into 2026).
        XCTAssertEqual(try encoded([PlanDate(day: 0)]), #"["1970-01-01"]"#)
        XCTAssertEqual(try decode([PlanDate].self, #"["2026-05-14"]"#), [PlanDate(day: 20_587)])
        XCTAssertEqual(try encoded(try decode([PlanDate].self, #"["2024-02-29"]"#)), #"["2024-02-29"]"#)
    }

    func testAMomentIsItsText() throws {
        let morning = JournalTime(date: try XCTUnwrap(PlanDate("2026-05-14")), minute: 7 * 60 + 30)
        XCTAssertEqual(try encoded([morning]), #"["2026-05-14T07:30"]"#)
        // A space for the T is read too, and written back with the T.
        XCTAssertEqual(try decode([JournalTime].self, #"["2026-05-14 07:30"]"#), [morning])
        XCTAssertEqual(try encoded(try decode([JournalTime].self, #"["2026-05-14"]"#)), #"["2026-05-14"]"#)
    }

    func testATextThatIsNoneIsRefusedByName() {
        XCTAssertEqual(refusal([PlanDate].self, #"["2026-02-30"]"#), "not a date YYYY-MM-DD: 2026-02-30")
        XCTAssertEqual(
            refusal([JournalTime].self, #"["07:30"]"#), #""07:30" is not YYYY-MM-DD or YYYY-MM-DDTHH:MM"#)
        // Not a string at all: the decoder's own type mismatch, not a date's refusal.
        XCTAssertNotEqual(refusal([PlanDate].self, "[20587]"), "not a date YYYY-MM-DD: 20587")
        XCTAssertNotNil(refusal([PlanDate].self, "[20587]"))
    }
}
