import AgroCLI
import AgroDomain
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `agro`: an agrochemical reference catalog for the command line.
///
/// This program answers the catalog queries (products, pests, cultures, schemes, search,
/// contacts, favorites) itself and hands every other command line, help and errors included,
/// to `agro-full` beside it, which has every command. The split keeps what a catalog query does
/// not need out of this process: the networking stack (libcurl and some thirty libraries
/// through FoundationNetworking, SwiftNIO, Hummingbird) and libxml2 take longer to load than
/// the query takes to answer.
@main
struct Agro: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "agro", subcommands: CatalogCommands.all)

    @OptionGroup var global: GlobalOptions

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Anything this program would not run as a catalog query (help, --version, a usage
        // error, another command) goes to agro-full, so it is answered exactly as before.
        guard let command = try? parseAsRoot(arguments), ownCommands.contains(ObjectIdentifier(type(of: command)))
        else { handOver(arguments) }
        await Program.run(command, root: self)
    }

    /// The catalog-query commands and their subcommands (favorites add, ...), not the root
    /// or the built-in help.
    private static var ownCommands: Set<ObjectIdentifier> {
        var types: [any ParsableCommand.Type] = CatalogCommands.all
        var found = Set<ObjectIdentifier>()
        while let type = types.popLast() {
            found.insert(ObjectIdentifier(type))
            types += type.configuration.subcommands
        }
        return found
    }

    /// Replaces this process with `agro-full` from the same directory, same arguments.
    private static func handOver(_ arguments: [String]) -> Never {
        let path = Paths.executableDirectory.appendingPathComponent("agro-full").path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Program.fail("cannot start \(path): \(String(cString: strerror(errno))); reinstall agro", .ioError)
    }
}
