import AgroCaching
import Foundation
import GRDB

/// The catalog's uses as ids in memory, read once per catalog (a few MB for a national
/// register): the uses naming each pest, the cultures of each use, each culture's ancestry
/// (itself included), each use's product and pests. A comparison of a pest on a culture, the uses
/// page's question, and the products list of a pest on a culture (the API's busiest answer)
/// are then found without a statement: about 380 uses for the Swiss register's largest pair,
/// where SQLite took several index searches each.
struct UseIndex: Sendable {
    // Ids are numbered once (their place in these arrays): a comparison then hashes no 36-byte
    // id per candidate use and culture, which was most of its time.
    private let useIDs: [String]
    /// Each use's place among the uses' ids as their bytes compare (ties of the name order).
    private let useIDOrder: [Int32]
    private let useNumbers: [String: Int32]
    private let productIDs: [String]
    private let cultureNumbers: [String: Int32]
    private let cultureIDs: [String]
    private let pestIDs: [String]
    private let pestsOfUse: [[Int32]]
    private let usesOfPest: [String: [Int32]]
    private let culturesOfUse: [[Int32]]
    private let ancestors: [String: [Int32]]
    /// Only uses whose product is in the catalog (the comparison joins the products); -1 for others.
    private let productOfUse: [Int32]
    /// What the uses page's rows show of each use and product besides names.
    let details: UseDetails
    /// Each use's application area per locale, by the use's number (nil where it has none),
    /// read on first use.
    let applicationAreas = KeyedCache<String, [String?]>(maxCount: SQLiteCatalog.localesKept, eviction: .keepFirst)

    init(_ db: Database) throws {
        var useNumbers: [String: Int32] = [:], useIDs: [String] = []
        func use(_ id: String) -> Int32 {
            if let number = useNumbers[id] { return number }
            let number = Int32(useIDs.count)
            useNumbers[id] = number
            useIDs.append(id)
            return number
        }
        var cultureNumbers: [String: Int32] = [:]
        func culture(_ id: String) -> Int32 {
            if let number = cultureNumbers[id] { return number }
            let number = Int32(cultureNumbers.count)
            cultureNumbers[id] = number
            return number
        }
        var pestNumbers: [String: Int32] = [:], pestIDs: [String] = []
        var usesOfPest: [String: [Int32]] = [:], pestsOfUse: [Int32: [Int32]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT pest_id, use_id FROM use_pests") {
            let pest: String = row[0], number = use(row[1])
            usesOfPest[pest, default: []].append(number)
            let pestNumber = pestNumbers[pest] ?? Int32(pestIDs.count)
            if pestNumbers[pest] == nil {
                pestNumbers[pest] = pestNumber
                pestIDs.append(pest)
            }
            pestsOfUse[number, default: []].append(pestNumber)
        }
        var culturesOfUse: [Int32: [Int32]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT use_id, culture_id FROM use_cultures") {
            culturesOfUse[use(row[0]), default: []].append(culture(row[1]))
        }
        var ancestors: [String: [Int32]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT culture_id, ancestor_id FROM culture_ancestors") {
            ancestors[row[0], default: []].append(culture(row[1]))
        }
        var productNumbers: [String: Int32] = [:], productIDs: [String] = []
        var productOfUse: [Int32: Int32] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT u.id, u.product_id FROM uses u JOIN products p ON p.id = u.product_id") {
            let id: String = row[1]
            let number = productNumbers[id] ?? Int32(productIDs.count)
            if productNumbers[id] == nil {
                productNumbers[id] = number
                productIDs.append(id)
            }
            productOfUse[use(row[0])] = number
        }
        self.useIDs = useIDs
        var useIDOrder = [Int32](repeating: 0, count: useIDs.count)
        for (place, number) in useIDs.indices.sorted(by: { useIDs[$0].utf8.lexicographicallyPrecedes(useIDs[$1].utf8) })
            .enumerated()
        {
            useIDOrder[number] = Int32(place)
        }
        self.useIDOrder = useIDOrder
        self.useNumbers = useNumbers
        self.productIDs = productIDs
        self.cultureNumbers = cultureNumbers
        var cultureIDs = [String](repeating: "", count: cultureNumbers.count)
        for (id, number) in cultureNumbers { cultureIDs[Int(number)] = id }
        self.cultureIDs = cultureIDs
        self.pestIDs = pestIDs
        self.pestsOfUse = useIDs.indices.map { pestsOfUse[Int32($0)] ?? [] }
        self.usesOfPest = usesOfPest
        self.culturesOfUse = useIDs.indices.map { culturesOfUse[Int32($0)] ?? [] }
        self.ancestors = ancestors
        self.productOfUse = useIDs.indices.map { productOfUse[Int32($0)] ?? -1 }
        details = try UseDetails(db)
    }

    /// How many uses the index numbers.
    var useCount: Int { useIDs.count }

    /// The number of `use` (its place in arrays kept per use), nil when the index has no such use.
    func number(of use: String) -> Int? { useNumbers[use].map { Int($0) } }

    /// The cultures and pests `use` names (ids, in no order), as `use_cultures` and `use_pests`
    /// hold them: the uses page's rows take them from here rather than from two statements.
    func refs(of use: String) -> (cultures: [String], pests: [String]) {
        guard let number = useNumbers[use].map({ Int($0) }) else { return ([], []) }
        return (culturesOfUse[number].map { cultureIDs[Int($0)] }, pestsOfUse[number].map { pestIDs[Int($0)] })
    }

    /// The uses (id and product) naming `pest` on `culture`, a group above it or a member below
    /// it, in the comparison's name order: the culture's own uses first, then its members' by
    /// the member's rank in `cultureRanks` (`member(of:under:ranks:)`), then their products'
    /// ranks in `order` (a product without one first), ties by the use's id (as its bytes
    /// compare). Sorted as integers, as `products(pest:culture:in:)` sorts.
    func uses(
        pest: String, culture: String, in order: ProductOrder, cultureRanks: [String: RankedName]
    ) -> [(id: String, product: String)] {
        // Each use's sort key made once: its member's rank (-1 for the culture's own), its
        // product's rank, then its id's place.
        var keyed: [(member: Int, rank: Int, place: Int32, use: Int32, product: Int32)] = []
        let line = lineOf(culture)
        for match in matching(pest: pest, culture: culture, members: true) {
            let member = memberNumber(of: match.use, under: culture, line: line, ranks: cultureRanks)
            let memberRank = member.map { cultureRanks[cultureIDs[Int($0)]]?.rank ?? -1 } ?? -2
            let rank = order.rankOfNumber[Int(match.product)]
            keyed.append((memberRank, rank, useIDOrder[Int(match.use)], match.use, match.product))
        }
        keyed.sort { a, b in
            a.member != b.member ? a.member < b.member : a.rank != b.rank ? a.rank < b.rank : a.place < b.place
        }
        return keyed.map { (useIDs[Int($0.use)], productIDs[Int($0.product)]) }
    }

    /// The member of `culture` (a culture below it) that `use` is registered on, when the use
    /// names neither `culture` nor a group above it: of its cultures below `culture`, the first
    /// by `ranks` (name, then id), as the comparison's statement picks it. Nil otherwise.
    func member(of use: String, under culture: String, ranks: [String: RankedName]) -> String? {
        guard let number = useNumbers[use] else { return nil }
        return memberNumber(of: number, under: culture, line: lineOf(culture), ranks: ranks).map { cultureIDs[Int($0)] }
    }

    /// Whether each culture (by number) is `culture` or a group above it.
    private func lineOf(_ culture: String) -> [Bool] {
        var inLine = [Bool](repeating: false, count: cultureNumbers.count)
        for ancestor in ancestors[culture] ?? [] { inLine[Int(ancestor)] = true }
        return inLine
    }

    private func memberNumber(of use: Int32, under culture: String, line: [Bool], ranks: [String: RankedName]) -> Int32? {
        let cultures = culturesOfUse[Int(use)]
        guard let asked = cultureNumbers[culture], !cultures.contains(where: { line[Int($0)] }) else { return nil }
        var best: (rank: Int, id: String, number: Int32)? = nil
        for number in cultures where ancestors[cultureIDs[Int(number)]]?.contains(asked) == true {
            let id = cultureIDs[Int(number)], rank = ranks[id]?.rank ?? -1
            if let kept = best, kept.rank < rank || (kept.rank == rank && !id.utf8.lexicographicallyPrecedes(kept.id.utf8)) {
                continue
            }
            best = (rank, id, number)
        }
        return best?.number
    }

    /// The products of those uses, each once, in `order` (the products list's filter by a pest
    /// on a culture, in its name order); nil if one of them has no place in `order`.
    func products(pest: String, culture: String, in order: ProductOrder) -> [String]? {
        // Ranks are sorted as integers: sorting the ids by a rank looked up per comparison
        // (hashing 36-byte ids, retaining strings) cost more than the page's SQL.
        var seen = [Bool](repeating: false, count: productIDs.count)
        var ranks: [Int] = []
        for match in matching(pest: pest, culture: culture, members: false) where !seen[Int(match.product)] {
            seen[Int(match.product)] = true
            let rank = order.rankOfNumber[Int(match.product)]
            guard rank >= 0 else { return nil }
            ranks.append(rank)
        }
        ranks.sort()
        return ranks.map { order.idOfRank[$0] }
    }

    /// The products of the uses naming `pest` on `culture`, a group above it or a member below
    /// it, each once (in no order): what the uses page's group filter offers choices from.
    func productIDs(pest: String, culture: String) -> Set<String> {
        Set(matching(pest: pest, culture: culture, members: true).map { productIDs[Int($0.product)] })
    }

    /// `ranks` (each product's place in a name order, by id) for this index's products: made
    /// once per locale, so that a list is ordered without looking an id up.
    func order(_ ranks: [String: Int]) -> ProductOrder {
        let rankOfNumber = productIDs.map { ranks[$0] ?? -1 }
        var idOfRank = [String](repeating: "", count: (rankOfNumber.max() ?? -1) + 1)
        for (number, rank) in rankOfNumber.enumerated() where rank >= 0 { idOfRank[rank] = productIDs[number] }
        return ProductOrder(rankOfNumber: rankOfNumber, idOfRank: idOfRank)
    }

    /// The products of a `UseIndex` in a name order: each one's rank by its number in the
    /// index (-1 for none), and the ids by rank (empty for ranks of products without a use).
    struct ProductOrder: Sendable {
        fileprivate let rankOfNumber: [Int]
        fileprivate let idOfRank: [String]
    }

    /// The numbers of the uses naming `pest` on `culture` or a group above it (and, with
    /// `members`, on a culture below it), and of their products.
    private func matching(pest: String, culture: String, members: Bool) -> [(use: Int32, product: Int32)] {
        guard let line = ancestors[culture], let candidates = usesOfPest[pest] else { return [] }
        var inLine = [Bool](repeating: false, count: cultureNumbers.count)
        for ancestor in line { inLine[Int(ancestor)] = true }
        if members, let asked = cultureNumbers[culture] {
            for (id, above) in ancestors where above.contains(asked) {
                if let number = cultureNumbers[id] { inLine[Int(number)] = true }
            }
        }
        return candidates.compactMap { use in
            let product = productOfUse[Int(use)]
            guard product >= 0, culturesOfUse[Int(use)].contains(where: { inLine[Int($0)] }) else { return nil }
            return (use, product)
        }
    }
}
