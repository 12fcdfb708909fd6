import XCTest

@testable import AgroStore

/// The catalog's caches: a value is read once per key, and a full cache either starts over (keys
/// clients send) or keeps what it has and reads the rest each time (keys the program names).
final class KeptValuesTests: XCTestCase {
    func testAValueIsReadOncePerKey() {
        let cache = KeptValues<String, Int>(capacity: 4, whenFull: .startOver)
        var reads = 0
        for _ in 0..<3 {
            XCTAssertEqual(
                cache.value("a") {
                    reads += 1; return 1
                }, 1)
            XCTAssertEqual(
                cache.value("b") {
                    reads += 1; return 2
                }, 2)
        }
        XCTAssertEqual(reads, 2)
    }

    func testAFullCacheThatStartsOverForgetsTheOldKeys() {
        let cache = KeptValues<Int, Int>(capacity: 2, whenFull: .startOver)
        var reads: [Int] = []
        let read = { (key: Int) in
            cache.value(key) {
                reads.append(key); return key * 10
            }
        }
        _ = [read(1), read(2), read(3)]  // 3 finds the cache full: 1 and 2 go
        XCTAssertEqual(read(3), 30)
        XCTAssertEqual(read(1), 10)
        XCTAssertEqual(reads, [1, 2, 3, 1])
    }

    func testAFullCacheThatKeepsWhatItHasReadsOtherKeysEachTime() {
        let cache = ReadOncePerKey<Int>()
        var reads = 0
        for locale in 0..<cache.capacity {
            _ = cache.value("l\(locale)") {
                reads += 1; return locale
            }
        }
        for _ in 0..<3 {
            XCTAssertEqual(
                cache.value("other") {
                    reads += 1; return -1
                }, -1)
        }
        XCTAssertEqual(
            cache.value("l0") {
                reads += 1; return 99
            }, 0, "the first locales stay kept")
        XCTAssertEqual(reads, cache.capacity + 3)
    }

    func testAKeptValueIsNotReadWhenAFullCacheCouldNotKeepIt() {
        let cache = KeptValues<String, Int>(capacity: 2, whenFull: .keepWhatIsKept)
        var reads = 0
        XCTAssertEqual(
            cache.keptValue("a") {
                reads += 1; return 1
            }, 1)
        XCTAssertEqual(
            cache.keptValue("a") {
                reads += 1; return 9
            }, 1, "kept")
        XCTAssertEqual(
            cache.value("b") {
                reads += 1; return 2
            }, 2)
        XCTAssertNil(
            cache.keptValue("c") {
                reads += 1; return 3
            }, "full: nothing read")
        XCTAssertEqual(
            cache.keptValue("b") {
                reads += 1; return 9
            }, 2)
        XCTAssertEqual(reads, 2)
        // A cache that starts over always has room.
        let startingOver = KeptValues<String, Int>(capacity: 1, whenFull: .startOver)
        _ = startingOver.value("a") { 1 }
        XCTAssertEqual(startingOver.keptValue("b") { 2 }, 2)
    }
}
