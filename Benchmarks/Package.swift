// swift-tools-version:6.1
//
// agro's benchmark executables, a package of their own so that neither `swift build` of agro nor
// the test command (`swift build --build-tests`) compiles or links them. They use agro's
// libraries through the package one folder up. Build from the repository root with
// `swift build --package-path Benchmarks -c release --product NAME` (the run.sh scripts do);
// the build goes to Benchmarks/.build. See Benchmarks/README.md.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "agro-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "agro", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // The version agro's package uses: the update benchmark hashes files as agro does.
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    targets: [
        // Times a register import and the catalog queries on the result (import/run.sh).
        .executableTarget(
            name: "agro-import-bench",
            dependencies: [
                .product(name: "AgroDomain", package: "agro"), .product(name: "AgroStore", package: "agro"),
                .product(name: "AgroImport", package: "agro"),
            ],
            path: "import/Sources", swiftSettings: strict),
        // `swift run --package-path Benchmarks -c release AgroUpdateBenchmark`; see update/README.md.
        .executableTarget(
            name: "AgroUpdateBenchmark",
            dependencies: [
                .product(name: "AgroUpdate", package: "agro"), .product(name: "AgroUpdateClient", package: "agro"),
                .product(name: "AgroServer", package: "agro"), .product(name: "AgroStore", package: "agro"),
                .product(name: "AgroTestSupport", package: "agro"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "update/Sources",
            swiftSettings: strict),
        // The field journal: a record written with its checks, a season exported (journal/README.md).
        .executableTarget(
            name: "agro-journal-bench",
            dependencies: [
                .product(name: "AgroDomain", package: "agro"), .product(name: "AgroStore", package: "agro"),
                // The same writes on the PostgreSQL store, on a server of its own (--postgres).
                .product(name: "AgroPostgres", package: "agro"), .product(name: "AgroTestSupport", package: "agro"),
            ],
            path: "journal/Sources", swiftSettings: strict),
        // The farm journal: a season synced to an empty device, writes under wrk (journal/README.md).
        .executableTarget(
            name: "agro-sync-bench",
            dependencies: [
                .product(name: "AgroDomain", package: "agro"), .product(name: "AgroStore", package: "agro"),
                .product(name: "AgroPostgres", package: "agro"), .product(name: "AgroTestSupport", package: "agro"),
            ],
            path: "journal/SyncSources", swiftSettings: strict),
        // Throughput benchmark for the HTML renderer (html/run.sh).
        .executableTarget(
            name: "agro-html-bench", dependencies: [.product(name: "AgroHTML", package: "agro")],
            path: "html/Sources",
            swiftSettings: strict),
        // Benchmarks of the catalog core (README.md, run.sh).
        .executableTarget(
            name: "agro-bench",
            dependencies: [
                .product(name: "AgroDomain", package: "agro"), .product(name: "AgroStore", package: "agro"),
                .product(name: "AgroContent", package: "agro"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "CatalogBench",
            swiftSettings: strict),
        // The process-start floor of a Swift program using Foundation (README.md).
        .executableTarget(name: "agro-floor", path: "Floor", swiftSettings: strict),
        // The same with agro's libraries doing agro's work: parse, open, query, JSON (README.md).
        .executableTarget(
            name: "agro-library-floor",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "LibraryFloor", swiftSettings: strict),
    ]
)
