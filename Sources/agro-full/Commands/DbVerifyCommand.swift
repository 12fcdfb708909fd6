import AgroCLI
import AgroDomain
import AgroPresentation
import AgroStore
import AgroUpdate
import ArgumentParser
import Foundation

struct DbVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-check the catalog in use: integrity check, metadata, and sha256 against its installed name.",
        discussion: "Exit status 96 when it fails.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var ok: Bool
        var source: CatalogSource
        var path: String
        var sha256: String
        var size: Int64
        var info: CatalogInfo
    }

    func run() throws {
        let environment = try Environment(global)
        try environment.refuseCSV("db verify")
        let report = try environment.catalogStore.verify()
        switch environment.format {
        case .json, .csv:  // csv: refused at the start
            try environment.printJSON(
                Document(
                    ok: true, source: report.source, path: report.path, sha256: report.sha256, size: report.size,
                    info: report.info))
        case .table:
            environment.print(
                environment.strings(
                    "db.verify.ok", report.info.identity, report.info.version,
                    environment.strings("db.source." + report.source.rawValue),
                    report.path, report.sha256))
        }
    }
}
