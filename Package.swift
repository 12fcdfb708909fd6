// swift-tools-version:6.1
//
// Who depends on whom:
//   AgroCaching (KeyedCache, the one cache type: bounded, its eviction a parameter; the
//     standard library's Synchronization and Dispatch only) <- AgroStore, AgroPresentation,
//     AgroWeb. A module of its own because AgroDomain imports only Foundation and each of its
//     users sits on a different layer; it depends on nothing of the program.
//   AgroDomain (models, use-case protocols, typed errors; Foundation only)
//     <- AgroStore (SQLite catalog and user database through GRDB; the command line's one-shot
//        lists through the SQLite C API alone, same statements; catalog selection at start-up,
//        the hot-swappable LiveCatalog, and LocalStoreOpener, the domain's StoreOpener)
//          <- AgroContent (catalog sources -> catalog file)
//          <- AgroImport (national registers -> catalog file)
//          <- AgroUpdate (publish, verify, install, roll back: no network, no GRDB; swift-crypto, zlib)
//               <- AgroUpdateClient (check and download over HTTP)
//          AgroServer (static catalog server, Hummingbird)
//     <- AgroWeather (weather models, cache, spray advisor, text; no network) -> AgroTerminal
//          <- AgroWeatherClient (the OpenWeatherMap client) -> AgroHTTP
//     <- AgroNews (RSS/Atom feeds) -> AgroHTML (HTML to terminal text) -> CLibXML2, AgroTerminal
//   AgroAccounts (bcrypt passwords, session-token digests: the domain's PasswordHasher) <- AgroDomain
//   AgroHTTP (the one HTTP client: libcurl through CCurlShim; size caps, deadlines)
//     <- AgroUpdateClient, AgroNews, AgroWeatherClient, AgroSyncClient (`agro journal sync`)
//   AgroPresentation (between the use cases and the two fronts: documents, Localizer, the
//     wording and status of every library error, findings, tank warnings and weather verdicts,
//     CSV/JSON encoding, the Environment) <- AgroDomain, AgroCaching, AgroTerminal, AgroWeather.
//     It imports neither the store (AgroStore) nor ArgumentParser nor Hummingbird, nor any
//     library that links libcurl, libxml2, zlib or swift-crypto: the errors of AgroStore,
//     AgroUpdate, AgroNews, AgroImport and AgroContent describe themselves as an `ErrorCase`
//     (type, case, arguments; AgroDomain's `DescribedError`) which it words and gives a status
//     from its own tables, and the Environment opens the catalog and the favorites through
//     AgroDomain's `StoreOpener`, which the composition root hands it.
//   AgroCLI (the catalog-query commands, their options, the exit) <- AgroPresentation
//   AgroWeb (routes and templates of `agro web`) <- AgroPresentation, Hummingbird; not AgroCLI.
//   AgroPostgres (the farm journal's store on PostgreSQL, through postgres-nio) <- AgroDomain;
//     only agro-full may link it: the quick `agro` never starts NIO or a PostgreSQL client.
//   Neither front nor AgroPresentation imports AgroStore (scripts/test checks): they read
//   through AgroDomain's use-case protocols (`Catalog`, `SwappableCatalog`, `CatalogList`); the
//   commands get theirs from AgroPresentation's Environment. The composition roots, the two
//   executables (their `main` makes a `LocalStoreOpener`, which `Program.run` hands to the
//   command through its global options, `AgroCommand`) and `agro web`'s
//   start-up (agro-full), are the only code outside AgroStore that names its types.
//   agro (the program users run): the catalog queries from AgroCLI; hands everything else to
//   agro-full (every command), which composes all the modules. The split keeps networking,
//   swift-crypto, zlib and libxml2 out of the process that answers a query (Benchmarks/README.md).
// The benchmark executables are a package of their own (Benchmarks/Package.swift), so that
// neither `swift build` nor the test command builds them; the one executable here that is not a
// product, AgroUpdateTestHelper, is a child process the update tests need.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
// No unsafe flags on a library target, so that every library product can be a versioned
// dependency. The release builds that ship or are measured (`scripts/install`, the benchmarks'
// scripts) pass `-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors`
// for the whole build: a concrete generic type's metadata is then made by a direct call rather
// than from its mangled name, which the runtime decodes and checks by a scan of every protocol
// conformance of the program on first use (the flag took 1.2 M of a quick query's 12.2 M
// instructions off, 4% of its CPU time: Benchmarks/startup/README.md).

let package = Package(
    name: "agro",
    // macOS 15: Synchronization's Mutex guards the caches and the weather breaker.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "agro", targets: ["agro"]),
        .executable(name: "agro-full", targets: ["agro-full"]),
        .library(name: "AgroDomain", targets: ["AgroDomain"]),
        .library(name: "AgroStore", targets: ["AgroStore"]),
        .library(name: "AgroImport", targets: ["AgroImport"]),
        .library(name: "AgroContent", targets: ["AgroContent"]),
        .library(name: "AgroWeather", targets: ["AgroWeather"]),
        .library(name: "AgroWeatherClient", targets: ["AgroWeatherClient"]),
        .library(name: "AgroHTML", targets: ["AgroHTML"]),
        .library(name: "AgroNews", targets: ["AgroNews"]),
        .library(name: "AgroUpdate", targets: ["AgroUpdate"]),
        .library(name: "AgroUpdateClient", targets: ["AgroUpdateClient"]),
        .library(name: "AgroTerminal", targets: ["AgroTerminal"]),
        .library(name: "AgroServer", targets: ["AgroServer"]),
        .library(name: "AgroHTTP", targets: ["AgroHTTP"]),
        .library(name: "AgroWeb", targets: ["AgroWeb"]),
        .library(name: "AgroPostgres", targets: ["AgroPostgres"]),
        .library(name: "AgroAccounts", targets: ["AgroAccounts"]),
        // For the benchmarks package (Benchmarks/Package.swift) only: loopback servers, test catalogs.
        .library(name: "AgroTestSupport", targets: ["AgroTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // The version Hummingbird resolves; `agro web` adds channel handlers (timeouts, limits).
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // The version Hummingbird resolves; `agro web` names its HTTP fields and statuses.
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        // The farm journal's shared store (AgroPostgres): several `agro web` behind nginx.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // The version postgres-nio resolves; the store builds its TLS context (`sslmode=require`).
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // `swift package generate-documentation --target AgroDomain` (and AgroStore); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
        // bcrypt for the farm journal's passwords (HummingbirdBcrypt only).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
    ],
    targets: [
        .target(name: "AgroDomain", swiftSettings: strict),
        .target(name: "AgroCaching", swiftSettings: strict),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // sqlite3_db_config, which Swift cannot call (it is variadic).
        .target(name: "CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        // SQLite's session extension (changesets, for catalog deltas), declared by sqlite3.h only
        // under SQLITE_ENABLE_SESSION, and the canonical row stream of the content hash.
        .target(name: "CSQLiteSession", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "AgroStore",
            dependencies: [
                "AgroDomain", "AgroCaching", "CSQLiteConfig", .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for binding bulk inserts without GRDB's argument boxing.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        // Passwords (bcrypt) and session-token digests for the farm journal's accounts.
        .target(
            name: "AgroAccounts",
            dependencies: [
                "AgroDomain", .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        // `agro journal sync`: a device's journal against its farm's server, over AgroHTTP.
        .target(name: "AgroSyncClient", dependencies: ["AgroDomain", "AgroHTTP"], swiftSettings: strict),
        .target(name: "AgroContent", dependencies: ["AgroDomain", "AgroStore"], swiftSettings: strict),
        .target(name: "AgroImport", dependencies: ["AgroDomain", "AgroStore", "CLibXML2"], swiftSettings: strict),
        // zlib for the gzip-compressed catalogs: Foundation on Linux has no compression API.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "AgroUpdate",
            dependencies: [
                "AgroDomain", "AgroStore", "CZlib", "CSQLiteSession",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        .target(
            name: "AgroUpdateClient",
            dependencies: [
                "AgroDomain", "AgroStore", "AgroUpdate", "AgroHTTP", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        .target(
            name: "AgroServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The farm journal on PostgreSQL (`FarmStore`), for several instances sharing one journal.
        .target(
            name: "AgroPostgres",
            dependencies: [
                "AgroDomain", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // A child process the update tests kill with SIGKILL at chosen instants.
        .executableTarget(
            name: "AgroUpdateTestHelper",
            dependencies: ["AgroUpdate", "AgroUpdateClient", "AgroStore"],
            swiftSettings: strict),
        // Weather models, cache, spray advisor and text: no network, so the presentation layer
        // (and with it the query program) can word weather without linking libcurl.
        .target(name: "AgroWeather", dependencies: ["AgroDomain", "AgroTerminal"], swiftSettings: strict),
        // The OpenWeatherMap client (AgroHTTP, libcurl): only agro-full links it.
        .target(name: "AgroWeatherClient", dependencies: ["AgroDomain", "AgroWeather", "AgroHTTP"], swiftSettings: strict),
        // Display widths and what the output terminal accepts; no C library, so the query program
        // can use it without loading libxml2.
        .target(name: "AgroTerminal", swiftSettings: strict),
        .target(name: "AgroHTML", dependencies: ["CLibXML2", "AgroTerminal"], swiftSettings: strict),
        .target(name: "AgroNews", dependencies: ["AgroDomain", "AgroHTML", "CLibXML2", "AgroHTTP"], swiftSettings: strict),
        // libcurl's variadic curl_easy_setopt/getinfo as typed C functions Swift can call.
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("curl")]),
        // The one HTTP layer (libcurl): caps on decoded bodies, deadlines, idle timeouts.
        .target(name: "AgroHTTP", dependencies: ["CCurlShim"], swiftSettings: strict),
        // Test helpers only (loopback HTTP servers, one of them misbehaving on purpose; small
        // test catalogs); its library product exists for the benchmarks package alone.
        .target(name: "AgroTestSupport", dependencies: ["AgroDomain", "AgroStore", "CZlib"], swiftSettings: strict),
        // Documents (JSON shapes), the localizer, the wording of every library error, plan-check
        // finding, tank warning and weather verdict, CSV and JSON encoding, the environment a
        // command or a request runs in. Neither ArgumentParser nor Hummingbird; no library
        // that links libcurl, libxml2, zlib or swift-crypto (their errors come as ErrorCase).
        .target(
            name: "AgroPresentation",
            dependencies: ["AgroDomain", "AgroCaching", "AgroTerminal", "AgroWeather"],
            swiftSettings: strict),
        .target(
            name: "AgroCLI",
            dependencies: [
                "AgroDomain", "AgroTerminal", "AgroPresentation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "agro",
            dependencies: [
                "AgroCLI", "AgroPresentation", "AgroDomain", "AgroStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            // The static Swift runtime links with `-export-dynamic`, which put 12,900 of the
            // program's symbols in its dynamic symbol table; nothing looks them up, but the
            // runtime's start-up `dladdr` reads the whole table: 0.43 M instructions of a
            // catalog query's 26 M (Benchmarks/README.md).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(
            name: "agro-full",
            dependencies: [
                "AgroCLI", "AgroPresentation", "AgroDomain", "AgroStore", "AgroContent", "AgroImport", "AgroWeather",
                "AgroWeatherClient", "AgroHTML",
                "AgroTerminal", "AgroNews", "AgroUpdate", "AgroUpdateClient", "AgroServer", "AgroWeb", "AgroAccounts",
                "AgroSyncClient", "AgroPostgres", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // `agro web`: the catalog as a web app and a JSON API (Hummingbird, Mustache templates from
        // Assets/web). Answers with AgroPresentation's documents, encoder and wording, so the
        // API's JSON and messages are the CLI's.
        .target(
            name: "AgroWeb",
            dependencies: [
                "AgroPresentation", "AgroDomain", "AgroCaching", "AgroUpdate", "AgroWeather", "AgroNews", "AgroHTML",
                "AgroServer", "CLibXML2",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AgroImportTests", dependencies: ["AgroImport", "AgroStore", "AgroDomain", "CLibXML2", "AgroTestSupport"]),
        .testTarget(
            name: "AgroUpdateTests",
            dependencies: [
                "AgroUpdate", "AgroUpdateClient", "AgroServer", "AgroStore", "AgroDomain", "AgroTestSupport",
                "AgroUpdateTestHelper",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "AgroStoreTests",
            dependencies: [
                "AgroStore", "AgroDomain", "AgroContent", "AgroAccounts", "AgroPostgres", "AgroTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(name: "AgroCachingTests", dependencies: ["AgroCaching"]),
        .testTarget(name: "AgroDomainTests", dependencies: ["AgroDomain"]),
        .testTarget(name: "AgroPresentationTests", dependencies: ["AgroPresentation", "AgroDomain"]),
        .testTarget(name: "AgroContentTests", dependencies: ["AgroContent", "AgroStore", "AgroDomain"]),
        .testTarget(
            name: "AgroCLITests",
            dependencies: [
                "agro", "agro-full", "AgroDomain", "AgroTestSupport",
                // The error table's test (ErrorWordingTests) builds the libraries' errors.
                "AgroCLI", "AgroPresentation", "AgroStore", "AgroUpdate", "AgroWeather", "AgroNews", "AgroImport",
                "AgroContent", "AgroPostgres", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "AgroWeatherTests", dependencies: ["AgroWeather", "AgroWeatherClient", "AgroDomain", "AgroTestSupport"]),
        .testTarget(name: "AgroHTMLTests", dependencies: ["AgroHTML", "AgroTerminal", "AgroTestSupport"]),
        .testTarget(name: "AgroHTTPTests", dependencies: ["AgroHTTP", "AgroTestSupport"]),
        .testTarget(name: "AgroNewsTests", dependencies: ["AgroNews", "AgroHTML", "AgroDomain", "AgroTestSupport"]),
        .testTarget(
            name: "AgroWebTests",
            dependencies: [
                "AgroWeb", "AgroPresentation", "agro-full", "AgroDomain", "AgroTestSupport", "AgroStore", "AgroAccounts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]),
    ]
)

// The same manifest seen from `Query/` (`Query/Package.swift` and `Query/Sources` are symbolic
// links to this file and `Sources/`) declares only `agro`, the targets it depends on and their
// packages (GRDB and swift-argument-parser). `scripts/agro` builds a catalog query there: a fresh
// clone's first answer does not wait for SwiftPM to resolve, check out and load the 27 other
// packages of the web stack (the whole package took 1.45x as long to the same first answer,
// Benchmarks/README.md), and the query build has its own `Query/.build` and
// `Query/Package.resolved`. Computed from the targets above, so the two graphs cannot drift apart.
if Context.packageDirectory.hasSuffix("/Query") {
    let targetsByName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed: Set<String> = [], packages: Set<String> = [], pending = ["agro"]
    while let name = pending.popLast() {
        guard let target = targetsByName[name], needed.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            case .productItem(_, let package?, _, _): packages.insert(package.lowercased())
            default: break
            }
        }
    }
    package.products = package.products.filter { $0.name == "agro" }
    package.targets = package.targets.filter { needed.contains($0.name) }
    package.dependencies = package.dependencies.filter { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        let name = location.split(separator: "/").last.map { $0.lowercased() } ?? ""
        return packages.contains(name.hasSuffix(".git") ? String(name.dropLast(4)) : name)
    }
}
