import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `agro`: an agrochemical reference catalog for the command line.
///
/// This program answers the catalog queries (products, pests, cultures, schemes, search,
/// contacts, favorites, uses, plan check, tank) itself and hands every other command line, help
/// and errors included, to `agro-full` beside it, which has every command. The split keeps what a
/// catalog query does not need out of this process: linking libcurl, SwiftNIO and Hummingbird,
/// libxml2 and swift-crypto made a query take 1.70x-2.01x as long (Benchmarks/startup/README.md).
@main
enum Agro {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--build-id"] {
            print(BuildID.value)
            exit(0)
        }
        // `scripts/agro` asks before it builds agro-full: status 0 when this program answers the
        // command line itself, 1 when it would hand it to agro-full.
        if arguments.first == "--answers-itself" {
            exit(query(Array(arguments.dropFirst())) == nil ? 1 : 0)
        }
        // The catalog files and user database on this machine; a list printed whole read through
        // the SQLite C API (`DirectCatalog`), not GRDB: 19% of a products query's CPU time, 12% of
        // a search's (Benchmarks/startup/README.md).
        let stores = LocalStoreOpener(lists: .direct)
        // Anything this program would not run as a catalog query (help, --version, a usage
        // error, another command) goes to agro-full, so it is answered exactly as before.
        guard let command = query(arguments) else { handOver(arguments) }
        // agro-full reports usage errors with the whole program's usage.
        Program.run(command, stores: stores, usageError: { _ in handOver(arguments) })
    }

    /// The catalog query `arguments` make, nil for none: the plain lines read by hand
    /// (`QuickCommandLine`: 24% of a products query's CPU time, 22% of a search's,
    /// Benchmarks/startup/README.md), the others by swift-argument-parser.
    private static func query(_ arguments: [String]) -> (any AgroCommand)? {
        QuickCommandLine.parse(arguments) ?? CatalogCommands.parse(arguments)
    }

    /// Replaces this process with `agro-full` from the same directory, same arguments.
    private static func handOver(_ arguments: [String]) -> Never {
        let path = Paths.executableDirectory.appendingPathComponent("agro-full").path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        // agro-full refuses to run for an agro of another build (see `BuildID`).
        setenv(BuildID.variable, BuildID.value, 1)
        execv(path, argv)
        Program.fail("cannot start \(path): \(String(cString: strerror(errno))); reinstall agro", .ioError)
    }
}
