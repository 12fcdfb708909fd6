import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import ArgumentParser
import Foundation

struct DbVerifyCommand: AgroCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-check the catalog in use: integrity check, metadata, and sha256 against its installed name.",
        discussion: "Exit status 96 when it fails.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let environment = try Environment(global, refusingCSVFor: "db verify")
        let report = try environment.catalogStore.verify()
        let document = CatalogVerificationDocument(
            source: report.source, path: report.path, sha256: report.sha256, size: report.size, info: report.info)
        try environment.print(document) { [document.line(environment.strings)] }
    }
}
