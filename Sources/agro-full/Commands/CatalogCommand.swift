import AgroCLI
import AgroContent
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import ArgumentParser
import Foundation

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Build, import, publish and inspect catalog files.",
        subcommands: [
            CatalogBuildCommand.self, CatalogImportCommand.self, CatalogPublishCommand.self, CatalogInfoCommand.self,
            CatalogSchemaCommand.self,
        ])
}

struct CatalogBuildCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a catalog file from content sources (see Database/content/README.md).",
        discussion: "The same sources give the same bytes. Every problem is listed with its file and entry; exit status 65.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Folder of content sources.") var sources: String
    @Option(help: "Catalog file to write.") var out: String

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "catalog build")
        let builder = ContentBuilder(sourceDirectory: URL(fileURLWithPath: sources))
        do {
            let report = try builder.build(to: out)
            let counts = report.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            environment.print(
                environment.strings(
                    "catalog.built", out, report.info.identity, report.info.version, counts))
        } catch let error as ContentBuildError {
            // Every problem on its own line, so an editor can fix them all in one pass.
            for problem in error.problems.dropLast() { Terminal.standardError.line("agro: " + problem.description) }
            throw ContentBuildError(problems: error.problems.suffix(1))
        }
    }
}

struct CatalogInfoCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show the identity, version and languages of the catalog in use.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "catalog info")
        let catalog = try environment.openCatalog()
        let info = try catalog.catalogInfo(locale: environment.locale)
        let size = ((try? FileManager.default.attributesOfItem(atPath: catalog.path))?[.size] as? Int) ?? 0
        let contentHash = try ContentHash.of(catalog: catalog.path)
        let document = CatalogFileDocument(path: catalog.path, size: size, contentHash: contentHash, info: info)
        try environment.print(document) { document.card(environment) }
    }
}

struct CatalogSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Print the SQL schema of catalog files (as kept in Database/schema.sql).")

    func run() throws {
        Terminal.standardOutput.write(CatalogSchema.script)
    }
}
