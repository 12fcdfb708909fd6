import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import ArgumentParser
import Foundation

struct DbStatusCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the catalog in use: bundled or installed, version, schema, languages, file, size, last check.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "db status")
        let status = try environment.catalogStore.status()
        if let warning = status.active.warning { Terminal.standardError.line("agro: warning: " + warning) }
        let active = status.active
        // The selection read the title in the catalog's default locale; the reader's language wins.
        let info =
            (try? SQLiteCatalog(path: active.path, maximumReaders: 1).catalogInfo(locale: environment.locale)) ?? active.info
        let document = CatalogStatusDocument(status, info: info)
        try environment.print(document) { document.card(environment) }
    }
}
