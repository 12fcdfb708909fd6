import AgroTestSupport
import Foundation
import XCTest

/// Recorded OpenWeatherMap answers in shared/fixtures/owm (see its SOURCES.md), read in place:
/// they are not copied into the repository.
enum Fixtures {
    /// The bytes of one fixture, found by `SharedFixtures` (AGRO_OWM_FIXTURES still overrides):
    /// skips the test when the fixtures are not on this machine, fails it under CI.
    static func data(_ name: String) throws -> Data {
        try SharedFixtures.data("fixtures/owm/" + name)
    }

    /// The fixture parsed independently of the code under test, as a dictionary.
    static func object(_ name: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: data(name))
        return try XCTUnwrap(parsed as? [String: Any], "\(name) is not a JSON object")
    }
}

/// Reads a nested value of a JSONSerialization tree: dig(json, "main", "temp").
func dig(_ value: Any?, _ path: Any...) -> Any? {
    var current = value
    for step in path {
        if let key = step as? String {
            current = (current as? [String: Any])?[key]
        } else if let index = step as? Int {
            guard let array = current as? [Any], array.indices.contains(index) else { return nil }
            current = array[index]
        }
    }
    return current
}

/// A JSON number as Double (JSONSerialization gives NSNumber).
func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue
}
