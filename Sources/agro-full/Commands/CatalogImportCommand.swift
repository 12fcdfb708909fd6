import AgroCLI
import AgroDomain
import AgroImport
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

struct CatalogImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a national register into a catalog file.",
        subcommands: [SRPPP.self])

    struct SRPPP: AgroCommand {
        static let configuration = CommandConfiguration(
            commandName: "srppp",
            abstract: "Import the Swiss register of plant protection products (BLV), XML, .zip or .xz.",
            discussion: """
                Source: Swiss Federal Food Safety and Veterinary Office (BLV), https://www.psm.admin.ch. \
                A listing is no recommendation; in doubt, only the registration documents apply. Data errors \
                in the register are counted and shown with examples; they do not stop the import.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The register: PublicationData_*.xml, or the published .zip or .xz.") var file: String
        @Option(help: "Catalog file to write.") var out: String
        @Option(help: "Catalog version (default: the publication date, e.g. 20260203).") var version: Int?

        func run() throws {
            // Before anything opens a connection; the import's writer allocates much.
            SQLiteProcessSettings.disableMemoryStatistics()
            let environment = try Environment(global, refusingCSVFor: "catalog import srppp")
            let report = try SRPPPImporter(options: SRPPPImportOptions(version: version)).importFile(at: file, to: out)
            try environment.print(report) { report.summary.components(separatedBy: "\n") }
        }
    }
}
