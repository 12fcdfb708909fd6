import AgroDomain
import Foundation
import XCTest

@testable import AgroWeather

/// The disk cache of weather answers stays within an age and a size, the oldest going first.
final class WeatherCachePruneTests: XCTestCase {
    func testOldAnswersGoThenTheOldestUntilTheSizeFits() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = Date()
        let cache = WeatherCache(directory: directory, now: { start })
        let places = (0..<5).map { Coordinates(latitude: Double($0), longitude: 10) }
        for place in places {
            try cache.write(
                CurrentWeather(dt: 1_785_574_377, name: String(repeating: "x", count: 1000)), endpoint: .current, at: place,
                units: .metric, locale: nil)
        }
        func file(_ place: Coordinates) -> URL {
            directory.appendingPathComponent(WeatherCache.fileName(endpoint: .current, at: place, units: .metric, locale: nil))
        }
        // Ages by hand: place 0 two days old, the others 4, 3, 2 and 1 hours.
        let ages: [TimeInterval] = [2 * 86_400, 4 * 3600, 3 * 3600, 2 * 3600, 3600]
        for (place, age) in zip(places, ages) {
            try FileManager.default.setAttributes(
                [.modificationDate: start.addingTimeInterval(-age)], ofItemAtPath: file(place).path)
        }
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file(places[1]).path)[.size] as? Int)
        // A day at most, and room for two files: place 0 by age, then 1 and 2, the oldest left.
        XCTAssertEqual(cache.prune(maximumAge: 86_400, maximumBytes: 2 * size + size / 2), 3)
        let left = places.filter { FileManager.default.fileExists(atPath: file($0).path) }
        XCTAssertEqual(left, [places[3], places[4]])
        // Nothing more to do.
        XCTAssertEqual(cache.prune(maximumAge: 86_400, maximumBytes: 2 * size + size / 2), 0)
        // A directory that does not exist is nothing to prune.
        XCTAssertEqual(WeatherCache(directory: directory.appendingPathComponent("none")).prune(maximumAge: 1, maximumBytes: 0), 0)
    }
}
