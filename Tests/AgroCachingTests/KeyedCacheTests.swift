import AgroCaching
import Dispatch
import Synchronization
import XCTest

/// `KeyedCache`: a value made once per key, each eviction (keep what is kept, oldest first,
/// least recently used) by count and by bytes, generations, lifetimes, and many threads at once.
final class KeyedCacheTests: XCTestCase {
    /// Calls of a cache's `make`, counted across threads.
    final class Made: Sendable {
        private let keys = Mutex<[String]>([])
        func note(_ key: String) { keys.withLock { $0.append(key) } }
        var all: [String] { keys.withLock { $0 } }
    }

    /// Runs `body` on `count` threads of their own, started together; returns when all are done.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = DispatchGroup(), done = DispatchGroup()
        start.enter()
        for index in 0..<count {
            done.enter()
            Thread {
                start.wait()
                body(index)
                done.leave()
            }.start()
        }
        start.leave()
        done.wait()
    }

    /// `cache`'s value of `key`, made as `value` (and noted in `made`) unless kept.
    private func ask(_ cache: KeyedCache<String, Int>, _ key: String, _ value: Int, _ made: Made) -> Int {
        cache.value(key) {
            made.note(key)
            return value
        }
    }

    func testAValueIsMadeOncePerKey() {
        let cache = KeyedCache<String, Int>(maxCount: 4, eviction: .leastRecentlyUsed)
        let made = Made()
        for _ in 0..<3 {
            XCTAssertEqual(ask(cache, "a", 1, made), 1)
            XCTAssertEqual(ask(cache, "b", 2, made), 2)
        }
        XCTAssertEqual(made.all, ["a", "b"])
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.cached("a"), 1)
        XCTAssertNil(cache.cached("c"))
    }

    func testAFullCacheThatKeepsWhatItHasMakesOtherKeysEachTime() {
        let cache = KeyedCache<String, Int>(maxCount: 2, eviction: .keepFirst)
        let made = Made()
        _ = ask(cache, "a", 1, made)
        _ = ask(cache, "b", 2, made)
        for _ in 0..<3 { XCTAssertEqual(ask(cache, "c", 3, made), 3) }
        XCTAssertEqual(ask(cache, "a", 9, made), 1, "the first keys stay")
        XCTAssertEqual(made.all, ["a", "b", "c", "c", "c"])
        XCTAssertEqual(cache.count, 2)
        // `keptValue`: nothing made for a key a full cache could not keep.
        XCTAssertNil(
            cache.keptValue("d") {
                made.note("d")
                return 4
            })
        XCTAssertEqual(
            cache.keptValue("b") {
                made.note("b")
                return 9
            }, 2)
        XCTAssertEqual(made.all.count, 5)
        // A cache that evicts always has room.
        let evicting = KeyedCache<String, Int>(maxCount: 1, eviction: .oldestFirst)
        _ = evicting.value("a") { 1 }
        XCTAssertEqual(evicting.keptValue("b") { 2 }, 2)
        XCTAssertEqual(evicting.cached("b"), 2)
        XCTAssertNil(evicting.cached("a"))
    }

    func testOldestFirstDropsTheFirstKeptEvenIfAskedAgain() {
        let cache = KeyedCache<Int, Int>(maxCount: 3, eviction: .oldestFirst)
        for key in 1...3 { _ = cache.value(key) { key } }
        XCTAssertEqual(cache.cached(1), 1)  // asked again: still the oldest
        cache.keep(4, for: 4)
        XCTAssertNil(cache.cached(1))
        XCTAssertEqual([2, 3, 4].map { cache.cached($0) }, [2, 3, 4])
        cache.keep(5, for: 5)
        XCTAssertNil(cache.cached(2))
        XCTAssertEqual(cache.count, 3)
    }

    func testLeastRecentlyUsedKeepsWhatIsAskedAgain() {
        let cache = KeyedCache<Int, Int>(maxCount: 3, eviction: .leastRecentlyUsed)
        for key in 1...3 { _ = cache.value(key) { key } }
        XCTAssertEqual(cache.cached(1), 1)  // order of use now 2, 3, 1
        cache.keep(4, for: 4)  // 2 goes
        XCTAssertNil(cache.cached(2))
        XCTAssertEqual(cache.value(3) { -1 }, 3)  // order 1, 4, 3
        cache.keep(5, for: 5)  // 1 goes
        XCTAssertNil(cache.cached(1))
        XCTAssertEqual([3, 4, 5].map { cache.cached($0) }, [3, 4, 5])
        // Ten thousand keys sent once cannot push out one asked for between them.
        for key in 100..<10_100 {
            cache.keep(key, for: key)
            XCTAssertEqual(cache.cached(5), 5)
        }
        XCTAssertEqual(cache.count, 3)
    }

    func testBytesBoundTheCacheAndTheOldestOrLeastUsedGoFirst() {
        // Each entry costs its text's length plus 10.
        for eviction in [KeyedCache<String, String>.Eviction.oldestFirst, .leastRecentlyUsed] {
            let cache = KeyedCache<String, String>(maxBytes: 100, eviction: eviction) { $1.utf8.count + 10 }
            cache.keep(String(repeating: "a", count: 30), for: "a")  // 40
            cache.keep(String(repeating: "b", count: 30), for: "b")  // 80
            XCTAssertEqual(cache.bytes, 80)
            XCTAssertNotNil(cache.cached("a"))  // under LRU, b is now the least recently used
            cache.keep(String(repeating: "c", count: 20), for: "c")  // 30: 110 > 100, one goes
            XCTAssertEqual(cache.bytes, 70, "\(eviction)")
            XCTAssertEqual(cache.cached("a") == nil, eviction == .oldestFirst, "\(eviction)")
            XCTAssertEqual(cache.cached("b") == nil, eviction == .leastRecentlyUsed, "\(eviction)")
            // Larger than the whole cache: never kept, nothing dropped for it.
            XCTAssertEqual(cache.value("huge") { String(repeating: "h", count: 91) }.count, 91)
            XCTAssertNil(cache.cached("huge"))
            XCTAssertEqual(cache.bytes, 70)
            // Exactly the whole cache: everything else goes.
            cache.keep(String(repeating: "x", count: 90), for: "x")
            XCTAssertEqual(cache.bytes, 100)
            XCTAssertEqual(cache.count, 1)
            cache.removeAll()
            XCTAssertEqual(cache.bytes, 0)
            XCTAssertEqual(cache.count, 0)
        }
        let nothing = KeyedCache<String, String>(maxBytes: 0, eviction: .leastRecentlyUsed) { $1.utf8.count }
        nothing.keep("", for: "a")
        XCTAssertEqual(nothing.count, 0, "a cache of 0 bytes keeps nothing, not even a free entry")
    }

    /// Random keys and sizes against a model written from the definitions: after every call the
    /// kept keys, in order of eviction, are the model's.
    func testCountAndBytesFollowAModelOfEachEviction() {
        var generator = SplitMix(seed: 29)
        for eviction in [KeyedCache<Int, Int>.Eviction.keepFirst, .oldestFirst, .leastRecentlyUsed] {
            let cache = KeyedCache<Int, Int>(maxCount: 8, maxBytes: 400, eviction: eviction) { _, value in value }
            var model: [(key: Int, cost: Int)] = []  // next to go first
            for _ in 0..<5_000 {
                let key = Int(generator.next() % 20), cost = Int(generator.next() % 120) + 1
                let got = cache.value(key) { cost }
                if let index = model.firstIndex(where: { $0.key == key }) {
                    XCTAssertEqual(got, model[index].cost)
                    if eviction == .leastRecentlyUsed { model.append(model.remove(at: index)) }
                } else {
                    XCTAssertEqual(got, cost)
                    var bytes = model.reduce(0) { $0 + $1.cost }
                    if eviction == .keepFirst {
                        if model.count < 8, bytes + cost <= 400 { model.append((key, cost)) }
                    } else if cost <= 400 {
                        while model.count >= 8 || bytes + cost > 400 { bytes -= model.removeFirst().cost }
                        model.append((key, cost))
                    }
                }
                XCTAssertEqual(cache.count, model.count)
                XCTAssertEqual(cache.bytes, model.reduce(0) { $0 + $1.cost })
                XCTAssertLessThanOrEqual(cache.bytes, 400)
            }
            for key in 0..<20 {
                XCTAssertEqual(cache.cached(key), model.first { $0.key == key }?.cost, "\(eviction) key \(key)")
            }
        }
    }

    func testANewGenerationDropsWhatTheOldOneKept() {
        final class Catalog: Sendable {}
        let (old, new) = (Catalog(), Catalog())
        let cache = KeyedCache<String, String>(maxCount: 10, eviction: .leastRecentlyUsed)
        XCTAssertEqual(cache.value("title", generation: old) { "old" }, "old")
        XCTAssertEqual(cache.value("title", generation: old) { "again" }, "old")
        XCTAssertNil(cache.cached("title", generation: new), "swapped: dropped")
        XCTAssertEqual(cache.count, 0)
        // An answer made from the old catalog after the swap is not kept for the new one.
        cache.keep("late", for: "title", generation: old)
        XCTAssertNil(cache.cached("title", generation: new))
        cache.keep("new", for: "title", generation: new)
        XCTAssertEqual(cache.cached("title", generation: new), "new")
    }

    func testAValueWithALifetimeIsMadeAgainWhenItIsOlder() throws {
        let cache = KeyedCache<OneValue, Int>(lifetime: .milliseconds(200))
        let made = Made()
        XCTAssertEqual(
            cache.value {
                made.note("1"); return 1
            }, 1)
        XCTAssertEqual(
            cache.value {
                made.note("x"); return 9
            }, 1, "young: kept")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(cache.keptValue, "old: gone")
        XCTAssertEqual(
            cache.value {
                made.note("2"); return 2
            }, 2)
        XCTAssertEqual(made.all, ["1", "2"])
        // A failed make keeps nothing: the next caller makes the value.
        struct Failure: Error {}
        let failing = KeyedCache<OneValue, Int>()
        XCTAssertThrowsError(try failing.value { throw Failure() })
        XCTAssertNil(failing.keptValue)
        XCTAssertEqual(failing.value { 3 }, 3)
    }

    /// 64 threads ask for one key at once: a cache that computes once makes it once, and every
    /// caller gets that value.
    func testManyThreadsAskingForOneKeyMakeItOnce() {
        let cache = KeyedCache<String, String>(maxCount: 4, eviction: .leastRecentlyUsed, computesOnce: true)
        let made = Made()
        let answers = Mutex<[String]>([])
        Self.onThreads(64) { index in
            let value = cache.value("index") {
                made.note("index")
                Thread.sleep(forTimeInterval: 0.2)
                return "built by \(index)"
            }
            answers.withLock { $0.append(value) }
        }
        XCTAssertEqual(made.all, ["index"])
        let all = answers.withLock { $0 }
        XCTAssertEqual(all.count, 64)
        XCTAssertEqual(Set(all).count, 1, "one value for all")
        // Also when it cannot be kept (a full cache that keeps what it has): waiters get the
        // maker's value rather than making it each.
        let full = KeyedCache<String, Int>(maxCount: 0, eviction: .keepFirst, computesOnce: true)
        let fullMade = Made()
        let sum = Mutex(0)
        Self.onThreads(16) { _ in
            let value = full.value("k") {
                fullMade.note("k")
                Thread.sleep(forTimeInterval: 0.3)
                return 7
            }
            sum.withLock { $0 += value }
        }
        XCTAssertEqual(sum.withLock { $0 }, 16 * 7)
        XCTAssertEqual(fullMade.all, ["k"])
    }

    /// A maker's failure is not shared: the threads that waited for it make the value themselves,
    /// and once one succeeds it is kept.
    func testAFailedMakerLetsTheWaitersTryThemselves() {
        struct Failure: Error {}
        let cache = KeyedCache<OneValue, Int>(computesOnce: true)
        let made = Made()
        let outcomes = Mutex<[Int?]>([])
        Self.onThreads(8) { _ in
            let value = try? cache.value {
                made.note("try")
                Thread.sleep(forTimeInterval: 0.1)
                if made.all.count == 1 { throw Failure() }
                return 5
            }
            outcomes.withLock { $0.append(value) }
        }
        let all = outcomes.withLock { $0 }
        XCTAssertEqual(all.filter { $0 == nil }.count, 1, "only the failing maker fails")
        XCTAssertEqual(all.filter { $0 == 5 }.count, 7)
        XCTAssertEqual(made.all.count, 2, "one failure, then one success")
        XCTAssertEqual(cache.keptValue, 5)
    }

    /// Many threads on many keys: every answer is its key's, and the bounds hold throughout.
    func testManyThreadsOnManyKeysStayWithinTheBounds() {
        let cache = KeyedCache<Int, [Int]>(maxCount: 50, maxBytes: 4_000, eviction: .leastRecentlyUsed) { _, value in
            value.count * 8
        }
        let wrong = Mutex(0)
        Self.onThreads(8) { thread in
            var generator = SplitMix(seed: UInt64(thread))
            for _ in 0..<4_000 {
                let key = Int(generator.next() % 200)
                let value = cache.value(key) { Array(repeating: key, count: key % 20 + 1) }
                if value != Array(repeating: key, count: key % 20 + 1) { wrong.withLock { $0 += 1 } }
                if generator.next() % 100 == 0, cache.bytes > 4_000 || cache.count > 50 { wrong.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
        let kept = (0..<200).compactMap { cache.cached($0) }
        XCTAssertEqual(kept.count, cache.count)
        XCTAssertEqual(kept.reduce(0) { $0 + $1.count * 8 }, cache.bytes, "bytes are the kept values' costs")
    }
}

/// A small deterministic generator (SplitMix64), so that a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
