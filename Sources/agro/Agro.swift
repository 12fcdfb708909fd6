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
enum Agro {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Anything this program would not run as a catalog query (help, --version, a usage
        // error, another command) goes to agro-full, so it is answered exactly as before.
        guard let command = catalogQuery(arguments) else { handOver(arguments) }
        // agro-full reports usage errors with the whole program's usage.
        Program.run(command, usageError: { _ in handOver(arguments) })
    }

    /// The command line parsed as a catalog query, by that command's type alone; nil when it
    /// is not one.
    ///
    /// Parsing with the query's own type instead of the whole command tree saves most of
    /// swift-argument-parser's start-up work (reflection over every command's options). The
    /// global options given before the command's name move after it: every command accepts
    /// them there too.
    static func catalogQuery(_ arguments: [String]) -> (any ParsableCommand)? {
        var global: [String] = [], index = arguments.startIndex
        while index < arguments.endIndex, arguments[index].hasPrefix("-") {
            let option = arguments[index]
            if valuedGlobalOptions.contains(option), index + 1 < arguments.endIndex {
                global += arguments[index...(index + 1)]
                index += 2
            } else if let equals = option.firstIndex(of: "="), valuedGlobalOptions.contains(String(option[..<equals])) {
                global.append(option)
                index += 1
            } else {
                return nil
            }
        }
        guard index < arguments.endIndex,
              let type = CatalogCommands.all.first(where: { $0.configuration.commandName == arguments[index] })
        else { return nil }
        // The global options go after the subcommand names (`plan check`), where the command
        // that declares them can read them.
        var end = index + 1, current: any ParsableCommand.Type = type
        while end < arguments.endIndex,
              let sub = current.configuration.subcommands.first(where: { $0.configuration.commandName == arguments[end] }) {
            current = sub
            end += 1
        }
        guard let command = try? type.parseAsRoot(Array(arguments[(index + 1)..<end]) + global + arguments[end...]),
              // Not the library's help command (`agro favorites help add`).
              isCommand(Swift.type(of: command), in: type)
        else { return nil }
        return command
    }

    /// The options of `GlobalOptions` that take a value.
    private static let valuedGlobalOptions: Set<String> = ["--catalog", "--lang", "--format"]

    /// Whether `type` is `root` or one of its subcommands, at any depth.
    private static func isCommand(_ type: any ParsableCommand.Type, in root: any ParsableCommand.Type) -> Bool {
        type == root || root.configuration.subcommands.contains { isCommand(type, in: $0) }
    }

    /// Replaces this process with `agro-full` from the same directory, same arguments.
    private static func handOver(_ arguments: [String]) -> Never {
        let path = Paths.executableDirectory.appendingPathComponent("agro-full").path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Program.fail("cannot start \(path): \(String(cString: strerror(errno))); reinstall agro", .ioError)
    }
}
