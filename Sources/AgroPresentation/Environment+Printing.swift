import Foundation

package extension Environment {
    /// Prints a command's answer in the format asked for: `document` as JSON (the bytes `agro
    /// web`'s API answers with), the CSV `rows` (the header first), or the table's `lines`.
    /// Only the one asked for is built.
    func print(_ document: some Encodable, csv rows: () throws -> [[String]], table lines: () throws -> [String]) throws {
        switch format {
        case .json:
            try printJSON(document)
        case .csv:
            for row in try rows() { output.write(CSV.line(row) + "\n") }
        case .table:
            print(try lines())
        }
    }

    /// Prints an answer that is no list: `document` as JSON, or the table's `lines`. Such a
    /// command refuses `--format csv` at its start (`refuseCSV`); JSON is what it would print.
    func print(_ document: some Encodable, table lines: () throws -> [String]) throws {
        if format == .table { print(try lines()) } else { try printJSON(document) }
    }
}
