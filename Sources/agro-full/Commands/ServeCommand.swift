import AgroCLI
import AgroDomain
import AgroPresentation
import AgroServer
import ArgumentParser
import Foundation
import Logging

/// `agro serve`: serves a publishing directory over HTTP.
struct ServeCommand: AsyncParsableCommand, AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a publishing directory (agro catalog publish) to agro db check and update.",
        discussion: """
            A static file server with ETag, Range requests and an access log on stderr. Prints the address it \
            listens on once ready (useful with --port 0). Stops on SIGINT or SIGTERM.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The publishing directory.") var directory: String
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8080

    func validate() throws {
        if !(0...65535).contains(port) {
            throw UsageError(
                .outOfRange(option: "--port", value: String(port), minimum: 0, maximum: 65535), command: "agro serve")
        }
    }

    func run() async throws {
        let environment = try Environment(global, refusingCSVFor: "serve")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PathError.notADirectory(directory)
        }
        if !FileManager.default.fileExists(atPath: directory + "/manifest.json") {
            Terminal.standardError.line("agro: warning: \(directory) has no manifest.json yet; publish a catalog into it")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "agro.serve")
        let host = self.host, directory = self.directory, strings = environment.strings
        let application = CatalogServer.makeApplication(directory: directory, host: host, port: port, logger: logger) { port in
            let shown = host.contains(":") ? "[\(host)]" : host
            Terminal.standardOutput.line(strings("serve.listening", directory, "http://\(shown):\(port)/"))
        }
        try await application.runService()
    }
}
