import XCTest

@testable import AgroDomain

final class CoordinateParserTests: XCTestCase {
    func testCommaForm() throws {
        XCTAssertEqual(try CoordinateParser.parse("51.51,-0.13"), Coordinates(latitude: 51.51, longitude: -0.13))
        XCTAssertEqual(try CoordinateParser.parse(" 51.51 , -0.13 "), Coordinates(latitude: 51.51, longitude: -0.13))
        XCTAssertEqual(try CoordinateParser.parse("+90,180"), Coordinates(latitude: 90, longitude: 180))
        XCTAssertEqual(try CoordinateParser.parse("-90,-180"), Coordinates(latitude: -90, longitude: -180))
    }

    func testSpaceFormAndTwoArguments() throws {
        XCTAssertEqual(try CoordinateParser.parse("55.75 37.62"), Coordinates(latitude: 55.75, longitude: 37.62))
        XCTAssertEqual(
            try CoordinateParser.parse(latitude: "-38.4", longitude: "-71.58"), Coordinates(latitude: -38.4, longitude: -71.58))
    }

    func testOutOfRange() {
        XCTAssertThrowsError(try CoordinateParser.parse("90.0001,0")) {
            XCTAssertEqual($0 as? CoordinateError, .latitudeOutOfRange(90.0001))
            XCTAssertEqual(($0 as? CoordinateError)?.message, "latitude must be between -90 and 90; got 90.0001")
        }
        XCTAssertThrowsError(try CoordinateParser.parse("0,-181")) {
            XCTAssertEqual($0 as? CoordinateError, .longitudeOutOfRange(-181))
            XCTAssertEqual(($0 as? CoordinateError)?.message, "longitude must be between -180 and 180; got -181")
        }
    }

    func testNumbersOnly() {
        for bad in ["nan,0", "1e3,0", "0,inf", "0x10,0", "51.,0", ".5,0", "51.5.1,0", "abc,1", "1,2km", "--1,0", ""] {
            XCTAssertThrowsError(try CoordinateParser.parse(bad), bad) { error in
                let coordinateError = error as? CoordinateError
                XCTAssertNotNil(coordinateError, bad)
            }
        }
        XCTAssertThrowsError(try CoordinateParser.parse("abc,1")) {
            XCTAssertEqual(
                ($0 as? CoordinateError)?.message, "latitude must be a decimal number like 51.51 or -0.13; got \"abc\"")
        }
    }

    func testWrongShapeSaysWhatIsExpected() {
        for bad in ["51.5", "1,2,3", "1 2 3", ","] {
            XCTAssertThrowsError(try CoordinateParser.parse(bad), bad) { error in
                XCTAssertTrue((error as? CoordinateError)?.message.contains("expected LAT,LON") ?? false, bad)
            }
        }
    }
}

final class NearestPlacesTests: XCTestCase {
    // Centres of three Kazakh regions (rounded, from public maps): Astana, Almaty, Kostanay.
    let astana = Region(id: "KZ-AST", name: "Astana", kind: .city, centre: Coordinates(latitude: 51.17, longitude: 71.45))
    let almaty = Region(id: "KZ-ALA", name: "Almaty", kind: .city, centre: Coordinates(latitude: 43.24, longitude: 76.89))
    let kostanay = Region(id: "KZ-KUS", name: "Kostanay", kind: .region, centre: Coordinates(latitude: 53.21, longitude: 63.63))

    func testNearestRegion() throws {
        // A field 20 km from Astana.
        let field = Coordinates(latitude: 51.35, longitude: 71.45)
        let nearest = try XCTUnwrap(NearestPlaces.region(nearestTo: field, in: [almaty, kostanay, astana]))
        XCTAssertEqual(nearest.region.id, "KZ-AST")
        // 0.18° of latitude is 0.18 × 111.19 km = 20.0 km.
        XCTAssertEqual(nearest.distanceKm, 20.0, accuracy: 0.1)
        XCTAssertNil(NearestPlaces.region(nearestTo: field, in: []))
    }

    func testRegionsSortedByDistance() {
        let field = Coordinates(latitude: 52.5, longitude: 65)  // west of centre: Kostanay first
        let sorted = NearestPlaces.regions(sortedByDistanceFrom: field, [almaty, astana, kostanay])
        XCTAssertEqual(sorted.map(\.region.id), ["KZ-KUS", "KZ-AST", "KZ-ALA"])
    }

    func testRepresentativesByDistanceUsingOwnLocationOrRegionCentre() {
        let near = Representative(
            id: "r1", region: EntityRef(id: "KZ-ALA", name: "Almaty"), name: "Based near the field",
            location: Coordinates(latitude: 51.3, longitude: 71.5))
        let viaRegion = Representative(id: "r2", region: EntityRef(id: "KZ-AST", name: "Astana"), name: "Astana office")
        let far = Representative(id: "r3", region: EntityRef(id: "KZ-ALA", name: "Almaty"), name: "Almaty office")
        let nowhere = Representative(id: "r4", region: EntityRef(id: "XX", name: "Unknown"), name: "No place")
        let field = Coordinates(latitude: 51.35, longitude: 71.45)
        let sorted = NearestPlaces.representatives(
            sortedByDistanceFrom: field, [nowhere, far, viaRegion, near], regions: [astana, almaty, kostanay])
        XCTAssertEqual(sorted.map(\.representative.id), ["r1", "r2", "r3", "r4"])
        XCTAssertEqual(sorted[1].location, astana.centre)
        XCTAssertNil(sorted[3].distanceKm)
        XCTAssertEqual(
            NearestPlaces.representative(nearestTo: field, in: [nowhere, far], regions: [almaty])?.representative.id, "r3",
            "a representative without a place is never the nearest")
    }
}
