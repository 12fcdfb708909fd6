// Benchmark driver for the register import (see run.sh next to this directory).
//
//   agro-import-bench import FILE OUT.sqlite   imports, prints wall time and the report
//   agro-import-bench query CATALOG.sqlite     times search and filter queries on a catalog
import AgroDomain
import AgroImport
import AgroStore
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Median and worst of `runs` timings of `body`, in milliseconds.
func measure(_ label: String, runs: Int = 20, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var count = 0
    for _ in 0..<runs { times.append(try seconds { count = try body() } * 1000) }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "%-44@ median %7.2f ms  max %7.2f ms  (%d results)", label as NSString, median, times.last!, count))
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || (arguments.count == 3 && arguments[1] == "query") else {
    FileHandle.standardError.write(Data("usage: agro-import-bench import FILE OUT | query CATALOG\n".utf8))
    exit(64)
}

do {
    switch arguments[1] {
    case "import":
        // As `agro catalog import` does.
        SQLiteProcessSettings.disableMemoryStatistics()
        // When each phase starts, from the progress callback.
        final class Phases: @unchecked Sendable {
            let lock = NSLock()
            var marks: [(String, UInt64)] = []
            func mark(_ name: String) {
                lock.lock()
                defer { lock.unlock() }
                // The first time only: reading the products and writing overlap, so their
                // progress reports alternate.
                if !marks.contains(where: { $0.0 == name }) || name == "end" {
                    marks.append((name, DispatchTime.now().uptimeNanoseconds))
                }
            }
        }
        let phases = Phases()
        phases.mark("reading")
        var report: SRPPPImportReport?
        let time = try seconds {
            report = try SRPPPImporter().importFile(at: arguments[2], to: arguments[3]) { progress in
                switch progress {
                case .reading: phases.mark("reading")
                // Mapping and writing overlap (the mapper feeds a writer thread); from a plain
                // file, reading the products too (the metadata is read first).
                case .writing: phases.mark("mapping+writing")
                case .finishing: phases.mark("finishing")
                }
            }
        }
        phases.mark("end")
        print(report!.summary)
        let marks = phases.marks
        for (index, mark) in marks.dropLast().enumerated() {
            print(String(format: "  phase %@: %.3f s", mark.0, Double(marks[index + 1].1 - mark.1) / 1e9))
        }
        print(String(format: "import_seconds %.3f", time))
    case "query":
        let catalog = try SQLiteCatalog(path: arguments[2])
        let wheat = try catalog.lookup("Weizen", kind: .culture, locale: "de").first!.id
        let potatoes = try catalog.lookup("Kartoffeln", kind: .culture, locale: "de").first!.id
        let beetle = try catalog.lookup("Kartoffelkäfer", kind: .pest, locale: "de").first!.id
        let product = try catalog.products(ProductFilter(), page: PageRequest(page: 1, perPage: 1), locale: "de").items[0].id
        let substance = try catalog.product(id: product, locale: "de")?.ingredients.first?.substance.id ?? ""
        try measure("search Kartoffelkafer (de)") {
            try catalog.search("Kartoffelkafer", kinds: nil, page: PageRequest(page: 1, perPage: 20), locale: "de").total
        }
        try measure("search pomme de terre (fr)") {
            try catalog.search("pomme de terre", kinds: nil, page: PageRequest(page: 1, perPage: 20), locale: "fr").total
        }
        try measure("search 7113") {
            try catalog.search("7113", kinds: nil, page: PageRequest(page: 1, perPage: 20), locale: "de").total
        }
        try measure("lookup W-\(product)") { try catalog.lookup("W-\(product)", kind: .product, locale: "de").count }
        try measure("products --culture Weizen --all") {
            try catalog.products(ProductFilter(culture: wheat), page: .all, locale: "de").total
        }
        try measure("products --pest Kartoffelkäfer --culture Kartoffeln") {
            try catalog.products(ProductFilter(pest: beetle, culture: potatoes), page: .all, locale: "de").total
        }
        try measure("products --substance (first) --all") {
            try catalog.products(ProductFilter(substance: substance), page: .all, locale: "de").total
        }
        try measure("products page 1 (20)") {
            try catalog.products(ProductFilter(), page: PageRequest(page: 1, perPage: 20), locale: "de").total
        }
        try measure("products --all (every product)", runs: 5) {
            try catalog.products(ProductFilter(), page: .all, locale: "de").total
        }
        try measure("product card + uses (\(product))") {
            _ = try catalog.product(id: product, locale: "de")
            return try catalog.uses(UseFilter(product: product), locale: "de").count
        }
    default:
        FileHandle.standardError.write(Data("unknown command \(arguments[1])\n".utf8))
        exit(64)
    }
} catch let error as any UserFacingError {
    FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
    exit(1)
}
