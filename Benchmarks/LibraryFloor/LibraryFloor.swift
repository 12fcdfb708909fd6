// The floor of agro's libraries for the whole-process benchmark: what any Swift program pays to
// answer a catalog query the way agro does, before agro's own code. It parses a command line
// like agro's with swift-argument-parser, opens the catalog read-only through one GRDB
// connection, runs the SQL statements it is given (the ones agro's store runs for the query),
// and prints every row as JSON through JSONEncoder. Built like agro (Benchmarks/run.sh).
import ArgumentParser
import Foundation
import GRDB

@main
struct LibraryFloor: ParsableCommand {
    @Option var catalog: String
    @Option var lang: String = "en"
    @Option var format: String = "table"
    @Option var pest: String?
    @Option var culture: String?
    @Option(name: .customLong("per-page")) var perPage: Int?
    @Option(name: .customLong("sql"), help: "A statement to run (repeatable).") var statements: [String] = []
    @Argument var words: [String] = []

    func run() throws {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: catalog, configuration: configuration)
        let results = try database.read { db in
            try statements.map { sql in
                try Row.fetchAll(db, sql: sql).map { row in
                    Dictionary(row.map { ($0, String.fromDatabaseValue($1) ?? $1.description) }, uniquingKeysWith: { first, _ in first })
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(results))
    }
}
