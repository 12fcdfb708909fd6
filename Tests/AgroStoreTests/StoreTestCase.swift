import AgroDomain
import AgroStore
import XCTest

/// Opens the fixture catalog once per test class.
class StoreTestCase: XCTestCase {
    nonisolated(unsafe) static var shared: [String: SQLiteCatalog] = [:]

    var catalog: SQLiteCatalog {
        let key = String(describing: type(of: self))
        if let catalog = Self.shared[key] { return catalog }
        let catalog = try! SQLiteCatalog(path: FixtureCatalog.write())
        Self.shared[key] = catalog
        return catalog
    }

    func productIDs(_ filter: ProductFilter, locale: String = "en") throws -> Set<String> {
        Set(try catalog.products(filter, page: .all, locale: locale).items.map(\.id))
    }
}
