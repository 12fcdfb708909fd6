import XCTest

@testable import AgroImport

/// Register keys keep their text and are equal exactly when their texts are (GUIDs of 2026,
/// integers of 2024, anything else), though dictionaries hash a fingerprint of them.
final class RegisterKeyTests: XCTestCase {
    func testGUIDKeepsItsTextAndEqualsOnlyTheSameGUID() {
        let text = "0A1B2C3D-4E5F-6789-ABCD-EF0123456789"
        let key = RegisterKey(text)
        XCTAssertEqual(key.text, text)
        XCTAssertEqual("\(key)", text)
        XCTAssertEqual(key, RegisterKey(String(text)))
        XCTAssertEqual(key.hashValue, RegisterKey(text).hashValue)
        // One hex digit apart, in the first and in the second half.
        XCTAssertNotEqual(key, RegisterKey("1A1B2C3D-4E5F-6789-ABCD-EF0123456789"))
        XCTAssertNotEqual(key, RegisterKey("0A1B2C3D-4E5F-6789-ABCD-EF0123456788"))
        // The same digits with the dashes elsewhere are another text, hence another key.
        XCTAssertNotEqual(key, RegisterKey("0A1B2C3D4-E5F-6789-ABCD-EF0123456789"))
        // A lower-case GUID is not normalized here (the parser upper-cases keys first).
        XCTAssertNotEqual(key, RegisterKey(text.lowercased()))
    }

    func testIntegerKeysAreEqualOnlyWithTheSameText() {
        XCTAssertEqual(RegisterKey("12345"), RegisterKey("12345"))
        XCTAssertEqual(RegisterKey("12345").text, "12345")
        XCTAssertNotEqual(RegisterKey("12345"), RegisterKey("12346"))
        // A leading zero makes another text: not the same key though the same number.
        XCTAssertNotEqual(RegisterKey("012345"), RegisterKey("12345"))
        XCTAssertEqual(RegisterKey("012345").text, "012345")
        XCTAssertNotEqual(RegisterKey("0"), RegisterKey("00"))
        // Long digit strings too.
        XCTAssertEqual(RegisterKey("1234567890123456789012"), RegisterKey("1234567890123456789012"))
        XCTAssertNotEqual(RegisterKey("1234567890123456789012"), RegisterKey("1234567890123456789013"))
    }

    func testOtherKeysCompareByText() {
        XCTAssertEqual(RegisterKey("C1"), RegisterKey("C1"))
        XCTAssertNotEqual(RegisterKey("C1"), RegisterKey("C2"))
        XCTAssertNotEqual(RegisterKey("1"), RegisterKey("C1"))
        XCTAssertTrue(RegisterKey("").isEmpty)
        XCTAssertEqual(RegisterKey(""), .empty)
        XCTAssertFalse(RegisterKey("0").isEmpty)
    }

    func testKeysWorkAsDictionaryKeysAndSortByText() {
        let texts = ["10", "9", "B0000000-0000-0000-0000-000000000000", "A0000000-0000-0000-0000-000000000001", "x"]
        var table: [RegisterKey: String] = [:]
        for text in texts { table[RegisterKey(text)] = text }
        XCTAssertEqual(table.count, texts.count)
        for text in texts { XCTAssertEqual(table[RegisterKey(text)], text) }
        XCTAssertNil(table[RegisterKey("11")])
        XCTAssertEqual(texts.map { RegisterKey($0) }.sorted().map(\.text), texts.sorted())
    }
}
