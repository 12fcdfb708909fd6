import AgroDomain

extension Environment {
    /// Refuses `--format csv` for a command whose output is one record (a card, a report, a
    /// manifest) rather than a list: one line and status 64, before any work is done.
    ///
    /// Lists, and cards that carry a list (a product's uses), print CSV rows; everything else
    /// calls this first (docs/cli.md, "Lists, pages and formats").
    package func refuseCSV(_ command: String) throws {
        guard format == .csv else { return }
        throw RequestError.notAList(command: "agro " + command)
    }
}
